/**
 * What in a CI definition lets a failing check pass: which files define what CI runs (workflows,
 * composite actions, Makefiles, package.json scripts) and, for one added line of such a file,
 * whether it lets a step fail (`continue-on-error: true`) or throws a command's exit code away
 * (`|| true`, `|| exit 0`, `; exit 0`, `set +e`, make's `-` prefix). Pure rules over lines; the
 * weakened-test check (weakened.ts) applies them to a diff's added lines.
 */
import type { Weakening } from "../domain/ci.ts";

export type CiFile = "workflow" | "makefile" | "package-json";

/** What kind of CI definition `path` is, or undefined when it is none. */
export function ciFile(path: string): CiFile | undefined {
  if (/^\.github\/(?:workflows\/[^/]+|actions\/.+\/action)\.ya?ml$/.test(path)) return "workflow";
  if (/(?:^|\/)(?:GNUmakefile|[Mm]akefile|[^/]+\.mk)$/.test(path)) return "makefile";
  if (/(?:^|\/)package\.json$/.test(path)) return "package-json";
  return undefined;
}

/**
 * A shell line with its comment removed and its quoted strings emptied, so `echo "a || true"` or
 * `# || true` says nothing about exit codes.
 */
function shellCode(line: string): string {
  return line
    .replace(/'[^']*'?|"(?:[^"\\]|\\.)*"?/g, (quoted) => quoted[0] ?? "")
    .replace(/(?:^|\s)#.*$/, "");
}

/** `|| true`, `|| :`, `|| exit 0`, `|| echo …`, `|| return 0`, `; exit 0`, `set +e`. */
const SWALLOWS = [
  /\|\|\s*(?:true\b|:(?=\s|;|\)|$)|exit\s+0\b|return\s+0\b|echo\b)/,
  /;\s*exit\s+0\b/,
  /\bset\s+(?:\+e\b|\+o\s+errexit\b)/,
];

function swallowsExitCode(shell: string): boolean {
  const code = shellCode(shell);
  return SWALLOWS.some((pattern) => pattern.test(code));
}

/** A YAML scalar as written after `run:`: quoted ones read, plain ones and `|`/`>` as they are. */
function yamlScalar(value: string): string {
  const trimmed = value.trim();
  if (trimmed.startsWith("'"))
    return trimmed
      .slice(1)
      .replace(/'(?:\s+#.*)?$/, "")
      .replace(/''/g, "'");
  if (trimmed.startsWith('"')) {
    try {
      return JSON.parse(trimmed.replace(/\s+#.*$/, "")) as string;
    } catch {
      return trimmed.slice(1);
    }
  }
  return trimmed;
}

/** `continue-on-error: true`, with quotes or as the expression `${{ true }}`. */
const CONTINUE_ON_ERROR =
  /^\s*(?:-\s+)?continue-on-error\s*:\s*(?:true|'true'|"true"|\$\{\{\s*true\s*\}\})\s*(?:#.*)?$/;
const RUN_KEY = /^\s*(?:-\s+)?run\s*:(.*)$/;
const YAML_KEY = /^\s*(?:-\s+)?[\w-]+\s*:(?:\s|$)/;
/** `"test": "jest || true",` in package.json. */
const SCRIPT_ENTRY = /^\s*"(?:[^"\\]|\\.)*"\s*:\s*("(?:[^"\\]|\\.)*")\s*,?\s*$/;

/** The weakening an added line of a CI definition of kind `kind` makes, if it makes one. */
export function ciWeakening(line: string, kind: CiFile): Weakening["kind"] | undefined {
  switch (kind) {
    case "workflow": {
      if (CONTINUE_ON_ERROR.test(line)) return "continue-on-error";
      if (/^\s*#/.test(line)) return undefined;
      // A `run:` line's own script, or a line of a `run: |` block; another key's `||` (an `if:`
      // expression) is no shell.
      const run = RUN_KEY.exec(line);
      if (!run && YAML_KEY.test(line)) return undefined;
      const script = run ? yamlScalar(run[1] ?? "") : line;
      return swallowsExitCode(script) ? "ignored-exit-code" : undefined;
    }
    case "makefile":
      // A recipe line that starts `-` (after `@` or `+`) has make ignore its failure.
      if (/^\t[@+]*-/.test(line) || /^\.IGNORE\s*:/.test(line)) return "ignored-exit-code";
      return swallowsExitCode(line) ? "ignored-exit-code" : undefined;
    case "package-json": {
      const entry = SCRIPT_ENTRY.exec(line);
      if (!entry) return undefined;
      const script = JSON.parse(entry[1] ?? '""') as string;
      return swallowsExitCode(script) ? "ignored-exit-code" : undefined;
    }
  }
}
