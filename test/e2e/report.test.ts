/**
 * The run's page from the built action: after `/agent fix`, the report of the thread's transcript
 * is uploaded as the artifact `pitcrew-report-issue-1-<run>` (what a person downloads is one HTML
 * file with its CSP, the turns and no secret), the progress comment and the job summary link it,
 * and the job summary holds the context chart as a Mermaid block GitHub renders.
 */
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { unzipFiles } from "../support/artifact-service.ts";
import { needsBwrap } from "../support/bwrap.ts";
import { API_KEY, GITHUB_TOKEN, runAction } from "./harness.ts";
import { FIX, closeWorlds, commentEvent, progressComment, world } from "./scenes.ts";

after(closeWorlds);

describe("the run's page", needsBwrap(), () => {
  test("uploaded as an artifact, linked from the comment and the summary; the summary charts the context", async () => {
    const made = await world(FIX);
    const run = await runAction(made, {
      eventName: "issue_comment",
      payload: commentEvent(made, "/agent fix"),
      runId: "1001",
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const artifact = made.github.artifacts
      .artifacts()
      .find((one) => one.finalized && one.name === "pitcrew-report-issue-1-1001");
    assert.ok(
      artifact !== undefined,
      made.github.artifacts
        .artifacts()
        .map((one) => one.name)
        .join(", "),
    );
    const page = unzipFiles(artifact.content)["report.html"]?.toString("utf8") ?? "";
    assert.match(page, /^<!doctype html>/i);
    assert.match(page, /http-equiv="Content-Security-Policy"/);
    assert.match(page, /Make add\(\) add/);
    // The final diff of the thread's branch, as its pull request shows it.
    assert.match(
      page,
      /<details class="file" id="diff-0"[^>]*><summary><code>calc\.js<\/code> <span class="add">\+1<\/span>/,
    );
    assert.match(page, /<p class="diffstat">/);
    for (const secret of [API_KEY, GITHUB_TOKEN])
      assert.ok(!page.includes(secret), "no secret in the page");

    const link = new RegExp(
      `\\[Run report\\]\\(\\S+/actions/runs/1001/artifacts/${artifact.id}\\)`,
    );
    assert.match(progressComment(made), link);
    assert.match(run.summary, new RegExp(`/actions/runs/1001/artifacts/${artifact.id}`));
    assert.match(run.summary, /Context per request/);
    assert.match(run.summary, /```mermaid\n(?:%%\{init[^\n]*\n)?xychart-beta\n/);
    assert.match(run.summary, /bar \[\d+, \d+, \d+, \d+\]/, "one bar a request");
  });
});
