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

describe("parseRepoConfig: ci-repair", () => {
  test("every setting, by its kebab-case key", () => {
    const config = parseRepoConfig(
      [
        "ci-repair:",
        "  branches: [main, 'release/**']",
        "  attempts-per-sha: 2",
        "  attempts-per-branch: 5",
        "  attempts-per-signature: 3",
        "  dollars-per-signature: 2.5",
        "  forks: comment",
        "  rerun-flaky: false",
        "  proof-runs: 5",
        "  classify:",
        "    - match: /ETIMEDOUT|ECONNRESET/i",
        "      class: infrastructure",
        "    - match: tests/e2e/",
        "      class: flaky",
        "",
      ].join("\n"),
    );
    assert.deepEqual(config["ci-repair"], {
      branches: ["main", "release/**"],
      "attempts-per-sha": 2,
      "attempts-per-branch": 5,
      "attempts-per-signature": 3,
      "dollars-per-signature": 2.5,
      forks: "comment",
      "rerun-flaky": false,
      "proof-runs": 5,
      classify: [
        { match: "/ETIMEDOUT|ECONNRESET/i", class: "infrastructure" },
        { match: "tests/e2e/", class: "flaky" },
      ],
    });
  });

  test("an empty section is no settings", () => {
    assert.deepEqual(parseRepoConfig("ci-repair: {}\n")["ci-repair"], {});
  });

  const bad: [text: string, pattern: RegExp][] = [
    [
      "ci-repair:\n  attempts-per-sha: 0\n",
      /line 2: ci-repair\.attempts-per-sha: takes a whole number from 1 to 10\. Fix or remove it\.$/,
    ],
    // The ledger keeps a failure's last 10 attempts: a cap of 11 would never be reached.
    [
      "ci-repair:\n  attempts-per-signature: 11\n",
      /line 2: ci-repair\.attempts-per-signature: takes a whole number from 1 to 10/,
    ],
    [
      "ci-repair:\n  attempts-per-branch: 1.5\n",
      /line 2: ci-repair\.attempts-per-branch: takes a whole number above 0/,
    ],
    [
      "ci-repair:\n  dollars-per-signature: 0\n",
      /line 2: ci-repair\.dollars-per-signature: takes a number above 0/,
    ],
    [
      '# repair\nci-repair:\n  dollars-per-signature: "5"\n',
      /line 3: ci-repair\.dollars-per-signature: takes a number above 0/,
    ],
    ["ci-repair:\n  forks: allow\n", /line 2: ci-repair\.forks: takes ignore or comment/],
    ["ci-repair:\n  rerun-flaky: maybe\n", /line 2: ci-repair\.rerun-flaky: takes true or false/],
    [
      "ci-repair:\n  proof-runs: 0\n",
      /line 2: ci-repair\.proof-runs: takes a whole number above 0/,
    ],
    [
      "ci-repair:\n  branches: main\n",
      /line 2: ci-repair\.branches: takes a list, each a branch name or a glob/,
    ],
    [
      "ci-repair:\n  branches: []\n",
      /line 2: ci-repair\.branches: takes a list of at least one branch or glob \(\*\* for every branch\)/,
    ],
    [
      "ci-repair:\n  branches:\n    - main\n    - '!dev'\n",
      /line 4: ci-repair\.branches\.1: takes a branch name or a glob .*\(no negation with !: list the branches to repair\)/,
    ],
    [
      "ci-repair:\n  branches:\n    - release/v?\n",
      /line 3: ci-repair\.branches\.0: .*\(the only wildcards are \* and \*\*\)/,
    ],
    ["ci-repair:\n  branches:\n    - a..b\n", /line 3: ci-repair\.branches\.0: .*\(no '\.\.'\)/],
    [
      "draft: true\nci-repair:\n  branches:\n    - main\n    - 42\n",
      /line 5: ci-repair\.branches\.1: takes a branch name or a glob/,
    ],
    [
      "ci-repair:\n  classify:\n    - match: '/[a/'\n      class: flaky\n",
      /line 3: ci-repair\.classify\.0\.match: .*\(not a regular expression: \/\[a\/: Unterminated character class\)/,
    ],
    [
      "ci-repair:\n  classify:\n    - match: /timeout/g\n      class: flaky\n",
      /line 3: ci-repair\.classify\.0\.match: .*\(the flags after \/ may be i, m, s and u\)/,
    ],
    [
      "ci-repair:\n  classify:\n    - match: ''\n      class: flaky\n",
      /line 3: ci-repair\.classify\.0\.match: .*\(it may not be empty\)/,
    ],
    [
      "ci-repair:\n  classify:\n    - match: ENOSPC\n      class: disk\n",
      /line 4: ci-repair\.classify\.0\.class: takes code, flaky, infrastructure or configuration/,
    ],
    // A missing key is placed at its entry.
    [
      "ci-repair:\n  classify:\n    - match: x\n      class: code\n    - class: flaky\n",
      /line 5: ci-repair\.classify\.1\.match: takes a piece of the first error/,
    ],
    [
      "ci-repair:\n  classify:\n    - match: x\n      class: flaky\n      why: y\n",
      /line 5: ci-repair\.classify\.0\.why: not a setting pitcrew knows/,
    ],
    [
      "ci-repair:\n  classify: ENOSPC\n",
      /line 2: ci-repair\.classify: takes a list of \{ match, class \} entries/,
    ],
    ["ci-repair:\n  attempts: 3\n", /line 2: ci-repair\.attempts: not a setting pitcrew knows/],
    ["draft: true\nci-repair: true\n", /line 2: ci-repair: .*expected object/],
  ];
  for (const [text, pattern] of bad) {
    test(`refused with key and line: ${JSON.stringify(text)}`, () => {
      assert.throws(() => parseRepoConfig(text), invalid(pattern));
    });
  }

  test("allowed-bots under ci-repair: the workflow's to set, as the action input", () => {
    assert.throws(
      () => parseRepoConfig("ci-repair:\n  proof-runs: 2\n  allowed-bots: ['renovate[bot]']\n"),
      invalid(
        /^\.github\/pitcrew\.yml line 3: ci-repair\.allowed-bots: only the workflow sets this\. Remove it here and set it as the action input 'allowed-bots' under with: instead\.$/,
      ),
    );
  });
});

describe("parseRepoConfig: flaky-triage", () => {
  test("every setting, by its kebab-case key", () => {
    const config = parseRepoConfig(
      "flaky-triage:\n  workflows: [ci.yml, e2e.yaml]\n  lookback-days: 30\n  top: 2\n  reruns: 50\n  label: flaky\n  quarantine: false\n",
    );
    assert.deepEqual(config["flaky-triage"], {
      workflows: ["ci.yml", "e2e.yaml"],
      "lookback-days": 30,
      top: 2,
      reruns: 50,
      label: "flaky",
      quarantine: false,
    });
  });

  const bad: [text: string, pattern: RegExp][] = [
    [
      "flaky-triage:\n  workflows: ci.yml\n",
      /line 2: flaky-triage\.workflows: takes a list, each a workflow file name such as ci\.yml/,
    ],
    [
      "flaky-triage:\n  workflows: []\n",
      /line 2: flaky-triage\.workflows: takes a list of at least one workflow file name/,
    ],
    [
      "flaky-triage:\n  workflows:\n    - .github/workflows/ci.yml\n",
      /line 3: flaky-triage\.workflows\.0: .*\(the file's name only, ending in \.yml or \.yaml\)/,
    ],
    [
      "flaky-triage:\n  lookback-days: 120\n",
      /line 2: flaky-triage\.lookback-days: takes a whole number of days from 1 to 90/,
    ],
    [
      "flaky-triage:\n  reruns: 3\n",
      /line 2: flaky-triage\.reruns: takes a whole number from 5 to 500/,
    ],
    ["flaky-triage:\n  top: 0\n", /line 2: flaky-triage\.top: takes a whole number above 0/],
    [
      "flaky-triage:\n  label: 'a,b'\n",
      /line 2: flaky-triage\.label: takes a label name of 1 to 50 characters without commas/,
    ],
    [
      "flaky-triage:\n  quarantine: sometimes\n",
      /line 2: flaky-triage\.quarantine: takes true or false/,
    ],
    [
      "flaky-triage:\n  look-back: 3\n",
      /line 2: flaky-triage\.look-back: not a setting pitcrew knows/,
    ],
  ];
  for (const [text, pattern] of bad) {
    test(`refused: ${JSON.stringify(text)}`, () => {
      assert.throws(
        () => parseRepoConfig(text),
        (error: unknown) => {
          assert.ok(error instanceof PitcrewError);
          assert.equal(error.code, "config-invalid");
          assert.match(error.message, pattern);
          return true;
        },
      );
    });
  }
});
