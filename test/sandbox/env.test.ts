/**
 * The command environment: what the allowlist passes, what it never passes, and the fixed values.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { PitcrewError } from "../../src/errors.ts";
import { checkExtraEnv, isSecretName, sandboxEnv } from "../../src/sandbox/env.ts";

const FIXED = { home: "/home/runner", tmp: "/tmp" };

function refusal(name: string): (error: unknown) => boolean {
  return (error) =>
    error instanceof PitcrewError &&
    error.code === "sandbox-env-refused" &&
    error.message.includes(name);
}

describe("sandboxEnv: the allowlist", () => {
  test("exact names pass; everything unlisted is dropped", () => {
    const env = sandboxEnv(
      {
        PATH: "/usr/bin:/bin",
        LANG: "de_DE.UTF-8",
        TERM: "xterm",
        TZ: "UTC",
        GITHUB_WORKSPACE: "/w",
        GITHUB_REPOSITORY: "o/r",
        GITHUB_SHA: "abc",
        RUNNER_OS: "Linux",
        RUNNER_ARCH: "X64",
        CARGO_HOME: "/h/.cargo",
        GOFLAGS: "-mod=mod",
        VIRTUAL_ENV: "/venv",
        EDITOR: "vim",
        USER: "runner",
        PWD: "/somewhere",
        OLDPWD: "/else",
        SHELL: "/bin/bash",
        RUNNER_NAME: "hosted",
        GITHUB_EVENT_PATH: "/runner/_temp/event.json",
        undefinedOne: undefined,
      },
      [],
      FIXED,
    );
    assert.deepEqual(env, {
      PATH: "/usr/bin:/bin",
      LANG: "de_DE.UTF-8",
      TERM: "xterm",
      TZ: "UTC",
      GITHUB_WORKSPACE: "/w",
      GITHUB_REPOSITORY: "o/r",
      GITHUB_SHA: "abc",
      RUNNER_OS: "Linux",
      RUNNER_ARCH: "X64",
      CARGO_HOME: "/h/.cargo",
      GOFLAGS: "-mod=mod",
      VIRTUAL_ENV: "/venv",
      HOME: "/home/runner",
      TMPDIR: "/tmp",
      CI: "true",
    });
  });

  test("prefix families pass: LC_*, JAVA_HOME*, GOROOT_*, ANDROID_*, PITCREW_SANDBOX_*", () => {
    const env = sandboxEnv(
      {
        LC_ALL: "C",
        LC_CTYPE: "C.UTF-8",
        JAVA_HOME: "/jdk",
        JAVA_HOME_17_X64: "/jdk17",
        GOROOT_1_22_X64: "/go",
        ANDROID_HOME: "/sdk",
        ANDROID_NDK: "/ndk",
        PITCREW_SANDBOX_FOO: "bar",
        XLC_ALL: "no",
        MY_JAVA_HOME: "no",
        GOROOTX: "no",
      },
      [],
      FIXED,
    );
    for (const name of [
      "LC_ALL",
      "LC_CTYPE",
      "JAVA_HOME",
      "JAVA_HOME_17_X64",
      "GOROOT_1_22_X64",
      "ANDROID_HOME",
      "ANDROID_NDK",
      "PITCREW_SANDBOX_FOO",
    ]) {
      assert.ok(name in env, name);
    }
    for (const name of ["XLC_ALL", "MY_JAVA_HOME", "GOROOTX"]) assert.ok(!(name in env), name);
  });

  test("extra names the user lists pass, when the host has them", () => {
    const env = sandboxEnv(
      { MY_TOOL_DIR: "/opt/tool", OTHER: "x" },
      ["MY_TOOL_DIR", "ABSENT"],
      FIXED,
    );
    assert.equal(env.MY_TOOL_DIR, "/opt/tool");
    assert.ok(!("OTHER" in env));
    assert.ok(!("ABSENT" in env));
  });
});

describe("sandboxEnv: secrets never pass", () => {
  const SECRET_NAMES = [
    "GITHUB_TOKEN",
    "GH_TOKEN",
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "MY_APIKEY",
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "NPM_AUTH_TOKEN",
    "NODE_AUTH_TOKEN",
    "DB_PASSWORD",
    "SMTP_PASSWD",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "GPG_PRIVATE_KEY",
    "SESSION_COOKIE",
    "INPUT_API_KEY",
    "INPUT_ANYTHING",
    "ACTIONS_RUNTIME_TOKEN",
    "ACTIONS_ID_TOKEN_REQUEST_URL",
    "ACTIONS_CACHE_URL",
    "GITHUB_ENV",
    "GITHUB_OUTPUT",
    "GITHUB_PATH",
    "GITHUB_STATE",
    "GITHUB_STEP_SUMMARY",
    "RUNNER_TEMP",
    "NODE_OPTIONS",
    "LD_PRELOAD",
    "LD_LIBRARY_PATH",
    "BASH_ENV",
    "ENV",
    "SSH_AUTH_SOCK",
    "github_token",
  ];

  test("every credential-looking or control name is recognised", () => {
    for (const name of SECRET_NAMES) assert.ok(isSecretName(name), name);
    for (const name of ["PATH", "LANG", "CI", "HOME", "JAVA_HOME", "GOPATH", "RUNNER_OS", "TERM"]) {
      assert.ok(!isSecretName(name), name);
    }
  });

  test("secret names are dropped even when they match the allowlist's prefixes", () => {
    const env = sandboxEnv(
      {
        ANDROID_KEYSTORE_PASSWORD: "p",
        ANDROID_SIGNING_KEY_PRIVATE: "k",
        PITCREW_SANDBOX_TOKEN: "t",
        LC_SECRET: "s",
        JAVA_HOME_AUTH: "a",
        PATH: "/bin",
      },
      [],
      FIXED,
    );
    assert.deepEqual(Object.keys(env).sort(), ["CI", "HOME", "LANG", "PATH", "TMPDIR"]);
  });

  test("none of them passes from a host environment holding them all", () => {
    const host = Object.fromEntries(SECRET_NAMES.map((name) => [name, `secret-of-${name}`]));
    const env = sandboxEnv({ ...host, PATH: "/bin" }, [], FIXED);
    for (const value of Object.values(env)) assert.ok(!value.startsWith("secret-of-"), value);
  });

  test("listing a secret name in extraEnv is refused with sandbox-env-refused, naming it", () => {
    for (const name of [
      "GITHUB_TOKEN",
      "OPENAI_API_KEY",
      "INPUT_X",
      "ACTIONS_RUNTIME_URL",
      "LD_PRELOAD",
    ]) {
      assert.throws(() => sandboxEnv({ [name]: "v" }, ["SAFE", name], FIXED), refusal(name));
      assert.throws(() => checkExtraEnv([name]), refusal(name));
    }
    assert.doesNotThrow(() => checkExtraEnv(["MY_TOOL_DIR", "FOO"]));
  });
});

describe("sandboxEnv: fixed values", () => {
  test("HOME and TMPDIR are the backend's, whatever the host says", () => {
    const env = sandboxEnv(
      { HOME: "/root", TMPDIR: "/host/tmp", PATH: "/bin" },
      ["HOME", "TMPDIR"],
      { home: "/sandbox/home", tmp: "/sandbox/tmp" },
    );
    assert.equal(env.HOME, "/sandbox/home");
    assert.equal(env.TMPDIR, "/sandbox/tmp");
  });

  test("CI, LANG and PATH get defaults, and keep the host's values when it has them", () => {
    const bare = sandboxEnv({}, [], FIXED);
    assert.deepEqual(bare, {
      PATH: "/usr/local/bin:/usr/bin:/bin",
      HOME: "/home/runner",
      TMPDIR: "/tmp",
      LANG: "C.UTF-8",
      CI: "true",
    });
    const host = sandboxEnv({ CI: "1", LANG: "fr_FR.UTF-8", PATH: "/opt/bin" }, [], FIXED);
    assert.equal(host.CI, "1");
    assert.equal(host.LANG, "fr_FR.UTF-8");
    assert.equal(host.PATH, "/opt/bin");
  });
});
