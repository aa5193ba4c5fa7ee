/** `.github/pitcrew.yml`: what parses, and the named errors (key and line) for what does not. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { PitcrewError } from "../../src/errors.ts";
import { EMPTY_REPO_CONFIG, parseRepoConfig } from "../../src/config/repo-config.ts";

function invalid(pattern: RegExp): (error: unknown) => boolean {
  return (error) => {
    assert.ok(error instanceof PitcrewError);
    assert.equal(error.code, "config-invalid");
    assert.match(error.message, pattern);
    return true;
  };
}

describe("parseRepoConfig", () => {
  test("an empty file or comments only is the empty config", () => {
    assert.deepEqual(parseRepoConfig(""), EMPTY_REPO_CONFIG);
    assert.deepEqual(parseRepoConfig("# nothing yet\n"), EMPTY_REPO_CONFIG);
  });

  test("instructions and the deny list", () => {
    const config = parseRepoConfig(
      "instructions: |\n  Run npm test before finishing.\npermissions:\n  deny:\n    - npm publish\n    - curl\n",
    );
    assert.equal(config.instructions, "Run npm test before finishing.\n");
    assert.deepEqual(config.permissions.deny, ["npm publish", "curl"]);
  });

  test("a YAML syntax error names the line", () => {
    assert.throws(
      () => parseRepoConfig("permissions:\n  deny: [npm publish\n"),
      invalid(/^\.github\/pitcrew\.yml line \d: .*Fix the YAML\.$/),
    );
  });

  test("an unknown key is named with its line", () => {
    assert.throws(
      () => parseRepoConfig("instructions: hi\npermisions:\n  deny: []\n"),
      invalid(/line 2: permisions: not a setting pitcrew knows/),
    );
    assert.throws(
      () => parseRepoConfig("permissions:\n  deny: []\n  allow: [curl]\n"),
      invalid(/line 3: permissions\.allow: not a setting pitcrew knows/),
    );
  });

  test("a value of the wrong type is named with its key path and line", () => {
    assert.throws(
      () => parseRepoConfig("permissions:\n  deny:\n    - npm publish\n    - 42\n"),
      invalid(/line 4: permissions\.deny\.1: .*expected string/),
    );
    assert.throws(
      () => parseRepoConfig("instructions: [a, b]\n"),
      invalid(/line 1: instructions: /),
    );
  });
});
