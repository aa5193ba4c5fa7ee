/**
 * The sandboxed command's environment, built from an allowlist of the harness's. Nothing is
 * copied by default: a name must be listed here or by the user, and names that look like
 * credentials are refused even when listed.
 */
import { PitcrewError } from "../errors.ts";

/** Exact names passed through when the harness has them. */
const ALLOWED_NAMES = new Set([
  "PATH",
  "LANG",
  "LANGUAGE",
  "TERM",
  "TZ",
  "CI",
  "GITHUB_ACTIONS",
  "GITHUB_WORKSPACE",
  "GITHUB_REPOSITORY",
  "GITHUB_SHA",
  "GITHUB_REF",
  "GITHUB_REF_NAME",
  "GITHUB_BASE_REF",
  "GITHUB_HEAD_REF",
  "RUNNER_OS",
  "RUNNER_ARCH",
  "CARGO_HOME",
  "RUSTUP_HOME",
  "GOPATH",
  "GOROOT",
  "GOFLAGS",
  "GOMODCACHE",
  "DOTNET_ROOT",
  "NODE_ENV",
  "PYTHONPATH",
  "VIRTUAL_ENV",
  "MAVEN_HOME",
  "GRADLE_HOME",
]);

/** Name prefixes passed through (toolchain variables that come in families). */
const ALLOWED_PREFIXES = ["LC_", "JAVA_HOME", "GOROOT_", "ANDROID_", "PITCREW_SANDBOX_"];

/** Never passed, whoever asks: credentials and the runner's control channels. */
const SECRET_NAME =
  /TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|PRIVATE|API_?KEY|ACCESS_?KEY|AUTH|COOKIE|SESSION|^INPUT_|^ACTIONS_|^GITHUB_TOKEN$|^GH_TOKEN$|^GITHUB_ENV$|^GITHUB_OUTPUT$|^GITHUB_PATH$|^GITHUB_STATE$|^GITHUB_STEP_SUMMARY$|^RUNNER_TEMP$|^NODE_OPTIONS$|^LD_|^BASH_ENV$|^ENV$|^SSH_/i;

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** Refuses user-listed names that could carry a credential, naming the first one. */
export function checkExtraEnv(names: readonly string[]): void {
  const bad = names.find(isSecretName);
  if (bad !== undefined) {
    throw new PitcrewError(
      "sandbox-env-refused",
      `The sandbox never receives ${bad}: it looks like a credential or a runner control variable. Remove it from the sandbox env list.`,
    );
  }
}

/**
 * The command environment: allowlisted names from `hostEnv`, then the fixed values every
 * sandbox gets (`HOME` and `TMPDIR` as the backend lays them out, `CI`).
 */
export function sandboxEnv(
  hostEnv: Readonly<Record<string, string | undefined>>,
  extraNames: readonly string[],
  fixed: { home: string; tmp: string },
): Record<string, string> {
  checkExtraEnv(extraNames);
  const extra = new Set(extraNames);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(hostEnv)) {
    if (value === undefined || isSecretName(name)) continue;
    const allowed =
      ALLOWED_NAMES.has(name) ||
      extra.has(name) ||
      ALLOWED_PREFIXES.some((prefix) => name.startsWith(prefix));
    if (allowed) env[name] = value;
  }
  env.PATH ??= "/usr/local/bin:/usr/bin:/bin";
  env.HOME = fixed.home;
  env.TMPDIR = fixed.tmp;
  env.LANG ??= "C.UTF-8";
  env.CI ??= "true";
  return env;
}
