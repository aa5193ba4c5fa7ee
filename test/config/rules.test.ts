/** The value rules shared by inputs and the repository file; the branch rules agree with git's own. */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { describe, test } from "node:test";
import {
  BRANCH_PREFIX,
  BUDGET,
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
