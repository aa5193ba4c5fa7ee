/**
 * The words of a CI repair (src/present/ci-report.ts): the proof line people read first, when a
 * proof holds, and the sections the PR, the summary and the comments carry — with the log's text
 * only inside code, where GitHub turns no mention or link into anything.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { FailedRun, ProofRun } from "../../src/domain/ci.ts";
import {
  ciFactsList,
  ciPullSection,
  notCodeComment,
  proofHolds,
  proofLine,
} from "../../src/present/ci-report.ts";
import type { CiFacts, ProofReport } from "../../src/present/ci-report.ts";

const exit = (code: number | null, timedOut = false): ProofRun => ({
  exitCode: code,
  timedOut,
  durationMs: 10,
  excerpt: "",
});

const RUN: FailedRun = {
  id: 42,
  attempt: 1,
  workflowName: "CI",
  workflowPath: ".github/workflows/ci.yml",
  headSha: "0123456789abcdef0123456789abcdef01234567",
  headBranch: "main",
  event: "push",
  conclusion: "failure",
  htmlUrl: "https://github.com/o/r/actions/runs/42",
  actor: "octocat",
  triggeringActor: "octocat",
  headRepository: "o/r",
  createdAt: "2026-12-02T10:00:00Z",
  updatedAt: "2026-12-02T10:05:00Z",
};

function facts(proof: ProofReport | undefined, extra: Partial<CiFacts> = {}): CiFacts {
  return {
    run: RUN,
    signatures: [
      { key: "abcdef012345", firstError: "Error: @mallory see https://evil.example", tests: [] },
    ],
    classified: { class: "code", because: "no sign of the runner" },
    proof,
    agentRuns: [],
    attempts: { count: 1, cap: 2 },
    weakenings: [],
    costUsd: 0.0123,
    ...extra,
  };
}

const red = (after: ProofRun[]): ProofReport => ({
  runnable: true,
  command: "npm test",
  before: exit(1),
  after,
});

describe("the proof line", () => {
  test("red to green every time", () => {
    const proof = red([exit(0), exit(0), exit(0)]);
    assert.equal(proofLine(proof), "reproduced: exit 1 → after the fix: exit 0 ×3");
    assert.equal(proofHolds(proof), true);
  });

  test("a fix green only sometimes does not hold, and says how often", () => {
    const proof = red([exit(0), exit(1), exit(0)]);
    assert.equal(proofLine(proof), "reproduced: exit 1 → after the fix: exit 0 ×2, exit 1 ×1");
    assert.equal(proofHolds(proof), false);
  });

  test("a step that passed before the agent was not reproduced, and proves nothing", () => {
    const proof: ProofReport = {
      runnable: true,
      command: "npm test",
      before: exit(0),
      after: [exit(0)],
    };
    assert.match(proofLine(proof), /^not reproduced/);
    assert.equal(proofHolds(proof), false);
  });

  test("timeouts and signals are named", () => {
    assert.equal(
      proofLine(red([exit(null, true)])),
      "reproduced: exit 1 → after the fix: timed out ×1",
    );
    assert.match(proofLine(red([exit(null)])), /killed by a signal ×1/);
  });

  test("a step that cannot run says why", () => {
    const proof: ProofReport = {
      runnable: false,
      step: "Run actions/x@v1",
      why: "it uses an action",
    };
    assert.equal(proofLine(proof), "not run in the sandbox: it uses an action");
    assert.equal(proofHolds(proof), false);
  });
});

describe("the sections", () => {
  test("the facts list names the signature, class, proof, attempts, time and cost; the log's text only in code", () => {
    const list = ciFactsList(facts(red([exit(0)]), { failureToPullMs: 90_000 }));
    assert.match(
      list,
      /Failure signature: `abcdef012345` — `Error: @mallory see https:\/\/evil\.example`/,
    );
    assert.match(list, /Class: \*\*code\*\*/);
    assert.match(list, /Proof: reproduced: exit 1 → after the fix: exit 0 ×1/);
    assert.match(list, /Attempts on this failure: 1 of 2/);
    assert.match(list, /From the failure to this pull request: 90 s/);
    assert.match(list, /Cost: \$0\.0123/);
  });

  test("the PR warns when the proof does not hold and shows the command", () => {
    const section = ciPullSection(facts(red([exit(1)])));
    assert.match(section, /```text\nnpm test\n```/);
    assert.match(section, /does not hold/);
  });

  test("without a runnable step, the agent's own runs are shown", () => {
    const section = ciPullSection(
      facts(
        { runnable: false, step: "s", why: "it uses an action" },
        {
          agentRuns: [{ command: "npm test", exitCode: 0 }],
        },
      ),
    );
    assert.match(section, /agent's own test runs/);
    assert.match(section, /exit 0 {2}npm test/);
  });

  test("a refused repair is named in the PR", () => {
    const section = ciPullSection(
      facts(red([]), {
        weakenings: [{ kind: "skip-marker", file: "a.test.ts", line: 3, text: "it.skip(" }],
      }),
    );
    assert.match(
      section,
      /pitcrew refused this repair: the repair skips or singles out tests with `it\.skip\(` in a\.test\.ts:3/,
    );
  });

  test("a not-code comment gives the class, the first error in code, and the advice", () => {
    const body = notCodeComment(
      facts(undefined, {
        classified: { class: "infrastructure", because: "the network failed", advice: "Re-run." },
      }),
      "getaddrinfo ENOTFOUND @someone",
    );
    assert.match(body, /reads as \*\*infrastructure\*\*/);
    assert.match(body, /```text\ngetaddrinfo ENOTFOUND @someone\n```/);
    assert.match(body, /What to do: Re-run\./);
  });
});
