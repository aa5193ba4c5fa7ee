/**
 * What the ci-repair settings decide by themselves (src/config/ci-repair.ts): which branches are
 * repaired, as a workflow's branch filters read, and the class a person gave a kind of failure.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { CI_REPAIR_DEFAULTS } from "../../src/config/config.ts";
import type { ClassifyRule } from "../../src/config/config.ts";
import { branchMatches, classifyOverride, classifyPattern } from "../../src/config/ci-repair.ts";

describe("branchMatches", () => {
  const table: [patterns: string[], branch: string, matches: boolean][] = [
    [["**"], "main", true],
    [["**"], "feature/a/b", true],
    [["main"], "main", true],
    [["main"], "main2", false],
    [["main"], "dev/main", false],
    [["release/*"], "release/1.0", true],
    [["release/*"], "release/1.0/hotfix", false],
    [["release/*"], "release/", true],
    [["release/*"], "release", false],
    [["release/**"], "release/1.0/hotfix", true],
    [["*"], "main", true],
    [["*"], "feature/x", false],
    [["feature-*"], "feature-login", true],
    [["**-fix"], "team/a/b-fix", true],
    [["*-fix"], "team/b-fix", false],
    [["v1.*"], "v1.2", true],
    // A dot is itself, not any character.
    [["v1.*"], "v1x2", false],
    [["dependabot/**", "main"], "dependabot/npm/left-pad-1.3.0", true],
    [["dependabot/**", "main"], "renovate/x", false],
    [[], "main", false],
  ];
  for (const [patterns, branch, matches] of table) {
    test(`${JSON.stringify(patterns)} ${matches ? "matches" : "does not match"} ${branch}`, () => {
      assert.equal(branchMatches(patterns, branch), matches);
    });
  }

  test("the default is every branch", () => {
    assert.deepEqual(CI_REPAIR_DEFAULTS.branches, ["**"]);
    for (const branch of ["main", "a/b/c", "pitcrew/ci-main"]) {
      assert.ok(branchMatches(CI_REPAIR_DEFAULTS.branches, branch));
    }
  });
});

describe("classifyPattern", () => {
  test("/source/flags is a regular expression; anything else a substring", () => {
    const regex = classifyPattern("/ETIMEDOUT|ECONNRESET/i");
    assert.ok(regex instanceof RegExp);
    assert.equal(regex.source, "ETIMEDOUT|ECONNRESET");
    assert.equal(regex.flags, "i");
    assert.equal(classifyPattern("tests/e2e/"), "tests/e2e/");
    assert.equal(classifyPattern("a/b"), "a/b");
    assert.equal(classifyPattern("/"), "/");
  });

  test("what is neither says why", () => {
    assert.deepEqual(classifyPattern(""), { problem: "it may not be empty" });
    assert.deepEqual(classifyPattern("/x/g"), {
      problem: "the flags after / may be i, m, s and u",
    });
    assert.deepEqual(classifyPattern("/(/"), {
      problem: "not a regular expression: /(/: Unterminated group",
    });
  });
});

describe("classifyOverride", () => {
  const classify: ClassifyRule[] = [
    { match: "/ETIMEDOUT|ECONNRESET/i", class: "infrastructure" },
    { match: "tests/e2e/", class: "flaky" },
    { match: "Missing secret", class: "configuration" },
    { match: "/./", class: "code" },
  ];

  test("the first entry that matches the first error or a failing test decides", () => {
    assert.equal(
      classifyOverride({ classify }, "Error: connect etimedout 10.0.0.1:443", []),
      "infrastructure",
    );
    assert.equal(
      classifyOverride({ classify }, "AssertionError: 1 == 2", [
        "tests/unit/a.py::t",
        "tests/e2e/login.spec.ts",
      ]),
      "flaky",
    );
    // Both the second and the third match: the earlier entry wins.
    assert.equal(
      classifyOverride({ classify }, "Missing secret NPM_TOKEN", ["tests/e2e/x"]),
      "flaky",
    );
  });

  test("no first error: the tests alone; nothing that matches: no override", () => {
    assert.equal(classifyOverride({ classify }, null, ["tests/e2e/x"]), "flaky");
    assert.equal(
      classifyOverride({ classify: classify.slice(0, 3) }, "TypeError: x", []),
      undefined,
    );
    assert.equal(classifyOverride({ classify: [] }, "ETIMEDOUT", ["tests/e2e/x"]), undefined);
    assert.equal(classifyOverride(CI_REPAIR_DEFAULTS, "ETIMEDOUT", []), undefined);
  });

  test("a substring is matched as written: case and regex characters count", () => {
    const rules: ClassifyRule[] = [{ match: "error TS2322 (", class: "code" }];
    assert.equal(
      classifyOverride({ classify: rules }, "src/a.ts(1,2): error TS2322 (x)", []),
      "code",
    );
    assert.equal(
      classifyOverride({ classify: rules }, "src/a.ts(1,2): Error ts2322 (x)", []),
      undefined,
    );
  });
});
