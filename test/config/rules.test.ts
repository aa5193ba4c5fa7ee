/** The value rules shared by inputs and the repository file; the branch rules agree with git's own. */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { describe, test } from "node:test";
import { LEDGER_BOUNDS } from "../../src/ci/ledger.ts";
import {
  BRANCH_PATTERN,
  BRANCH_PREFIX,
  BUDGET,
  CLASSIFY_MATCH,
  FAILURE_ATTEMPTS,
  WHOLE_ABOVE_ZERO,
  branchNameProblem,
  complaint,
} from "../../src/config/rules.ts";

function gitAcceptsBranch(name: string): boolean {
  try {
    execFileSync("git", ["check-ref-format", "--branch", name], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

describe("branchNameProblem", () => {
  const names = [
    "pitcrew/issue-1",
    "bots/pitcrew-issue-1",
    "a./issue-1",
    "é/issue-1",
    "a{/issue-1",
    "@/issue-1",
    "a/@/issue-1",
    "a@issue-1",
    "x.lock-issue-1",
    "@",
    "a.lock/issue-1",
    "foo.lock.lock/issue-1",
    ".a/issue-1",
    "a/.b/issue-1",
    "a/.",
    "-x/issue-1",
    "a//issue-1",
    "/a/issue-1",
    "a/",
    "a@{issue-1",
    "a b/issue-1",
    "a\tb",
    "a\x7fb",
    "a~1",
    "a^1",
    "a:b",
    "a?b",
    "a*b",
    "a[b",
    "a\\b",
    "a..b",
    "a.",
  ];
  for (const name of names) {
    test(`agrees with git check-ref-format --branch on ${JSON.stringify(name)}`, () => {
      const problem = branchNameProblem(name);
      assert.equal(problem === undefined, gitAcceptsBranch(name), problem ?? "accepted");
    });
  }
});

describe("rules", () => {
  test("a branch prefix is tried on a branch pitcrew would make, and may not be empty", () => {
    assert.equal(complaint(BRANCH_PREFIX, "pitcrew/"), undefined);
    assert.equal(complaint(BRANCH_PREFIX, "pitcrew-"), undefined);
    // "a." is refused as a name but fine as a prefix: "a.issue-1".
    assert.equal(complaint(BRANCH_PREFIX, "a."), undefined);
    assert.match(complaint(BRANCH_PREFIX, "") ?? "", /it may not be empty/);
    assert.match(
      complaint(BRANCH_PREFIX, "team/.hidden/") ?? "",
      /no part between slashes may start with '\.'/,
    );
  });

  test("numbers: not-a-number and infinity break every number rule", () => {
    assert.equal(complaint(WHOLE_ABOVE_ZERO, 3), undefined);
    assert.equal(complaint(WHOLE_ABOVE_ZERO, Number.NaN), "takes a whole number above 0");
    assert.equal(complaint(BUDGET, 0), undefined);
    assert.equal(complaint(BUDGET, Infinity), "takes a number, 0 or more (0: no budget)");
  });
});

describe("ci-repair rules", () => {
  test("a cap on one failure's attempts stops where the ledger stops keeping them", () => {
    assert.equal(LEDGER_BOUNDS.attempts, 10);
    for (const value of [1, 2, 10]) assert.equal(complaint(FAILURE_ATTEMPTS, value), undefined);
    for (const value of [0, 11, 1.5, Number.NaN]) {
      assert.equal(complaint(FAILURE_ATTEMPTS, value), "takes a whole number from 1 to 10");
    }
  });

  test("a branch pattern: a name git would take, with * and ** for wildcards", () => {
    for (const pattern of ["main", "**", "release/*", "release/**", "feature-*", "v1.*"]) {
      assert.equal(BRANCH_PATTERN.problem(pattern), undefined, pattern);
    }
    assert.equal(BRANCH_PATTERN.problem(""), "it may not be empty");
    assert.match(BRANCH_PATTERN.problem("!main") ?? "", /no negation/);
    assert.match(BRANCH_PATTERN.problem("v?") ?? "", /the only wildcards are \* and \*\*/);
    assert.match(BRANCH_PATTERN.problem("[ab]") ?? "", /the only wildcards/);
    assert.match(BRANCH_PATTERN.problem("a b") ?? "", /no spaces/);
    assert.match(BRANCH_PATTERN.problem("release/") ?? "", /no '\/' at the start or end/);
  });

  test("a classify match: a substring, or a regular expression that compiles", () => {
    assert.equal(CLASSIFY_MATCH.problem("ETIMEDOUT"), undefined);
    assert.equal(CLASSIFY_MATCH.problem("/ETIMEDOUT|ECONNRESET/i"), undefined);
    assert.match(complaint(CLASSIFY_MATCH, "/a(/") ?? "", /\(not a regular expression: /);
  });
});
