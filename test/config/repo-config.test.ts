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

describe("parseRepoConfig: run settings", () => {
  test("the settings a repository may make, by their kebab-case keys", () => {
    const config = parseRepoConfig(
      [
        "max-turns: 20",
        "time-budget: 12.5",
        "cost-budget: 0",
        "token-budget: 500000",
        "branch-prefix: bots/",
        "draft: true",
        "allow-workflow-changes: false",
        "",
      ].join("\n"),
    );
    assert.deepEqual(config, {
      "max-turns": 20,
      "time-budget": 12.5,
      "cost-budget": 0,
      "token-budget": 500000,
      "branch-prefix": "bots/",
      draft: true,
      "allow-workflow-changes": false,
      permissions: { deny: [] },
    });
  });

  const bad: [text: string, pattern: RegExp][] = [
    ["max-turns: 0\n", /line 1: max-turns: takes a whole number above 0\. Fix or remove it\.$/],
    ["instructions: hi\nmax-turns: ten\n", /line 2: max-turns: takes a whole number above 0/],
    ["time-budget: -5\n", /line 1: time-budget: takes a number above 0/],
    ['# budgets\ncost-budget: "5"\n', /line 2: cost-budget: takes a number, 0 or more/],
    ["token-budget: 1.5\n", /line 1: token-budget: takes a whole number, 0 or more/],
    ["draft: yes\n", /line 1: draft: takes true or false/],
    ["\n\nallow-workflow-changes: 1\n", /line 3: allow-workflow-changes: takes true or false/],
    [
      "branch-prefix: a..b/\n",
      /line 1: branch-prefix: takes the start of a git branch name.*no '\.\.'/,
    ],
    ["branch-prefix: ''\n", /line 1: branch-prefix: .*it may not be empty/],
  ];
  for (const [text, pattern] of bad) {
    test(`refused with key and line: ${JSON.stringify(text)}`, () => {
      assert.throws(() => parseRepoConfig(text), invalid(pattern));
    });
  }

  const inputOnly = [
    "model",
    "api-key",
    "base-url",
    "github-token",
    "trigger-phrase",
    "sandbox",
    "allowed-bots",
    "context-window",
    "command-timeout",
    "disk-reserve",
  ];
  for (const key of inputOnly) {
    test(`${key} is the workflow's to set: the error says to use the action input`, () => {
      assert.throws(
        () => parseRepoConfig(`draft: true\n${key}: x\n`),
        invalid(
          new RegExp(
            `^\\.github/pitcrew\\.yml line 2: ${key}: only the workflow sets this\\. Remove it here and set it as the action input '${key}' under with: instead\\.$`,
          ),
        ),
      );
    });
  }

  test("a camelCase key is unknown, not quietly ignored", () => {
    assert.throws(
      () => parseRepoConfig("maxTurns: 5\n"),
      invalid(/line 1: maxTurns: not a setting pitcrew knows/),
    );
  });
});

describe("parseRepoConfig: protected paths", () => {
  test("protected-paths is a list of globs; allow-protected-changes a flag", () => {
    const config = parseRepoConfig(
      "protected-paths:\n  - Makefile\n  - scripts/ci/**\nallow-protected-changes: false\n",
    );
    assert.deepEqual(config["protected-paths"], ["Makefile", "scripts/ci/**"]);
    assert.equal(config["allow-protected-changes"], false);
  });

  test("a bad glob is named with its key, index, line and what is wrong", () => {
    assert.throws(
      () => parseRepoConfig("draft: true\nprotected-paths:\n  - Makefile\n  - ../secrets\n"),
      invalid(
        /line 4: protected-paths\.1: '\.\.\/secrets' must not contain empty, \. or \.\. folders/,
      ),
    );
    assert.throws(
      () => parseRepoConfig("protected-paths:\n  - /etc/ci\n"),
      invalid(/line 2: protected-paths\.0: '\/etc\/ci' must be relative/),
    );
    assert.throws(
      () => parseRepoConfig("protected-paths: Makefile\n"),
      invalid(/line 1: protected-paths: takes a list of paths or globs/),
    );
    assert.throws(
      () => parseRepoConfig("allow-protected-changes: yes please\n"),
      invalid(/line 1: allow-protected-changes: /),
    );
  });
});
