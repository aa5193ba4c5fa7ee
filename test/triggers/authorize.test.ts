/**
 * Who may start work, decided over tasks read from real webhook payloads and a small in-memory
 * `access` (the real API client is tested against a server elsewhere): bots, permissions, forks.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Permission } from "../../src/github/api.ts";
import type { PullInfo } from "../../src/domain/conversation.ts";
import { authorize, isBot, type Access } from "../../src/triggers/authorize.ts";
import { parseEvent } from "../../src/triggers/event.ts";
import type { Task } from "../../src/domain/task.ts";
import {
  issueCommentPayload,
  workflowDispatchPayload,
  type CommentPayloadOptions,
} from "../support/payloads.ts";

const BASE = "Codertocat/Hello-World";

function commentTask(options: Omit<CommentPayloadOptions, "body">): Task {
  const trigger = parseEvent({
    eventName: "issue_comment",
    payload: issueCommentPayload({ body: "/agent fix", ...options }),
    triggerPhrase: "/agent",
    runId: "1",
  });
  assert.equal(trigger.kind, "task");
  return trigger.task;
}

function dispatchTask(user?: { login: string; id: number; type: string }): Task {
  const payload = workflowDispatchPayload({ task: "bump the lockfile" });
  if (user !== undefined) Object.assign(payload.sender, user);
  const trigger = parseEvent({
    eventName: "workflow_dispatch",
    payload,
    triggerPhrase: "/agent",
    runId: "1",
  });
  assert.equal(trigger.kind, "task");
  return trigger.task;
}

function pullFrom(headRepo: string | null, number = 1): PullInfo {
  return {
    number,
    nodeId: `PR_kwDOtest${number}`,
    title: "Update the README",
    body: "",
    htmlUrl: `https://github.com/${BASE}/pull/${number}`,
    draft: false,
    state: "open",
    head: { ref: "readme", sha: "a".repeat(40), repoFullName: headRepo },
    base: { ref: "master", sha: "b".repeat(40), repoFullName: BASE },
  };
}

/** Answers from fixed tables and records every question, so tests can say what was not asked. */
function accessWith(permissions: Record<string, Permission>, pull?: PullInfo) {
  const asked: string[] = [];
  const access: Access = {
    permission: (login) => {
      asked.push(`permission ${login}`);
      return Promise.resolve(permissions[login] ?? "none");
    },
    pull: (number) => {
      asked.push(`pull ${number}`);
      if (pull === undefined) throw new Error("no pull in this test");
      return Promise.resolve(pull);
    },
  };
  return { access, asked };
}

const NO_BOTS = { allowedBots: [] };
const RENOVATE = { login: "renovate[bot]", id: 29139614, type: "Bot" };

describe("people", () => {
  for (const permission of ["admin", "maintain", "write"] as const) {
    test(`with ${permission} access may start work on an issue`, async () => {
      const { access, asked } = accessWith({ Codertocat: permission });
      assert.deepEqual(await authorize(commentTask({}), access, NO_BOTS), { allowed: true });
      assert.deepEqual(asked, ["permission Codertocat"]);
    });
  }

  for (const permission of ["triage", "read", "none"] as const) {
    test(`with ${permission} access are refused, even as an org MEMBER`, async () => {
      const { access } = accessWith({ octocat: permission });
      const task = commentTask({
        user: { login: "octocat", id: 583231, type: "User" },
        association: "MEMBER",
      });
      const decision = await authorize(task, access, NO_BOTS);
      assert.equal(decision.allowed, false);
      assert.ok(!decision.allowed);
      assert.equal(decision.code, "permission-denied");
      assert.match(decision.reply, /@octocat, only people with write access/);
      assert.doesNotMatch(
        decision.reply,
        new RegExp(permission === "none" ? "\\bnone\\b" : permission),
      );
    });
  }
});

describe("bots", () => {
  test("are refused unless listed, whether known by type or by the [bot] suffix", async () => {
    const { access, asked } = accessWith({ "renovate[bot]": "write", "sneaky[bot]": "admin" });
    for (const user of [RENOVATE, { login: "sneaky[bot]", id: 7, type: "User" }]) {
      const decision = await authorize(commentTask({ user }), access, NO_BOTS);
      assert.ok(!decision.allowed);
      assert.equal(decision.code, "bot-not-allowed");
      assert.match(decision.reply, new RegExp(`@${user.login.replace(/[[\]]/g, "\\$&")}`));
      assert.match(decision.reply, /`allowed-bots`/);
    }
    assert.deepEqual(asked, [], "a bot's permission does not matter");
  });

  test("pitcrew's own comments (github-actions[bot]) cannot start a run: no loops", async () => {
    const own = { login: "github-actions[bot]", id: 41898282, type: "Bot" };
    const decision = await authorize(commentTask({ user: own }), accessWith({}).access, {
      allowedBots: ["renovate[bot]"],
    });
    assert.ok(!decision.allowed);
    assert.equal(decision.code, "bot-not-allowed");
  });

  test("listed by exact name (any case) may start work without a permission check", async () => {
    const { access, asked } = accessWith({});
    const decision = await authorize(commentTask({ user: RENOVATE }), access, {
      allowedBots: ["Renovate[bot]"],
    });
    assert.deepEqual(decision, { allowed: true });
    assert.deepEqual(asked, []);
  });

  test("a listed name does not admit a bot whose name merely contains it", async () => {
    const decision = await authorize(
      commentTask({ user: { login: "evil-renovate[bot]", id: 8, type: "Bot" } }),
      accessWith({}).access,
      { allowedBots: ["renovate[bot]"] },
    );
    assert.ok(!decision.allowed);
    assert.equal(decision.code, "bot-not-allowed");
  });

  test("isBot: type Bot or a login ending in [bot]; people are not bots", () => {
    assert.equal(isBot({ login: "dependabot", type: "Bot" }), true);
    assert.equal(isBot({ login: "Dependabot[BOT]", type: "User" }), true);
    assert.equal(isBot({ login: "botanist", type: "User" }), false);
  });
});

describe("pull requests", () => {
  test("from a branch of this repository are allowed, and the pull is returned", async () => {
    const pull = pullFrom(BASE);
    const { access, asked } = accessWith({ Codertocat: "write" }, pull);
    const decision = await authorize(commentTask({ onPullRequest: true }), access, NO_BOTS);
    assert.deepEqual(decision, { allowed: true, pull });
    assert.deepEqual(asked, ["permission Codertocat", "pull 1"]);
  });

  test("from a fork are refused, saying why and what to do instead", async () => {
    const { access } = accessWith({ Codertocat: "admin" }, pullFrom("mallory/Hello-World"));
    const decision = await authorize(commentTask({ onPullRequest: true }), access, NO_BOTS);
    assert.ok(!decision.allowed);
    assert.equal(decision.code, "pull-from-fork");
    assert.match(decision.reply, /forks/);
    assert.match(decision.reply, /holds this repository's credentials/);
    assert.match(decision.reply, /fork's code would run in that privileged job/);
    assert.match(decision.reply, /Push the branch to this repository/);
    assert.match(decision.reply, /describe the change in an issue/);
  });

  test("whose head repository is gone are refused", async () => {
    const { access } = accessWith({ Codertocat: "admin" }, pullFrom(null));
    const decision = await authorize(commentTask({ onPullRequest: true }), access, NO_BOTS);
    assert.ok(!decision.allowed);
    assert.equal(decision.code, "pull-head-gone");
    assert.match(decision.reply, /pull request #1: the repository its branch came from no longer/);
  });

  test("a listed bot is still held to the fork rule", async () => {
    const { access } = accessWith({}, pullFrom("mallory/Hello-World"));
    const decision = await authorize(commentTask({ onPullRequest: true, user: RENOVATE }), access, {
      allowedBots: ["renovate[bot]"],
    });
    assert.ok(!decision.allowed);
    assert.equal(decision.code, "pull-from-fork");
  });

  test("a person without write access is refused before the pull is fetched", async () => {
    const { access, asked } = accessWith({ Codertocat: "read" }, pullFrom(BASE));
    const decision = await authorize(commentTask({ onPullRequest: true }), access, NO_BOTS);
    assert.ok(!decision.allowed);
    assert.deepEqual(asked, ["permission Codertocat"]);
  });
});

describe("manual runs (workflow_dispatch)", () => {
  test("still check the sender's permission", async () => {
    const task = dispatchTask();
    const allowed = accessWith({ [task.requester.login]: "maintain" });
    assert.deepEqual(await authorize(task, allowed.access, NO_BOTS), { allowed: true });
    assert.deepEqual(allowed.asked, [`permission ${task.requester.login}`]);
    const refused = await authorize(task, accessWith({}).access, NO_BOTS);
    assert.ok(!refused.allowed);
    assert.equal(refused.code, "permission-denied");
  });

  test("still refuse bots that are not listed", async () => {
    const decision = await authorize(dispatchTask(RENOVATE), accessWith({}).access, NO_BOTS);
    assert.ok(!decision.allowed);
    assert.equal(decision.code, "bot-not-allowed");
  });
});
