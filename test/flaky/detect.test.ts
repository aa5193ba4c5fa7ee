/**
 * Finding flakes in run history (src/flaky/detect.ts): a failure the same code then passed — in a
 * re-run or in another run — is a flake, with its evidence; failing on every attempt is broken; a
 * lone failure is neither; jobs a partial re-run carried over are not run again; a job whose log
 * named no test stands for itself; co-failing tests share the occurrence; a Surefire report's
 * retries are flakes of a green run; and the commits red only from flakes are counted.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { readJunit } from "../../src/ci/junit.ts";
import { failureSignature } from "../../src/ci/signature.ts";
import { detectFlakes } from "../../src/flaky/detect.ts";
import {
  carried,
  failed,
  historyRun,
  minute,
  noEvidence,
  passed,
  sha,
} from "../support/flaky-history.ts";

const A = "test/cart.test.ts > adds an item";
const B = "test/cart.test.ts > removes an item";

/** Where each of a test's occurrences happened, as `runId/attempt/job evidence`. */
function where(detection: ReturnType<typeof detectFlakes>, test: string): string[] {
  return (detection.flakes[test] ?? []).map(
    (occurrence) =>
      `${occurrence.runId}/${occurrence.attempt}/${occurrence.job} ${occurrence.evidence}`,
  );
}

describe("flakes shown by a pass of the same code", () => {
  test("a re-run that passed: rerun-passed, red, with the failing attempt's time and signature", () => {
    const error = "Error: timed out after 5000 ms waiting for /tmp/tmpab12cd34/socket";
    const detection = detectFlakes([
      historyRun(1, 1, [[failed("test", [A], error)], [passed("test")]]),
    ]);
    const signature = failureSignature(error, [A]);
    assert.deepEqual(detection.flakes, {
      [A]: [
        {
          runId: 1,
          attempt: 1,
          job: "test",
          workflow: ".github/workflows/ci.yml",
          headSha: sha(1),
          at: minute(10),
          signature: signature.key,
          firstError: "Error: timed out after <duration> waiting for <tmp>/socket",
          evidence: "rerun-passed",
          red: true,
        },
      ],
    });
    assert.equal(
      signature.firstError,
      "Error: timed out after <duration> waiting for <tmp>/socket",
    );
    assert.deepEqual(detection.broken, []);
  });

  test("several attempts: each failed one is an occurrence, in order", () => {
    const detection = detectFlakes([
      historyRun(1, 1, [[failed("test", [A])], [failed("test", [A])], [passed("test")]]),
    ]);
    assert.deepEqual(where(detection, A), ["1/1/test rerun-passed", "1/2/test rerun-passed"]);
    assert.deepEqual(
      detection.flakes[A]?.map((occurrence) => occurrence.at),
      [minute(10), minute(11)],
    );
  });

  test("timed_out is a failure; cancelled, skipped and unfinished jobs are no evidence", () => {
    const detection = detectFlakes([
      historyRun(1, 1, [[failed("slow", [A], "The job timed out", "timed_out")], [passed("slow")]]),
      historyRun(2, 2, [[failed("test", [B])], [noEvidence("test", "cancelled")]]),
      historyRun(3, 3, [[failed("e2e", [B])], [noEvidence("e2e", "skipped")]]),
      historyRun(4, 4, [[failed("lint", [B])], [noEvidence("lint", null)]]),
    ]);
    assert.deepEqual(Object.keys(detection.flakes), [A]);
    assert.deepEqual(where(detection, A), ["1/1/slow rerun-passed"]);
    assert.deepEqual(detection.broken, []);
  });

  test("the same commit failing in one run and passing in another: other-run-passed", () => {
    const detection = detectFlakes([
      historyRun(1, 7, [[failed("test", [A])]]),
      historyRun(2, 7, [[passed("test")]]),
    ]);
    assert.deepEqual(where(detection, A), ["1/1/test other-run-passed"]);
  });

  test("a pass in an earlier attempt of the same run is another run's evidence, not a re-run's", () => {
    const detection = detectFlakes([historyRun(1, 1, [[passed("test")], [failed("test", [A])]])]);
    assert.deepEqual(where(detection, A), ["1/2/test other-run-passed"]);
  });

  test("a pass of another commit, another workflow or another job proves nothing", () => {
    const detection = detectFlakes([
      historyRun(1, 1, [[failed("test", [A]), passed("lint")]]),
      historyRun(2, 2, [[passed("test")]]),
      historyRun(3, 1, [[passed("test")]], { workflow: ".github/workflows/nightly.yml" }),
    ]);
    assert.deepEqual(detection.flakes, {});
    assert.deepEqual(detection.broken, []);
  });

  test("a lone failure with no pass is neither flaky nor broken", () => {
    const detection = detectFlakes([historyRun(1, 1, [[failed("test", [A])]])]);
    assert.deepEqual(detection, {
      flakes: {},
      broken: [],
      commits: { total: 1, redOnlyFromFlakes: 0 },
    });
  });
});

describe("partial re-runs and repeated listings", () => {
  test("a job carried over into attempt 2 did not run again: one failure of it, not two", () => {
    // Attempt 2 re-ran only `test`; `e2e` is listed again with runAttempt 1. Counted twice, it
    // would be broken (two failures, no pass); it failed once.
    const run = historyRun(1, 1, [
      [failed("test", [A]), failed("e2e", [B])],
      [passed("test"), carried("e2e")],
    ]);
    assert.equal(run.attempts[1]?.jobs[1]?.runAttempt, 1);
    const detection = detectFlakes([run]);
    assert.deepEqual(Object.keys(detection.flakes), [A]);
    assert.deepEqual(detection.broken, []);
  });

  test("a carried-over job is known by its runAttempt, even listed under another id", () => {
    const run = historyRun(1, 1, [
      [failed("test", [A]), failed("e2e", [B])],
      [passed("test"), carried("e2e")],
    ]);
    run.attempts[1]!.jobs[1] = { ...run.attempts[1]!.jobs[1]!, id: 999 };
    const detection = detectFlakes([run]);
    assert.deepEqual(detection.broken, [], "e2e ran once, in attempt 1");
  });

  test("a carried-over pass is not a re-run that passed", () => {
    // `lint` passed in attempt 1 and is carried into attempt 2; attempt 2 re-ran and failed `test`.
    const detection = detectFlakes([
      historyRun(1, 1, [
        [failed("test", [A]), passed("lint")],
        [failed("test", [A]), carried("lint")],
      ]),
    ]);
    assert.deepEqual(detection.flakes, {});
    assert.deepEqual(
      detection.broken.map((broken) => broken.attempts),
      [["1/1", "1/2"]],
    );
  });

  test("the same job id listed twice is one execution", () => {
    const run = historyRun(1, 1, [[failed("test", [A])]]);
    const job = run.attempts[0]!.jobs[0]!;
    run.attempts[0]!.jobs.push({ ...job });
    const detection = detectFlakes([run]);
    assert.deepEqual(detection.broken, [], "one failure listed twice is not broken");
  });

  test("one occurrence per attempt and job per test, whatever the report repeats", () => {
    const detection = detectFlakes([
      historyRun(1, 1, [[failed("test", [A, A, ` ${A} `])], [passed("test")]]),
    ]);
    assert.deepEqual(where(detection, A), ["1/1/test rerun-passed"]);
  });
});

describe("broken, not flaky", () => {
  test("failing on every attempt of a commit, in two runs, is broken there", () => {
    const detection = detectFlakes([
      historyRun(1, 3, [[failed("test", [A])], [failed("test", [A])]]),
      historyRun(2, 3, [[failed("test", [A])]], { start: 40 }),
    ]);
    assert.deepEqual(detection.flakes, {});
    assert.deepEqual(detection.broken, [
      { test: A, headSha: sha(3), attempts: ["1/1", "1/2", "2/1"], at: minute(40) },
    ]);
  });

  test("only the tests that failed every time are broken", () => {
    const detection = detectFlakes([
      historyRun(1, 3, [[failed("test", [A, B])], [failed("test", [A])]]),
    ]);
    assert.deepEqual(
      detection.broken.map((broken) => broken.test),
      [A],
    );
  });

  test("broken in two jobs of a matrix on one commit: one broken test with both jobs' attempts", () => {
    const detection = detectFlakes([
      historyRun(1, 3, [
        [failed("test (20)", [A]), failed("test (22)", [A])],
        [failed("test (20)", [A]), failed("test (22)", [A])],
      ]),
    ]);
    assert.deepEqual(detection.broken, [
      { test: A, headSha: sha(3), attempts: ["1/1", "1/2"], at: minute(11) },
    ]);
  });
});

describe("what an occurrence names", () => {
  test("a job whose log named no test is the job itself, in its workflow file", () => {
    const detection = detectFlakes([
      historyRun(1, 1, [[failed("build", [], "make: *** [all] Error 2")], [passed("build")]], {
        workflow: ".github/workflows/release.yml",
      }),
    ]);
    const id = "job:release.yml/build";
    assert.deepEqual(Object.keys(detection.flakes), [id]);
    assert.equal(
      detection.flakes[id]?.[0]?.signature,
      failureSignature("make: *** [all] Error 2", [id]).key,
    );
  });

  test("a job with no first error still has a signature, of its tests alone", () => {
    const detection = detectFlakes([
      historyRun(1, 1, [[failed("test", [A], null)], [passed("test")]]),
    ]);
    assert.equal(detection.flakes[A]?.[0]?.signature, failureSignature(null, [A]).key);
    assert.equal(detection.flakes[A]?.[0]?.firstError, "");
  });

  test("co-failing tests each get the occurrence, with the one signature of the job's failure", () => {
    const detection = detectFlakes([
      historyRun(1, 1, [[failed("test", [B, A], "Error: port in use")], [passed("test")]]),
    ]);
    const key = failureSignature("Error: port in use", [A, B]).key;
    assert.deepEqual(Object.keys(detection.flakes), [A, B]);
    assert.equal(detection.flakes[A]?.[0]?.signature, key);
    assert.equal(detection.flakes[B]?.[0]?.signature, key);
  });

  test("occurrences in time order, then by run and attempt, whatever the input order", () => {
    const detection = detectFlakes([
      historyRun(3, 2, [[failed("test", [A])], [passed("test")]], { start: 50 }),
      historyRun(2, 1, [[failed("test", [A])], [passed("test")]], { start: 5 }),
      historyRun(1, 1, [[failed("test", [A])], [passed("test")]], { start: 5 }),
    ]);
    assert.deepEqual(where(detection, A), [
      "1/1/test rerun-passed",
      "2/1/test rerun-passed",
      "3/1/test rerun-passed",
    ]);
  });
});

describe("test runners' own retries", () => {
  const report = readJunit(
    readFileSync(
      join(import.meta.dirname, "..", "fixtures", "junit", "surefire-flaky.xml"),
      "utf8",
    ),
  );
  const flakyCase = "com.example.cart.CartServiceTest.addsItem";
  const timeoutCase = "com.example.cart.CartServiceTest.checksOutWithinTimeout";
  const failingCase = "com.example.cart.CartServiceTest.appliesDiscount";

  test("the fixture reads as two flaky cases and one failing one (its reruns failed too)", () => {
    assert.deepEqual(
      report.flaky.map((found) => found.id),
      [flakyCase, timeoutCase],
    );
    assert.deepEqual(
      report.failing.map((found) => found.id),
      [failingCase],
    );
  });

  test("Surefire's flaky cases are junit-retry flakes of the run's last attempt, not red", () => {
    const run = historyRun(
      1,
      1,
      [
        [
          failed(
            "test",
            report.failing.map((found) => found.id),
          ),
        ],
        [passed("test")],
      ],
      { junitFlaky: report.flaky },
    );
    const detection = detectFlakes([run]);
    assert.deepEqual(Object.keys(detection.flakes), [flakyCase, failingCase, timeoutCase]);
    assert.deepEqual(where(detection, failingCase), ["1/1/test rerun-passed"]);
    const retried = detection.flakes[timeoutCase]?.[0];
    assert.deepEqual(retried, {
      runId: 1,
      attempt: 2,
      job: "",
      workflow: ".github/workflows/ci.yml",
      headSha: sha(1),
      at: minute(11),
      signature: failureSignature("Read timed out after 2000 ms", [timeoutCase]).key,
      firstError: "Read timed out after <duration>",
      evidence: "junit-retry",
      red: false,
    });
    assert.equal(detection.flakes[flakyCase]?.[0]?.firstError, "expected:<<n>> but was:<<n>>");
  });
});

describe("commits", () => {
  test("total commits, and those red only from flakes", () => {
    const detection = detectFlakes([
      // Commit 1: red once, passed on re-run — red only from a flake.
      historyRun(1, 1, [[failed("test", [A])], [passed("test")]]),
      // Commit 2: a flake and a lone real failure — not only flakes.
      historyRun(2, 2, [
        [failed("test", [A]), failed("lint")],
        [passed("test"), carried("lint")],
      ]),
      // Commit 3: green; commit 4: broken.
      historyRun(3, 3, [[passed("test")]]),
      historyRun(4, 4, [[failed("test", [B])], [failed("test", [B])]]),
      // Commit 1 again, green.
      historyRun(5, 1, [[passed("test")]]),
    ]);
    assert.deepEqual(detection.commits, { total: 4, redOnlyFromFlakes: 1 });
  });
});
