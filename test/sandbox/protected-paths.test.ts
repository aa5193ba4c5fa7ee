/** The protected-path rules: which repository paths a pattern covers, and which patterns are usable. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  literalPrefix,
  normalisePattern,
  ownActionPaths,
  patternProblem,
  protectedPatterns,
  protectingPattern,
} from "../../src/sandbox/protected-paths.ts";

describe("protectingPattern", () => {
  const defaults = protectedPatterns([], false);

  test("all of .github is protected by default, pitcrew.yml included", () => {
    for (const path of [
      ".github",
      ".github/actions/setup/action.yml",
      ".github/workflows/ci.yml",
      ".github/pitcrew.yml",
      ".github/CODEOWNERS",
      ".github/pitcrew-evil/x",
    ]) {
      assert.equal(protectingPattern(path, defaults), ".github", path);
    }
  });

  test("but pitcrew's own .github/pitcrew/, and nothing outside .github", () => {
    for (const path of [
      ".github/pitcrew",
      ".github/pitcrew/skills/fix.md",
      "src/.github/x",
      "github/x",
    ]) {
      assert.equal(protectingPattern(path, defaults), undefined, path);
    }
  });

  test("a repository's glob may still protect part of pitcrew's folder", () => {
    const patterns = protectedPatterns([".github/pitcrew/locked/**"], false);
    assert.equal(
      protectingPattern(".github/pitcrew/locked/a.md", patterns),
      ".github/pitcrew/locked",
    );
    assert.equal(protectingPattern(".github/pitcrew/open.md", patterns), undefined);
  });

  test("a folder protects what is inside it; a literal file only itself", () => {
    const patterns = protectedPatterns(["Makefile", "scripts/ci/**", "tools/release/"], false);
    assert.equal(protectingPattern("Makefile", patterns), "Makefile");
    assert.equal(protectingPattern("sub/Makefile", patterns), undefined);
    assert.equal(protectingPattern("Makefile.local", patterns), undefined);
    assert.equal(protectingPattern("scripts/ci", patterns), "scripts/ci");
    assert.equal(protectingPattern("scripts/ci/deep/x.sh", patterns), "scripts/ci");
    assert.equal(protectingPattern("scripts/cid/x.sh", patterns), undefined);
    assert.equal(protectingPattern("tools/release/a", patterns), "tools/release");
  });

  test("* and ? stay inside one name, ** spans folders, and dot files match", () => {
    const patterns = ["**/*.sh", "docker/Dockerfile.?", "deploy/*/run"];
    assert.equal(protectingPattern("x.sh", patterns), "**/*.sh");
    assert.equal(protectingPattern(".ci/deep/.hidden.sh", patterns), "**/*.sh");
    assert.equal(protectingPattern("x.shx", patterns), undefined);
    assert.equal(protectingPattern("docker/Dockerfile.a", patterns), "docker/Dockerfile.?");
    assert.equal(protectingPattern("docker/Dockerfile.ab", patterns), undefined);
    assert.equal(protectingPattern("deploy/eu/run", patterns), "deploy/*/run");
    assert.equal(protectingPattern("deploy/eu/west/run", patterns), undefined);
    assert.equal(protectingPattern("deploy/eu/run/script", patterns), "deploy/*/run");
  });

  test("regular-expression characters in a pattern are literal", () => {
    assert.equal(protectingPattern("a+b(1).txt", ["a+b(1).txt"]), "a+b(1).txt");
    assert.equal(protectingPattern("aab1.txt", ["a+b(1).txt"]), undefined);
  });

  test("allow-protected-changes protects nothing of this kind (workflows have their own rule)", () => {
    assert.deepEqual(protectedPatterns(["Makefile"], true), []);
    assert.equal(protectingPattern(".github/actions/x", protectedPatterns([], true)), undefined);
  });

  test("the running action's own files stay protected whatever the repository allows", () => {
    const own = ownActionPaths("/w/repo", "/w/repo/.github/actions/pitcrew");
    assert.deepEqual(own, [".github/actions/pitcrew"]);
    const patterns = protectedPatterns(["Makefile"], true, own);
    assert.equal(
      protectingPattern(".github/actions/pitcrew/dist/post.js", patterns),
      ".github/actions/pitcrew",
    );
    assert.equal(protectingPattern(".github/actions/other/action.yml", patterns), undefined);
    assert.deepEqual(ownActionPaths("/w/repo", "/w/repo"), ["action.yml", "dist"], "uses: ./");
    assert.deepEqual(ownActionPaths("/w/repo", "/home/runner/_actions/x/pitcrew/v0"), []);
    assert.deepEqual(ownActionPaths("/w/repo", "/w/repo-other"), [], "a sibling is not inside");
  });
});

describe("patterns", () => {
  test("normalised: ./ and trailing / and /** dropped", () => {
    assert.equal(normalisePattern("./scripts/ci/**"), "scripts/ci");
    assert.equal(normalisePattern("tools/"), "tools");
    assert.equal(normalisePattern("**/*.sh"), "**/*.sh");
  });

  test("the literal folders before the first wildcard", () => {
    assert.equal(literalPrefix("scripts/ci/*.sh"), "scripts/ci");
    assert.equal(literalPrefix("**/Makefile"), "");
    assert.equal(literalPrefix("Makefile"), "Makefile");
  });

  test("what is refused, and why", () => {
    assert.equal(patternProblem("scripts/ci/**"), undefined);
    assert.equal(patternProblem("**/*.sh"), undefined);
    assert.match(patternProblem("") ?? "", /empty/);
    assert.match(patternProblem("/etc/passwd") ?? "", /relative/);
    assert.match(patternProblem("../outside") ?? "", /\.\./);
    assert.match(patternProblem("a//b") ?? "", /empty/);
    assert.match(patternProblem("scripts\\ci") ?? "", /\//);
    assert.match(patternProblem("{a,b}/x") ?? "", /only \*, \*\* and \?/);
    assert.match(patternProblem("**") ?? "", /whole checkout/);
    assert.match(patternProblem("**/**") ?? "", /whole checkout/);
  });
});
