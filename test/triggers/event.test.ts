/**
 * Reading real webhook payloads (from @octokit/webhooks-examples, changed only where noted) into
 * tasks: the comment grammar, the thread, who asked, what is ignored and why, and the named error a
 * broken payload gives instead of a TypeError.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { PitcrewError } from "../../src/errors.ts";
import { branchKey, parseEvent } from "../../src/triggers/event.ts";
import type { Task, Trigger } from "../../src/domain/task.ts";
import {
  issueCommentPayload,
  schedulePayload,
  workflowDispatchPayload,
  type CommentPayloadOptions,
  workflowRunPayload,
} from "../support/payloads.ts";
import type { WorkflowRunPayloadOptions } from "../support/payloads.ts";

const RUN_ID = "9876543210";

function fromComment(options: CommentPayloadOptions, triggerPhrase = "/agent"): Trigger {
  return parseEvent({
    eventName: "issue_comment",
    payload: issueCommentPayload(options),
    triggerPhrase,
    runId: RUN_ID,
  });
}

function taskOf(trigger: Trigger): Task {
  assert.equal(trigger.kind, "task", JSON.stringify(trigger));
  return trigger.task;
}

function reasonOf(trigger: Trigger): string {
  assert.equal(trigger.kind, "ignore", JSON.stringify(trigger));
  return trigger.reason;
}

function assertInvalid(run: () => unknown, field: RegExp): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof PitcrewError, `a PitcrewError, not ${String(error)}`);
    assert.equal(error.code, "event-invalid");
    assert.match(error.message, field);
    return true;
  });
}

describe("a new comment", () => {
  test("`/agent fix` on an issue is a fix task for the issue's thread, asked by the commenter", () => {
    const payload = issueCommentPayload({ body: "/agent fix" });
    const task = taskOf(
      parseEvent({ eventName: "issue_comment", payload, triggerPhrase: "/agent", runId: RUN_ID }),
    );
    assert.deepEqual(task, {
      kind: "fix",
      instruction: "",
      thread: { kind: "issue", number: payload.issue.number },
      threadKey: `issue-${payload.issue.number}`,
      requester: {
        login: payload.comment.user.login,
        id: payload.comment.user.id,
        type: "User",
        association: "OWNER",
      },
      comment: { id: payload.comment.id, htmlUrl: payload.comment.html_url },
      repository: {
        owner: payload.repository.owner.login,
        repo: payload.repository.name,
        defaultBranch: payload.repository.default_branch,
      },
    });
  });

  test("the same comment on a pull request belongs to the PR's thread", () => {
    const payload = issueCommentPayload({ body: "/agent fix", onPullRequest: true });
    const task = taskOf(
      parseEvent({ eventName: "issue_comment", payload, triggerPhrase: "/agent", runId: RUN_ID }),
    );
    assert.deepEqual(task.thread, { kind: "pr", number: payload.issue.number });
    assert.equal(task.threadKey, `pr-${payload.issue.number}`);
  });

  test("the words after `fix` are its extra instruction, lines and all", () => {
    const task = taskOf(fromComment({ body: "/agent fix   the parser\n\nsee the trace above  " }));
    assert.equal(task.kind, "fix");
    assert.equal(task.instruction, "the parser\n\nsee the trace above");
  });

  test("`/agent` alone is a fix with no extra instruction", () => {
    const task = taskOf(fromComment({ body: "/agent\n" }));
    assert.equal(task.kind, "fix");
    assert.equal(task.instruction, "");
  });

  test("`/agent continue` carries on, with its extra words", () => {
    const task = taskOf(fromComment({ body: "/agent continue and add a test" }));
    assert.equal(task.kind, "continue");
    assert.equal(task.instruction, "and add a test");
    assert.equal(taskOf(fromComment({ body: "/agent continue" })).instruction, "");
  });

  test("command words are case-insensitive", () => {
    assert.equal(taskOf(fromComment({ body: "/agent FIX it" })).kind, "fix");
    assert.equal(taskOf(fromComment({ body: "/agent Continue" })).kind, "continue");
  });

  test("anything else after the phrase is an instruction, kept whole", () => {
    const task = taskOf(fromComment({ body: "/agent rename parse() to parseAll\neverywhere" }));
    assert.equal(task.kind, "instruction");
    assert.equal(task.instruction, "rename parse() to parseAll\neverywhere");
    const fixed = taskOf(fromComment({ body: "/agent fixed-width output please" }));
    assert.equal(
      fixed.kind,
      "instruction",
      "a word that only starts with `fix` is not the command",
    );
    assert.equal(fixed.instruction, "fixed-width output please");
  });

  test("leading whitespace before the phrase is allowed", () => {
    assert.equal(taskOf(fromComment({ body: "\n  /agent fix" })).kind, "fix");
  });

  test("the configured phrase is the one that counts", () => {
    assert.equal(taskOf(fromComment({ body: "@pitcrew fix" }, "@pitcrew")).kind, "fix");
    assert.match(reasonOf(fromComment({ body: "/agent fix" }, "@pitcrew")), /"@pitcrew"/);
  });

  test("a bot's comment is still read as a task: refusing it is authorisation's job", () => {
    const task = taskOf(
      fromComment({
        body: "/agent fix",
        user: { login: "renovate[bot]", id: 29139614, type: "Bot" },
        association: "NONE",
      }),
    );
    assert.deepEqual(task.requester, {
      login: "renovate[bot]",
      id: 29139614,
      type: "Bot",
      association: "NONE",
    });
  });
});

describe("what is ignored, with a reason a person understands", () => {
  test("an edited or deleted comment starts nothing", () => {
    assert.equal(
      reasonOf(fromComment({ body: "/agent fix", action: "edited" })),
      "the comment was edited; only new comments start work",
    );
    assert.equal(
      reasonOf(fromComment({ body: "/agent fix", action: "deleted" })),
      "the comment was deleted; only new comments start work",
    );
  });

  test("a comment that does not start with the phrase", () => {
    for (const body of ["Thanks, looks good", "please /agent fix", "/agentx fix", "/agent-fix"]) {
      assert.match(reasonOf(fromComment({ body })), /does not start with "\/agent"/, body);
    }
  });

  test("other events", () => {
    const reason = reasonOf(
      parseEvent({ eventName: "push", payload: {}, triggerPhrase: "/agent", runId: RUN_ID }),
    );
    assert.equal(reason, "pitcrew does not act on push events");
  });
});

describe("a flaky-test triage", () => {
  test("a scheduled run is the triage's one thread, for the workflow's own account", () => {
    const task = taskOf(
      parseEvent({
        eventName: "schedule",
        payload: schedulePayload(),
        triggerPhrase: "/agent",
        runId: RUN_ID,
      }),
    );
    assert.equal(task.kind, "flaky-triage");
    assert.deepEqual(task.thread, { kind: "triage" });
    assert.equal(task.threadKey, "flaky-triage");
    assert.equal(task.requester.login, "github-actions[bot]");
    assert.equal(task.repository.defaultBranch, "main");
  });

  test("a manual run whose task is flaky-triage is the triage, asked by the sender", () => {
    const payload = workflowDispatchPayload({ task: " flaky-triage " });
    const task = taskOf(
      parseEvent({
        eventName: "workflow_dispatch",
        payload,
        triggerPhrase: "/agent",
        runId: RUN_ID,
      }),
    );
    assert.equal(task.kind, "flaky-triage");
    assert.equal(task.threadKey, "flaky-triage");
    assert.equal(task.requester.login, payload.sender.login);
  });

  test("a schedule payload without its repository is a named error", () => {
    assertInvalid(
      () =>
        parseEvent({
          eventName: "schedule",
          payload: { schedule: "0 0 * * *" },
          triggerPhrase: "/agent",
          runId: RUN_ID,
        }),
      /schedule event payload has no usable repository/,
    );
  });
});

describe("a manual run (workflow_dispatch)", () => {
  test("is a dispatch task named by the run id, asked by the sender", () => {
    const payload = workflowDispatchPayload({ task: "  bump the lockfile\n" });
    const task = taskOf(
      parseEvent({
        eventName: "workflow_dispatch",
        payload,
        triggerPhrase: "/agent",
        runId: RUN_ID,
      }),
    );
    assert.deepEqual(task, {
      kind: "dispatch",
      thread: { kind: "dispatch", runId: RUN_ID },
      threadKey: `dispatch-${RUN_ID}`,
      instruction: "bump the lockfile",
      requester: {
        login: payload.sender.login,
        id: payload.sender.id,
        type: payload.sender.type,
        association: "",
      },
      repository: {
        owner: payload.repository.owner.login,
        repo: payload.repository.name,
        defaultBranch: payload.repository.default_branch,
      },
    });
  });

  test("without a `task` input is a named error that says how to add one", () => {
    for (const payload of [
      workflowDispatchPayload({}),
      workflowDispatchPayload({ task: "   " }),
      { ...workflowDispatchPayload({}), inputs: null },
    ]) {
      assertInvalid(
        () =>
          parseEvent({
            eventName: "workflow_dispatch",
            payload,
            triggerPhrase: "/agent",
            runId: RUN_ID,
          }),
        /add a `task` input under the workflow's `on\.workflow_dispatch\.inputs`/,
      );
    }
  });
});

describe("a payload missing what it needs", () => {
  test("names the field instead of failing with a TypeError", () => {
    const noUser = issueCommentPayload({ body: "/agent fix" }) as unknown as {
      comment: { user?: unknown };
    };
    delete noUser.comment.user;
    assertInvalid(
      () =>
        parseEvent({
          eventName: "issue_comment",
          payload: noUser,
          triggerPhrase: "/agent",
          runId: RUN_ID,
        }),
      /issue_comment event payload has no usable comment\.user\b/,
    );

    const noBranch = workflowDispatchPayload({ task: "x" }) as unknown as {
      repository: { default_branch?: unknown };
    };
    delete noBranch.repository.default_branch;
    assertInvalid(
      () =>
        parseEvent({
          eventName: "workflow_dispatch",
          payload: noBranch,
          triggerPhrase: "/agent",
          runId: RUN_ID,
        }),
      /repository\.default_branch/,
    );

    assertInvalid(
      () =>
        parseEvent({
          eventName: "issue_comment",
          payload: null,
          triggerPhrase: "/agent",
          runId: RUN_ID,
        }),
      /issue_comment event payload is not an object/,
    );
  });
});

describe("a finished workflow run (workflow_run)", () => {
  const parse = (payload: unknown) =>
    parseEvent({ eventName: "workflow_run", payload, triggerPhrase: "/agent", runId: RUN_ID });

  test("a failed run is a ci-repair task on its branch, asked by whoever started that attempt", () => {
    const payload = workflowRunPayload({ attempt: 2 });
    const task = taskOf(parse(payload));
    assert.equal(task.kind, "ci-repair");
    assert.deepEqual(task.thread, { kind: "ci", branch: "feature/login" });
    assert.match(task.threadKey, /^ci-feature-login-[0-9a-f]{6}$/);
    const run = (payload as { workflow_run: { id: number; head_sha: string } }).workflow_run;
    assert.equal(task.failedRun?.id, run.id);
    assert.equal(task.failedRun?.attempt, 2);
    assert.equal(task.failedRun?.headSha, run.head_sha);
    assert.equal(task.failedRun?.workflowPath, ".github/workflows/test.yml");
    assert.equal(task.failedRun?.conclusion, "failure");
    assert.equal(task.requester.login, task.failedRun?.triggeringActor);
    assert.equal(task.instruction, "");
  });

  test("a timed-out run is repaired too; the branch names the thread", () => {
    const task = taskOf(parse(workflowRunPayload({ conclusion: "timed_out", branch: "main" })));
    assert.equal(task.failedRun?.conclusion, "timed_out");
    assert.equal(task.threadKey, "ci-main", "a branch that is already a safe name keeps it");
  });

  test("branches that differ only where a name cannot hold them keep their own threads", () => {
    assert.notEqual(branchKey("feature/a"), branchKey("feature-a"));
    assert.equal(branchKey("feature-a"), "feature-a");
    assert.match(branchKey("../../x"), /^x-[0-9a-f]{6}$/);
  });

  test("nothing to do: a success, a cancellation, a run not yet finished, a tag", () => {
    const cases: [WorkflowRunPayloadOptions, RegExp][] = [
      [{ conclusion: "success" }, /ended with success; pitcrew repairs failed or timed-out runs/],
      [{ conclusion: "cancelled" }, /ended with cancelled/],
      [{ action: "requested", conclusion: null }, /is requested, not completed/],
      [{ branch: null }, /has no branch/],
    ];
    for (const [options, reason] of cases) {
      assert.match(reasonOf(parse(workflowRunPayload(options))), reason);
    }
  });

  test("a payload missing a field is event-invalid, naming it", () => {
    const payload = workflowRunPayload();
    delete (payload as { workflow_run: { head_sha?: string } }).workflow_run.head_sha;
    assert.throws(
      () => parse(payload),
      (error: unknown) =>
        error instanceof PitcrewError &&
        error.code === "event-invalid" &&
        /workflow_run event payload has no usable workflow_run\.head_sha/.test(error.message),
    );
  });
});
