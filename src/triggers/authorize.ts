/**
 * Who may start work: people with write access, and only the bots the repository names; on a pull
 * request, only a branch of this repository. The action decides this itself rather than trusting
 * the workflow's `if:`. A decision over the answers `access` gives; posting the reply is the caller's.
 */
import type { GitHubApi, Permission } from "../github/api.ts";
import type { PullInfo } from "../domain/conversation.ts";
import type { Person, Task } from "../domain/task.ts";

/** The two questions authorisation asks GitHub. */
export type Access = Pick<GitHubApi, "permission" | "pull">;

export type Authorization =
  | { allowed: true; pull?: PullInfo }
  /** `reply` is the short comment posted back: it says what to do and reveals nothing else. */
  | { allowed: false; code: string; reply: string };

/** The permissions that may ask pitcrew to work (and whose runs CI repair repairs). */
export const WRITERS: readonly Permission[] = ["admin", "maintain", "write"];

/** pitcrew's own comments come from a bot account, so refusing bots also stops reply loops. */
export function isBot(person: Pick<Person, "login" | "type">): boolean {
  return person.type === "Bot" || person.login.toLowerCase().endsWith("[bot]");
}

export async function authorize(
  task: Task,
  access: Access,
  { allowedBots }: { allowedBots: string[] },
): Promise<Authorization> {
  const { requester } = task;
  if (isBot(requester)) {
    // GitHub logins are case-insensitive; the list holds exact names, never patterns.
    const login = requester.login.toLowerCase();
    if (!allowedBots.some((allowed) => allowed.toLowerCase() === login)) {
      return {
        allowed: false,
        code: "bot-not-allowed",
        reply:
          `pitcrew does not take requests from bot accounts such as @${requester.login} ` +
          "unless the workflow lists them by name in `allowed-bots`.",
      };
    }
  } else {
    // author_association is not enough: an organisation MEMBER may have read access only.
    const permission = await access.permission(requester.login);
    if (!WRITERS.includes(permission)) {
      return {
        allowed: false,
        code: "permission-denied",
        reply:
          `@${requester.login}, only people with write access to this repository can ask pitcrew ` +
          "to work. Ask a maintainer to start it for you.",
      };
    }
  }
  if (task.thread.kind !== "pr") return { allowed: true };
  const pull = await access.pull(task.thread.number);
  return pullRefusal(pull) ?? { allowed: true, pull };
}

/**
 * The run holds this repository's credentials, so the code it checks out and builds must come from
 * this repository: a fork's branch would run in a privileged job.
 */
function pullRefusal(pull: PullInfo): Authorization | undefined {
  const remedy =
    "Push the branch to this repository and open the pull request from there, " +
    "or describe the change in an issue and ask pitcrew there.";
  if (pull.head.repoFullName === null) {
    return {
      allowed: false,
      code: "pull-head-gone",
      reply:
        `pitcrew cannot work on pull request #${pull.number}: the repository its branch came ` +
        `from no longer exists. ${remedy}`,
    };
  }
  if (pull.head.repoFullName.toLowerCase() !== pull.base.repoFullName.toLowerCase()) {
    return {
      allowed: false,
      code: "pull-from-fork",
      reply:
        `pitcrew does not work on pull requests from forks: this run holds this repository's ` +
        `credentials, and the fork's code would run in that privileged job. ${remedy}`,
    };
  }
  return undefined;
}
