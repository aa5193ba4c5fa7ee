/**
 * `/agent fix` end to end with the built action: real webhook payloads, the fake GitHub API with a
 * real bare repository behind git's smart HTTP, the scripted model, real bwrap. Each test reads
 * what a person would see afterwards: the pull request, the branch's diff, the progress comment,
 * the reaction, the outputs and the job summary.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { needsBwrap } from "../support/bwrap.ts";
import { PR_NOT_PERMITTED } from "../support/github-server.ts";
import { BUGGY_LINE, FIXED_LINE, fixtureGit } from "../support/fixture-repo.ts";
import { callTools, say } from "../support/model-server.ts";
import type { Script } from "../support/model-server.ts";
import { API_KEY, runAction } from "./harness.ts";
import {
  FIX,
  args,
  closeWorlds,
  commentEvent,
  originBranches,
  progressComment,
  world,
} from "./scenes.ts";

after(closeWorlds);

describe("/agent fix with the built action", needsBwrap(), () => {
  test("opens a PR with the fix, tells the truth in the comment, writes the outputs", async () => {
    const made = await world(FIX);
    const run = await runAction(made, {
      eventName: "issue_comment",
      payload: commentEvent(made, "/agent fix please keep it small"),
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);

    const pulls = made.github.pulls();
    assert.equal(pulls.length, 1);
    const pull = pulls[0];
    assert.equal(pull?.head.ref, "pitcrew/issue-1");
    assert.equal(pull?.base.ref, "main");
    assert.equal(pull?.draft, false);
    // The title says what changed (the summary's first line); the issue's title is in the body.
    assert.equal(pull?.title, "Make add() add");
    assert.match(pull?.body ?? "", /\n\nFixes #1: \S/);
    assert.match(pull?.body ?? "", /add\(\) subtracted instead of adding/);
    assert.doesNotMatch(pull?.body ?? "", /Make add\(\) add/, "the title line is not said twice");

    const diff = execFileSync("git", ["-C", made.origin, "diff", "main", "pitcrew/issue-1"], {
      encoding: "utf8",
    });
    assert.ok(diff.includes(`-${BUGGY_LINE}\n+${FIXED_LINE}`), diff);
    const commit = execFileSync(
      "git",
      ["-C", made.origin, "log", "-1", "--format=%an%n%B", "pitcrew/issue-1"],
      {
        encoding: "utf8",
      },
    );
    assert.match(commit, /^github-actions\[bot\]/);
    assert.match(commit, /Co-authored-by: octocat <583231\+octocat@users\.noreply\.github\.com>/);

    const trigger = made.github.comments(1).find((c) => c.body.startsWith("/agent fix"));
    assert.deepEqual(
      made.github.reactions(trigger?.id ?? 0).map((r) => r.content),
      ["eyes"],
    );
    const body = progressComment(made);
    assert.match(body, /add\(\) subtracted instead of adding/);
    const pullUrl = `https://github.com/Codertocat/Hello-World/pull/${pull?.number}`;
    assert.ok(body.includes(pullUrl), body);
    assert.match(body, /- \[x\] Reproduce the failing test/);
    // Finished: nothing is in progress any more; the step the agent never ticked is shown as left.
    assert.doesNotMatch(body, /in progress/);
    assert.match(
      body,
      /_The todo list as the agent last left it: it did not mark every step done\._\n- \[x\] Reproduce the failing test\n- \[ \] Fix add\(\)/,
    );
    assert.match(body, /\$\d+\.\d{4}/);
    assert.match(body, /https:\/\/github\.com\/Codertocat\/Hello-World\/actions\/runs\/1001/);

    assert.equal(run.outputs.conclusion, "success");
    assert.equal(run.outputs.branch, "pitcrew/issue-1");
    assert.equal(run.outputs["pr-number"], String(pull?.number));
    assert.equal(run.outputs["pr-url"], pullUrl);
    assert.equal(run.outputs["pull-request-operation"], "created");
    assert.equal(run.outputs.turns, "4");
    assert.ok(Number(run.outputs.tokens) > 0);
    assert.match(run.outputs.cost ?? "", /^\d+\.\d+$/);
    assert.match(run.summary, /bash/);
    assert.match(run.summary, /edit/);

    // The log folds by phase and by turn, each group ended before the next one starts.
    const folds = run.stdout
      .split("\n")
      .filter((line) => line.startsWith("::group::") || line.startsWith("::endgroup::"));
    const names = folds.filter((_, index) => index % 2 === 0);
    assert.ok(
      folds.every((line, index) => (index % 2 === 0) === line.startsWith("::group::")),
      folds.join("\n"),
    );
    assert.equal(folds.at(-1), "::endgroup::");
    const turns = Array.from({ length: Number(run.outputs.turns) }, (_, i) => `turn ${i + 1}`);
    assert.deepEqual(
      names.map((line) => line.slice("::group::".length).replace(/:.*/, "")),
      ["preparing", "agent session", ...turns, "delivery", "notes"],
    );
    const session = run.stdout.slice(run.stdout.indexOf("::group::agent session"));
    assert.match(session.slice(0, session.indexOf("::endgroup::")), /^sandbox: bwrap \(/m);
    const second = run.stdout.slice(run.stdout.indexOf("::group::turn 2"));
    assert.match(second.slice(0, second.indexOf("::endgroup::")), /^edit calc\.js \(\d+\.\d s\)$/m);

    // The model saw the issue fenced and labelled, and never the credentials.
    const first = made.model.requests[0]?.raw ?? "";
    assert.match(first, /add\(\) returns the wrong sum/);
    assert.match(first, /@octocat/);
    assert.ok(!first.includes(API_KEY));
  });

  test("a re-run for the same issue updates the same branch and PR", async () => {
    const again: Script = [
      ...FIX,
      callTools([
        { name: "write", arguments: args({ path: "NOTES.md", content: "add() checked\n" }) },
      ]),
      say("Added a note."),
    ];
    const made = await world(again);
    const first = await runAction(made, {
      eventName: "issue_comment",
      payload: commentEvent(made, "/agent fix"),
    });
    assert.equal(first.code, 0, first.stderr);
    const second = await runAction(made, {
      eventName: "issue_comment",
      payload: commentEvent(made, "/agent also add a note"),
      runId: "1002",
    });
    assert.equal(second.code, 0, second.stdout + second.stderr);
    assert.equal(made.github.pulls().length, 1, "the same PR");
    assert.equal(second.outputs["pr-number"], first.outputs["pr-number"]);
    assert.equal(first.outputs["pull-request-operation"], "created");
    assert.equal(second.outputs["pull-request-operation"], "updated");
    const files = execFileSync(
      "git",
      ["-C", made.origin, "ls-tree", "--name-only", "pitcrew/issue-1"],
      {
        encoding: "utf8",
      },
    );
    assert.match(files, /NOTES\.md/);
    const log = execFileSync(
      "git",
      ["-C", made.origin, "log", "--format=%s", "main..pitcrew/issue-1"],
      {
        encoding: "utf8",
      },
    )
      .trim()
      .split("\n");
    assert.equal(log.length, 2, "the second run's commit sits on top of the first");
  });

  test("someone without write access gets a short refusal and nothing changes", async () => {
    const made = await world(FIX);
    const stranger = { login: "passer-by", id: 777, type: "User" };
    made.github.addUser(stranger);
    made.github.setPermission(stranger.login, "read");
    const run = await runAction(made, {
      eventName: "issue_comment",
      payload: commentEvent(made, "/agent fix", { user: stranger }),
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.outputs.conclusion, "refused");
    assert.equal(run.outputs["pull-request-operation"], "none");
    assert.equal(made.model.requests.length, 0);
    assert.equal(made.github.pulls().length, 0);
    assert.deepEqual(originBranches(made), ["main"]);
    assert.match(progressComment(made), /write access/i);
    assert.match(run.post, /the agent never started/);
    assert.doesNotMatch(run.post, /::warning::/);
  });

  test("a bot is refused unless listed by exact name", async () => {
    const made = await world(FIX);
    const bot = { login: "helper-bot[bot]", id: 888, type: "Bot" };
    made.github.addUser(bot);
    made.github.setPermission(bot.login, "write");
    const refused = await runAction(made, {
      eventName: "issue_comment",
      payload: commentEvent(made, "/agent fix", { user: bot }),
      inputs: { "allowed-bots": "helper-bot" },
    });
    assert.equal(refused.outputs.conclusion, "refused");
    assert.equal(made.model.requests.length, 0);
    const allowed = await runAction(made, {
      eventName: "issue_comment",
      payload: commentEvent(made, "/agent fix", { user: bot }),
      inputs: { "allowed-bots": "helper-bot[bot]" },
      runId: "1002",
    });
    assert.equal(allowed.outputs.conclusion, "success", allowed.stderr);
  });

  test("a pull request from a fork is refused with an explanation", async () => {
    const made = await world(FIX);
    made.github.addPull({
      number: 2,
      title: "Fork change",
      body: "",
      user: "octocat",
      head: { ref: "patch-1", repoFullName: "someone/Hello-World" },
      base: { ref: "main" },
    });
    const run = await runAction(made, {
      eventName: "issue_comment",
      payload: commentEvent(made, "/agent fix", { onPullRequest: true, issue: 2 }),
    });
    assert.equal(run.outputs.conclusion, "refused");
    assert.match(progressComment(made, 2), /fork/i);
    assert.equal(made.model.requests.length, 0);
  });

  test("an edited comment is nothing to do: said in the log, exit 0", async () => {
    const made = await world(FIX);
    const run = await runAction(made, {
      eventName: "issue_comment",
      payload: commentEvent(made, "/agent fix", { action: "edited" }),
    });
    assert.equal(run.code, 0);
    assert.equal(run.outputs.conclusion, "skipped");
    assert.match(run.stdout, /nothing to do: .*edited/);
    const rest = made.github.requests.filter(
      (request) => !request.path.endsWith(".git") && !request.path.includes(".git/"),
    );
    assert.deepEqual(rest, [], "GitHub's API was not even asked");
  });

  test("a malformed .github/pitcrew.yml fails naming key and line, before anything changes", async () => {
    const made = await world(FIX, (repo) => {
      mkdirSync(join(repo, ".github"), { recursive: true });
      writeFileSync(join(repo, ".github", "pitcrew.yml"), "instructions: ok\nmax-turns: many\n");
      fixtureGit(repo, "add", ".");
      fixtureGit(repo, "commit", "-q", "-m", "config");
    });
    const run = await runAction(made, {
      eventName: "issue_comment",
      payload: commentEvent(made, "/agent fix"),
    });
    assert.equal(run.code, 1);
    assert.match(run.stdout, /config-invalid: .*pitcrew\.yml line 2: max-turns/);
    assert.equal(run.outputs.conclusion, "failure");
    assert.equal(made.model.requests.length, 0);
    assert.deepEqual(originBranches(made), ["main"]);
    assert.match(progressComment(made), /config-invalid/);
  });

  test("a diff holding the API key is never pushed, and the comment says which file", async () => {
    const leak: Script = [
      callTools([
        {
          name: "write",
          arguments: args({ path: "config.js", content: `export const key = "${API_KEY}";\n` }),
        },
      ]),
      say("Wrote the config."),
    ];
    const made = await world(leak);
    const run = await runAction(made, {
      eventName: "issue_comment",
      payload: commentEvent(made, "/agent fix"),
    });
    assert.equal(run.code, 1);
    assert.equal(run.outputs.conclusion, "failure");
    assert.deepEqual(originBranches(made), ["main"]);
    assert.equal(made.github.pulls().length, 0);
    const body = progressComment(made);
    assert.match(body, /push-blocked-secret/);
    assert.match(body, /config\.js/);
    assert.ok(!body.includes(API_KEY));
    // Only the runner's mask command may carry it (the runner then hides it in every log).
    const logged = run.stdout.split("\n").filter((line) => !line.startsWith("::add-mask::"));
    assert.ok(!logged.join("\n").includes(API_KEY), run.stdout);
  });

  test("an answer quoting a secret is posted with that line withheld", async () => {
    const made = await world([say(`Nothing to change.\nFor the record, the key is ${API_KEY}.`)]);
    const run = await runAction(made, {
      eventName: "issue_comment",
      payload: commentEvent(made, "/agent fix"),
    });
    assert.equal(run.outputs.conclusion, "no-changes", run.stdout);
    assert.equal(run.outputs["pull-request-operation"], "none");
    const body = progressComment(made);
    assert.match(body, /Nothing to change/);
    assert.match(body, /withheld/);
    assert.ok(!body.includes(API_KEY));
  });

  test("GitHub failing with 502 on PR creation is retried; 422 not-permitted is named", async () => {
    const made = await world(FIX);
    made.github.fail({ method: "POST", path: /\/pulls$/, status: 502, times: 2 });
    const retried = await runAction(made, {
      eventName: "issue_comment",
      payload: commentEvent(made, "/agent fix"),
    });
    assert.equal(retried.outputs.conclusion, "success", retried.stdout);
    assert.equal(made.github.pulls().length, 1);

    const refused = await world(FIX);
    refused.github.fail(PR_NOT_PERMITTED);
    const named = await runAction(refused, {
      eventName: "issue_comment",
      payload: commentEvent(refused, "/agent fix"),
    });
    assert.equal(named.outputs.conclusion, "failure");
    assert.equal(named.outputs["pull-request-operation"], "none", "the PR was never opened");
    assert.match(progressComment(refused), /github-pr-not-permitted/);
    // The work is not lost: the branch was pushed before the PR was asked for.
    assert.ok(originBranches(refused).includes("pitcrew/issue-1"));
    assert.equal(named.outputs.branch, "pitcrew/issue-1");
  });

  test("a run stopped by the turn limit opens a draft PR and says how to continue", async () => {
    const made = await world(FIX);
    const run = await runAction(made, {
      eventName: "issue_comment",
      payload: commentEvent(made, "/agent fix"),
      inputs: { "max-turns": "2" },
    });
    assert.equal(run.outputs.conclusion, "stopped", run.stdout);
    assert.equal(made.github.pulls()[0]?.draft, true);
    assert.match(progressComment(made), /\/agent continue/);
  });

  test("a run stopped by the token budget names the token budget, not the cost", async () => {
    const made = await world(FIX.slice(1));
    const run = await runAction(made, {
      eventName: "issue_comment",
      payload: commentEvent(made, "/agent fix"),
      inputs: { "token-budget": "1" },
    });
    assert.equal(run.outputs.conclusion, "stopped", run.stdout);
    assert.equal(made.model.requests.length, 1, "the budget stops the loop after one request");
    const pull = made.github.pulls()[0];
    assert.equal(pull?.draft, true);
    assert.match(pull?.body ?? "", /stopped early \(the token budget ran out\)/);
    assert.match(progressComment(made), /Stopped early: the token budget ran out\./);
    assert.match(run.summary, /Stopped: the token budget ran out\./);
    for (const seen of [pull?.body ?? "", progressComment(made), run.summary])
      assert.doesNotMatch(seen, /cost (or token )?budget/i);
  });
});
