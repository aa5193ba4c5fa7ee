/**
 * Excerpting on the real CI fixtures in ../shared/ci-fixtures (their README holds the ground truth,
 * read by hand): each log's failing test and first error come out, inside the excerpt and within
 * its budget; each JUnit report's failing (and flaky) cases are the ones listed, and the flaky ones
 * are what the flaky-test triage counts as a runner's retries (flaky/detect.ts). The upstream
 * `#=SOURCE=#` line and `#=MATCH=#` markers are taken off first, as the README says.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { estimateText } from "../../src/context/tokens.ts";
import { excerptText } from "../../src/ci/excerpt.ts";
import { readJunit } from "../../src/ci/junit.ts";
import { detectFlakes } from "../../src/flaky/detect.ts";
import { historyRun, passed } from "../support/flaky-history.ts";
import { SHARED, needsShared } from "../support/shared.ts";

const DIR = "ci-fixtures";

function pristine(file: string): string {
  return readFileSync(join(SHARED, DIR, file), "utf8")
    .split("\n")
    .filter((line) => !line.startsWith("#=SOURCE=#"))
    .map((line) => line.replace(/^#=MATCH=# /, "").replace(/[‹›]/g, ""))
    .join("\n");
}

const LOGS: { file: string; tests: string[]; firstError: RegExp }[] = [
  {
    file: "pytorch-gha-pytest-failure.log",
    tests: ["distributed/test_c10d_spawn_gloo.py::TestDistributedNNFunctionsGloo::test_all_gather"],
    firstError:
      /^FAILED \[310\.0221s\] distributed\/test_c10d_spawn_gloo\.py::TestDistributedNNFunctionsGloo::test_all_gather - RuntimeError: Process 0 terminated or timed out/,
  },
  {
    file: "pytorch-gha-cxx-compile-error.log",
    tests: [],
    firstError:
      /torch\/csrc\/profiler\/kineto_metadata\.cpp:128:26: error: no matching function for call to/,
  },
  {
    file: "pytorch-gha-timeout.log",
    tests: [],
    firstError: /^##\[error\]The action 'Test' has timed out after 360 minutes\.$/,
  },
];

describe("excerpts of the shared CI logs", needsShared(DIR), () => {
  for (const { file, tests, firstError } of LOGS) {
    test(file, () => {
      const excerpt = excerptText(pristine(file));
      assert.deepEqual(excerpt.failingTests, tests);
      assert.match(excerpt.firstError ?? "", firstError);
      assert.ok(
        excerpt.excerpt.includes(excerpt.firstError ?? "\0"),
        "the first error is in the excerpt",
      );
      assert.ok(estimateText(excerpt.excerpt) <= 8000);
    });
  }

  test("the timeout's hang shows: four and a half hours of silence before the runner gave up", () => {
    const excerpt = excerptText(pristine("pytorch-gha-timeout.log"));
    assert.match(excerpt.excerpt, /nothing was written for 279 min before this line/);
  });

  test("the compile error's confusers stay out of the first error", () => {
    const excerpt = excerptText(pristine("pytorch-gha-cxx-compile-error.log"));
    assert.doesNotMatch(excerpt.firstError ?? "", /^FAILED:|CMake build failed/);
    assert.ok(
      excerpt.excerpt.split("\n").every((line) => line.length < 700),
      "the long command line is cut",
    );
  });
});

describe("the shared JUnit reports", needsShared(DIR), () => {
  test("jest-junit: the four failing cases, the passing and skipped ones not", () => {
    const report = readJunit(readFileSync(join(SHARED, DIR, "dorny-jest-junit.xml"), "utf8"));
    assert.deepEqual(
      report.failing.map((test) => test.id),
      [
        "Test 1 › Test 1.1 › Failing test",
        "Test 1 › Test 1.1 › Exception in target unit",
        "Test 2 › Exception in test",
        "Timeout test",
      ],
    );
    assert.equal(report.failing[0]?.message, "Error: expect(received).toBeTruthy()");
  });

  test("nextest: the one failing case with its panic", () => {
    const report = readJunit(readFileSync(join(SHARED, DIR, "mikepenz-nextest-basic.xml"), "utf8"));
    assert.deepEqual(report.failing, [
      {
        id: "oxidized_navigation::parry3d::test_failure",
        message: "thread 'test_failure' panicked at tests/parry3d.rs:154:5:",
      },
    ]);
  });

  test("surefire with a re-run: flaky, not failing", () => {
    const report = readJunit(
      readFileSync(join(SHARED, DIR, "mikepenz-surefire-flaky.xml"), "utf8"),
    );
    assert.deepEqual(report.failing, []);
    assert.deepEqual(
      report.flaky.map((test) => test.id),
      ["io.sodadata.dependson.soda.integrations.msteams.MicrosoftTeamsCrudTest.createWebhook"],
    );
  });

  test("surefire with a re-run, in a green run: a junit-retry flake of exactly its one case", () => {
    const report = readJunit(
      readFileSync(join(SHARED, DIR, "mikepenz-surefire-flaky.xml"), "utf8"),
    );
    const detection = detectFlakes([
      historyRun(1, 1, [[passed("test")]], { junitFlaky: report.flaky }),
    ]);
    const id =
      "io.sodadata.dependson.soda.integrations.msteams.MicrosoftTeamsCrudTest.createWebhook";
    assert.deepEqual(Object.keys(detection.flakes), [id]);
    assert.deepEqual(
      detection.flakes[id]?.map((found) => [found.evidence, found.red, found.firstError]),
      [["junit-retry", false, "Expected: <false>"]],
    );
    assert.deepEqual(detection.broken, []);
    assert.deepEqual(detection.commits, { total: 1, redOnlyFromFlakes: 0 });
  });
});
