/**
 * Why a command is refused: one sentence per rule, written for the model so that it can go on
 * without the refused step, and the `Refusal` that carries it out of the rules. Which commands
 * are refused is decided elsewhere.
 */

/** The sentences, by rule. */
export const REASONS = {
  privileged: (name: string) =>
    `\`${name}\` is refused: commands run in a sandbox without privileges; the workflow must install system packages before pitcrew runs.`,
  gitCommit: () =>
    "`git commit` is refused: the harness commits, pushes and opens the pull request; just leave your changes in the working tree.",
  gitPush: () =>
    "`git push` is refused: the harness pushes and opens the pull request itself; just leave your changes in the working tree.",
  gitResetHard: () =>
    "`git reset --hard` is refused: it throws away work, and the harness owns the branch; to undo changes to a file use `git checkout -- <file>` or `git restore <file>`.",
  outside: (what: string, target: string, workspace: string) =>
    `\`${what}\` outside the workspace is refused: ${target} is outside ${workspace}; only files in the repository (and /tmp) may be changed.`,
  redirect: (target: string, workspace: string) =>
    `writing to ${target} is refused: it is outside ${workspace}; only files in the repository (and /tmp) may be changed.`,
  memory: (path: string, folder: boolean) =>
    `${path} is pitcrew's memory, not a ${folder ? "folder" : "file"} in the sandbox: use the read tool ${folder ? "with that path to list it" : "(or write/edit) with that path"}; bash cannot reach it.`,
  skills: (path: string, folder: boolean) =>
    `${path} is ${folder ? "pitcrew's skills" : "one of pitcrew's skills"}, not a ${folder ? "folder" : "file"} in the sandbox: use the read tool with that path${folder ? " to list it" : ""}; bash cannot reach it.`,
  denied: (entry: string) =>
    `\`${entry}\` is refused: this repository's pitcrew configuration denies it; do the task without it or leave that step to a person.`,
  couldBeDenied: (command: string, unknown: string, rule: string) =>
    `\`${command}\` is refused: \`${unknown}\` is only known when it runs, and it could make this \`${rule}\`, which this repository's pitcrew configuration denies; write the command out literally, or do the task without it.`,
  unseen: (what: string, why: string) =>
    `\`${what}\` is refused: ${why}, so it cannot be checked against this repository's pitcrew deny list; write the commands out directly.`,
  unparsable: (error: string, inner: string | null) =>
    `could not parse ${inner === null ? "this command" : `the script given to \`${inner}\``}: ${error}; simplify it (plain commands joined with &&, | or ;, arguments quoted).`,
  dynamicScript: (what: string) =>
    `\`${what}\` with an expansion in its script is refused: the script is only known when it runs, so it cannot be checked; write the commands out directly.`,
  tooDeep: () =>
    "this command nests shells too deeply to check (`bash -c` inside `bash -c`…); write the inner command out directly.",
  strayWords: () =>
    "could not parse this command: words after a redirection of a compound command; simplify it.",
};

/** A command the rules refuse; its message is the reason the model reads. */
export class Refusal extends Error {}

/** Stops the check with `reason`. */
export function refuse(reason: string): never {
  throw new Refusal(reason);
}
