/**
 * The harness's own reading of a failure (src/ci/classify.ts): flaky when the same commit passed
 * elsewhere, infrastructure or configuration when the runner, the network or the workflow's setup
 * says so in the log, code otherwise — and a test's output that merely mentions such words in
 * passing does not count as the runner's.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { classifyFailure } from "../../src/ci/classify.ts";
import type { ClassifySignals } from "../../src/ci/classify.ts";

function signals(lines: string[], extra: Partial<ClassifySignals> = {}): ClassifySignals {
  return {
    conclusion: "failure",
    jobs: [{ name: "test", conclusion: "failure", lines }],
    passedOnRerun: false,
    ...extra,
  };
}

describe("classifyFailure", () => {
  test("a re-run of the same commit that passed is flaky, whatever the log says", () => {
    const read = classifyFailure(signals(["FAIL src/a.test.ts"], { passedOnRerun: true }));
    assert.equal(read.class, "flaky");
    assert.match(read.because, /re-run of the same commit passed/);
  });

  const infrastructure: [string, RegExp][] = [
    ["##[error]The runner has received a shutdown signal.", /runner went away/],
    ["Error: ENOSPC: no space left on device, write", /disk was full/],
    [
      "npm error network request to https://registry.npmjs.org/x failed, reason: getaddrinfo ENOTFOUND registry.npmjs.org",
      /network failed/,
    ],
    [
      "fatal: unable to access 'https://github.com/a/b/': Could not resolve host: github.com",
      /network failed/,
    ],
    ["Error: Request failed with status 503 Service Unavailable", /down or rate-limited/],
    ["##[error]API rate limit exceeded for installation ID 123.", /down or rate-limited/],
  ];
  for (const [line, why] of infrastructure) {
    test(`infrastructure: ${line.slice(0, 50)}`, () => {
      const read = classifyFailure(signals(["> npm ci", line]));
      assert.equal(read.class, "infrastructure");
      assert.match(read.because, why);
      assert.ok(read.because.includes(line.trim().slice(0, 40)), "the line is quoted");
      assert.match(read.advice ?? "", /Re-run/);
    });
  }

  const configuration = [
    "##[error]Input required and not supplied: token",
    "Error: HttpError: Bad credentials",
    "##[error]Unable to resolve action `actions/setup-nod@v4`, repository not found",
    "Error: Resource not accessible by integration",
  ];
  for (const line of configuration) {
    test(`configuration: ${line.slice(0, 50)}`, () => {
      const read = classifyFailure(signals([line]));
      assert.equal(read.class, "configuration");
      assert.match(read.advice ?? "", /secrets/);
    });
  }

  test("a failing assertion is code", () => {
    const read = classifyFailure(
      signals([
        "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:",
        "-1 !== 5",
      ]),
    );
    assert.equal(read.class, "code");
    assert.equal(read.advice, undefined);
  });

  test("a timeout with no runner or network sign is code: a hang is likely", () => {
    const read = classifyFailure(signals(["running 12 tests"], { conclusion: "timed_out" }));
    assert.equal(read.class, "code");
    assert.match(read.because, /hang/);
  });

  test("jobs only cancelled, none failed, are infrastructure", () => {
    const read = classifyFailure({
      conclusion: "failure",
      jobs: [{ name: "build", conclusion: "cancelled", lines: [] }],
      passedOnRerun: false,
    });
    assert.equal(read.class, "infrastructure");
    assert.match(read.because, /cancelled/);
  });

  test("a line of megabytes is data, not the runner's message", () => {
    const read = classifyFailure(signals([`${"x".repeat(3000)} ENOSPC`]));
    assert.equal(read.class, "code");
  });
});
