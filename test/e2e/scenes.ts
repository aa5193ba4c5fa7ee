/**
 * The scene of the e2e tests: the fixture repository on the fake GitHub with issue #1 ("add()
 * returns the wrong sum"), a requester with write access, the model's script that fixes the bug,
 * and what a person looks at afterwards (the progress comment, the branches on the remote).
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { PITCREW_COMMENT_MARKER } from "../../src/domain/conversation.ts";
import { BUGGY_LINE, FIXED_LINE } from "../support/fixture-repo.ts";
import { callTools, say } from "../support/model-server.ts";
import type { Script, Turn } from "../support/model-server.ts";
import { issueCommentPayload } from "../support/payloads.ts";
import { createWorld } from "./harness.ts";
import type { World } from "./harness.ts";

const worlds: World[] = [];
/** Closes every world made so far (the test files' `after`). */
export async function closeWorlds(): Promise<void> {
  for (const world of worlds.splice(0)) await world.close();
}

export const args = (value: unknown): string => JSON.stringify(value);
export const FIX: readonly Turn[] = [
  callTools([
    {
      name: "todo_write",
      arguments: args({
        todos: [
          { content: "Reproduce the failing test", status: "completed" },
          { content: "Fix add()", status: "in_progress" },
        ],
      }),
    },
    { name: "bash", arguments: args({ command: "npm test --silent" }) },
  ]),
  callTools([
    {
      name: "edit",
      arguments: args({ path: "calc.js", old_string: BUGGY_LINE, new_string: FIXED_LINE }),
    },
  ]),
  callTools([{ name: "bash", arguments: args({ command: "npm test --silent" }) }]),
  // The first line is the pull request's title, as the system prompt asks.
  say("Make add() add\n\nadd() subtracted instead of adding. Fixed calc.js; npm test passes."),
];

export const REQUESTER = { login: "octocat", id: 583231, type: "User" };

export async function world(script: Script, prepare?: (repo: string) => void): Promise<World> {
  const made = await createWorld(script, prepare);
  worlds.push(made);
  made.github.addUser(REQUESTER);
  made.github.setPermission(REQUESTER.login, "write");
  made.github.addIssue({
    number: 1,
    title: "add() returns the wrong sum",
    body: "calc.test.js fails: add(2, 3) should be 5.",
    user: "octocat",
  });
  return made;
}

/** A real `issue_comment.created` example, pointed at the fake's issue and a comment it holds. */
export function commentEvent(
  made: World,
  body: string,
  options: {
    user?: typeof REQUESTER;
    action?: "created" | "edited";
    onPullRequest?: boolean;
    issue?: number;
  } = {},
): unknown {
  const user = options.user ?? REQUESTER;
  const issue = options.issue ?? 1;
  const comment = made.github.addComment(issue, { body, user: user.login });
  const payload = issueCommentPayload({
    body,
    user,
    action: options.action,
    onPullRequest: options.onPullRequest,
    association: "COLLABORATOR",
  });
  payload.comment.id = comment.id;
  payload.issue.number = issue;
  payload.repository.default_branch = "main";
  return payload;
}

export function originBranches(made: World): string[] {
  return execFileSync(
    "git",
    ["-C", made.origin, "for-each-ref", "--format=%(refname:short)", "refs/heads"],
    {
      encoding: "utf8",
    },
  )
    .split("\n")
    .filter(Boolean);
}

export function progressComment(made: World, issue = 1, runs = 1): string {
  const ours = made.github.comments(issue).filter((c) => c.body.startsWith(PITCREW_COMMENT_MARKER));
  assert.equal(ours.length, runs, "one progress comment per run, edited in place");
  return ours.at(-1)?.body ?? "";
}
