/** The merged Config: an input that is set beats .github/pitcrew.yml, which beats the defaults. */
import assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { CI_REPAIR_DEFAULTS, DEFAULTS, FLAKY_TRIAGE_DEFAULTS } from "../../src/config/config.ts";
import type { Config } from "../../src/config/config.ts";
import type { ActionInputs } from "../../src/config/inputs.ts";
import { buildConfig, loadConfig } from "../../src/config/load.ts";
import { readInputs } from "../../src/config/inputs.ts";
import { EMPTY_REPO_CONFIG, parseRepoConfig } from "../../src/config/repo-config.ts";
import type { RepoConfig } from "../../src/config/repo-config.ts";
import { PitcrewError } from "../../src/errors.ts";
import { withActionInputs } from "../support/action-inputs.ts";
import { createFixtureRepo, fixtureGit } from "../support/fixture-repo.ts";

const CREDENTIALS: ActionInputs = { apiKey: "sk-test", githubToken: "ghs_test" };

function file(settings: Partial<RepoConfig>): RepoConfig {
  return { ...EMPTY_REPO_CONFIG, ...settings };
}

interface Layered {
  key: keyof Config;
  fileKey: keyof RepoConfig;
  input: ActionInputs[keyof ActionInputs];
  inFile: RepoConfig[keyof RepoConfig];
  fallback: Config[keyof Config];
}

// Each setting both places may make, with the input and the file disagreeing; for the flags the
// input says false over the file's true, since false is a value, not "not set".
const LAYERED: Layered[] = [
  { key: "maxTurns", fileKey: "max-turns", input: 7, inFile: 20, fallback: DEFAULTS.maxTurns },
  {
    key: "timeBudgetMinutes",
    fileKey: "time-budget",
    input: 5,
    inFile: 12,
    fallback: DEFAULTS.timeBudgetMinutes,
  },
  {
    key: "costBudget",
    fileKey: "cost-budget",
    input: 1.5,
    inFile: 3,
    fallback: DEFAULTS.costBudget,
  },
  { key: "tokenBudget", fileKey: "token-budget", input: 1000, inFile: 2000, fallback: undefined },
  {
    key: "branchPrefix",
    fileKey: "branch-prefix",
    input: "ci/",
    inFile: "repo/",
    fallback: DEFAULTS.branchPrefix,
  },
  { key: "draft", fileKey: "draft", input: false, inFile: true, fallback: DEFAULTS.draft },
  {
    key: "retentionDays",
    fileKey: "retention-days",
    input: 7,
    inFile: 14,
    fallback: DEFAULTS.retentionDays,
  },
  {
    key: "allowWorkflowChanges",
    fileKey: "allow-workflow-changes",
    input: false,
    inFile: true,
    fallback: DEFAULTS.allowWorkflowChanges,
  },
];

describe("buildConfig", () => {
  for (const { key, fileKey, input, inFile, fallback } of LAYERED) {
    test(`${key}: input over ${fileKey} in the file over the default`, () => {
      const repo = file({ [fileKey]: inFile });
      assert.equal(buildConfig({ ...CREDENTIALS, [key]: input }, repo, "")[key], input);
      assert.equal(buildConfig(CREDENTIALS, repo, "")[key], inFile);
      assert.equal(buildConfig(CREDENTIALS, EMPTY_REPO_CONFIG, "")[key], fallback);
    });
  }

  test("the file-only settings: protected-paths and allow-protected-changes, off by default", () => {
    const defaults = buildConfig(CREDENTIALS, EMPTY_REPO_CONFIG, "");
    assert.deepEqual(defaults.protectedPaths, []);
    assert.equal(defaults.allowProtectedChanges, DEFAULTS.allowProtectedChanges);
    assert.equal(DEFAULTS.allowProtectedChanges, false);
    const set = buildConfig(
      CREDENTIALS,
      file({ "protected-paths": ["Makefile"], "allow-protected-changes": true }),
      "",
    );
    assert.deepEqual(set.protectedPaths, ["Makefile"]);
    assert.equal(set.allowProtectedChanges, true);
  });

  test("the inputs-only settings: their defaults, and an input set wins", () => {
    const defaults = buildConfig(CREDENTIALS, EMPTY_REPO_CONFIG, "");
    assert.equal(defaults.model, DEFAULTS.model);
    assert.equal(defaults.baseUrl, undefined);
    assert.equal(defaults.triggerPhrase, "/agent");
    assert.equal(defaults.contextWindow, DEFAULTS.contextWindow);
    assert.equal(defaults.sandbox, "auto");
    assert.equal(defaults.commandTimeoutSeconds, DEFAULTS.commandTimeoutSeconds);
    assert.deepEqual(defaults.allowedBots, []);
    const set = buildConfig(
      {
        ...CREDENTIALS,
        model: "gpt-5",
        baseUrl: "https://llm.example.com/v1",
        triggerPhrase: "/crew",
        contextWindow: 32000,
        sandbox: "bwrap",
        commandTimeoutSeconds: 120,
        allowedBots: ["dependabot[bot]"],
      },
      EMPTY_REPO_CONFIG,
      "",
    );
    assert.equal(set.model, "gpt-5");
    assert.equal(set.baseUrl, "https://llm.example.com/v1");
    assert.equal(set.triggerPhrase, "/crew");
    assert.equal(set.contextWindow, 32000);
    assert.equal(set.sandbox, "bwrap");
    assert.equal(set.commandTimeoutSeconds, 120);
    assert.deepEqual(set.allowedBots, ["dependabot[bot]"]);
    assert.equal(set.apiKey, "sk-test");
    assert.equal(set.githubToken, "ghs_test");
  });

  test("a budget of 0 means none, from an input (over the file) or from the file", () => {
    const repo = file({ "cost-budget": 3, "token-budget": 2000 });
    const fromInput = buildConfig({ ...CREDENTIALS, costBudget: 0, tokenBudget: 0 }, repo, "");
    assert.equal(fromInput.costBudget, undefined);
    assert.equal(fromInput.tokenBudget, undefined);
    const fromFile = buildConfig(CREDENTIALS, file({ "cost-budget": 0, "token-budget": 0 }), "");
    assert.equal(fromFile.costBudget, undefined);
    assert.equal(fromFile.tokenBudget, undefined);
  });

  test("the instructions given and the file's deny list are carried over", () => {
    const repo = parseRepoConfig("permissions:\n  deny: [npm publish]\n");
    const config = buildConfig(CREDENTIALS, repo, "Run npm test.");
    assert.equal(config.instructions, "Run npm test.");
    assert.deepEqual(config.deny, ["npm publish"]);
  });

  test("ci-repair: the defaults the issue names, without the file saying otherwise", () => {
    assert.deepEqual(buildConfig(CREDENTIALS, EMPTY_REPO_CONFIG, "").ciRepair, {
      branches: ["**"],
      caps: { perHeadSha: 1, perBranch: 3, perSignature: 2, dollarsPerSignature: 5 },
      forks: "ignore",
      rerunFlaky: true,
      proofRuns: 3,
      classify: [],
    });
  });

  test("ci-repair: each key of the file's section over its default, the rest kept", () => {
    const full = parseRepoConfig(
      [
        "ci-repair:",
        "  branches: [main, 'release/*']",
        "  attempts-per-sha: 2",
        "  attempts-per-branch: 6",
        "  attempts-per-signature: 4",
        "  dollars-per-signature: 1.5",
        "  forks: comment",
        "  rerun-flaky: false",
        "  proof-runs: 1",
        "  classify:",
        "    - { match: ENOSPC, class: infrastructure }",
        "",
      ].join("\n"),
    );
    assert.deepEqual(buildConfig(CREDENTIALS, full, "").ciRepair, {
      branches: ["main", "release/*"],
      caps: { perHeadSha: 2, perBranch: 6, perSignature: 4, dollarsPerSignature: 1.5 },
      forks: "comment",
      rerunFlaky: false,
      proofRuns: 1,
      classify: [{ match: "ENOSPC", class: "infrastructure" }],
    });
    const one = buildConfig(CREDENTIALS, parseRepoConfig("ci-repair:\n  proof-runs: 5\n"), "");
    assert.deepEqual(one.ciRepair, { ...CI_REPAIR_DEFAULTS, proofRuns: 5 });
  });

  test("ci-repair: a run's settings are its own; changing them leaves the defaults", () => {
    const config = buildConfig(CREDENTIALS, EMPTY_REPO_CONFIG, "");
    config.ciRepair.branches.push("main");
    config.ciRepair.caps.perBranch = 99;
    assert.deepEqual(CI_REPAIR_DEFAULTS.branches, ["**"]);
    assert.equal(CI_REPAIR_DEFAULTS.caps.perBranch, 3);
  });

  test("flaky-triage: the defaults the issue names, and the file's keys over them", () => {
    assert.deepEqual(buildConfig(CREDENTIALS, EMPTY_REPO_CONFIG, "").flakyTriage, {
      workflows: [],
      lookbackDays: 14,
      top: 1,
      reruns: 20,
      label: "flaky-test",
      quarantine: true,
    });
    const file = parseRepoConfig("flaky-triage:\n  workflows: [ci.yml]\n  reruns: 40\n");
    const config = buildConfig(CREDENTIALS, file, "");
    assert.deepEqual(config.flakyTriage, {
      ...FLAKY_TRIAGE_DEFAULTS,
      workflows: ["ci.yml"],
      reruns: 40,
    });
    config.flakyTriage.workflows.push("other.yml");
    assert.deepEqual(FLAKY_TRIAGE_DEFAULTS.workflows, [], "a run's settings are its own");
  });

  test("no API key: a named error saying how to pass the secret", () => {
    assert.throws(
      () => buildConfig({ githubToken: "ghs_test" }, EMPTY_REPO_CONFIG, ""),
      (error) => {
        assert.ok(error instanceof PitcrewError);
        assert.equal(error.code, "config-missing-api-key");
        assert.ok(error.message.includes("api-key: ${{ secrets.OPENAI_API_KEY }}"));
        assert.ok(error.message.includes("under `with:`"));
        assert.ok(error.message.includes("Settings → Secrets and variables → Actions"));
        return true;
      },
    );
  });

  test("no GitHub token: a named error", () => {
    assert.throws(
      () => buildConfig({ apiKey: "sk-test" }, EMPTY_REPO_CONFIG, ""),
      (error) => error instanceof PitcrewError && error.code === "config-missing-github-token",
    );
  });
});

describe("loadConfig", () => {
  const fixture = createFixtureRepo("load-config");
  after(() => rmSync(fixture.root, { recursive: true, force: true }));
  mkdirSync(join(fixture.repo, ".github"));
  writeFileSync(
    join(fixture.repo, ".github", "pitcrew.yml"),
    "max-turns: 20\ndraft: true\ninstructions: Keep the changelog.\nci-repair:\n  attempts-per-branch: 4\n",
  );
  writeFileSync(join(fixture.repo, "AGENTS.md"), "Run npm test.\n");
  fixtureGit(fixture.repo, "add", ".");
  fixtureGit(fixture.repo, "commit", "-q", "-m", "pitcrew setup");

  test("the runner's INPUT_* variables merged over the committed file over the defaults", async () => {
    const { value: inputs, stdout } = withActionInputs(
      {
        "api-key": "sk-load-test",
        "github-token": "ghs_load_test",
        "max-turns": "7",
      },
      () => readInputs(),
    );
    const config = await loadConfig({ inputs, workspace: fixture.repo, baseRef: "HEAD" });
    assert.match(stdout, /^::add-mask::sk-load-test$/m);
    assert.equal(config.apiKey, "sk-load-test");
    assert.equal(config.maxTurns, 7);
    assert.equal(config.draft, true);
    assert.equal(config.timeBudgetMinutes, DEFAULTS.timeBudgetMinutes);
    assert.equal(config.instructions, "Run npm test.\n\nKeep the changelog.");
    assert.equal(config.ciRepair.caps.perBranch, 4);
    assert.equal(config.ciRepair.caps.perHeadSha, CI_REPAIR_DEFAULTS.caps.perHeadSha);
  });

  test("a base that is not a commit is a named error, not an empty setup", async () => {
    await assert.rejects(
      loadConfig({
        inputs: { apiKey: "sk-x", githubToken: "ghs_x" },
        workspace: fixture.repo,
        baseRef: "no-such-ref",
      }),
      (error) => error instanceof PitcrewError && error.code === "config-base-missing",
    );
  });
});
