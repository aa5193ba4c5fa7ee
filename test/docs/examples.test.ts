/**
 * The workflows users copy (docs/examples/) and the pages they read (docs/action.md, README.md),
 * checked against what they describe: action.yml's inputs and outputs, the defaults in the code,
 * the repository-file parser, the event reader and the error codes the source raises.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import type { WebhookDefinition } from "@octokit/webhooks-examples";
import { examples } from "../support/payloads.ts";
import { parse, parseDocument } from "yaml";
import { CI_REPAIR_DEFAULTS, FLAKY_TRIAGE_DEFAULTS, DEFAULTS } from "../../src/config/config.ts";
import { parseRepoConfig } from "../../src/config/repo-config.ts";
import { DEFAULT_SETTINGS } from "../../src/sandbox/policy.ts";
import { parseEvent } from "../../src/triggers/event.ts";
import { schedulePayload, workflowDispatchPayload } from "../support/payloads.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

type Level = "none" | "read" | "write";

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}

interface Job {
  if?: string;
  "timeout-minutes"?: unknown;
  permissions?: unknown;
  concurrency?: { group?: unknown; "cancel-in-progress"?: unknown };
  steps?: Step[];
}

interface Workflow {
  on: Record<string, unknown>;
  permissions?: unknown;
  concurrency?: unknown;
  jobs: Record<string, Job>;
}

interface ActionInput {
  default?: string;
  required?: boolean;
}

interface ActionMetadata {
  inputs: Record<string, ActionInput>;
  outputs: Record<string, unknown>;
}

interface Example {
  file: string;
  /** The GITHUB_TOKEN scopes the mode needs, at least at these levels. */
  scopes: Record<string, Level>;
  /** A later milestone: the file must say so, and pitcrew must answer its events with "ignore". */
  notYet: boolean;
}

const THREAD_SCOPES: Record<string, Level> = {
  contents: "write",
  "pull-requests": "write",
  issues: "write",
  actions: "read",
};

const EXAMPLES: Example[] = [
  { file: "agent-fix.yml", scopes: THREAD_SCOPES, notYet: false },
  {
    file: "ci-repair.yml",
    scopes: { ...THREAD_SCOPES, actions: "write", checks: "read" },
    notYet: false,
  },
  { file: "flaky-triage.yml", scopes: THREAD_SCOPES, notYet: false },
];

/** Where `npm run vendor` puts the action in a repository (scripts/vendor.mjs). */
const VENDOR_PATH = ".github/actions/pitcrew";

/**
 * A step is pitcrew's when it uses the vendored copy, `./.github/actions/pitcrew`, or a release,
 * `<owner>/pitcrew@<ref>`.
 */
const PITCREW_USES = /^(?:\.\/\.github\/actions\/pitcrew|[\w.-]+\/pitcrew@[\w./-]+)$/;

/**
 * Defaults that live in the code because action.yml cannot declare them (the runner would fill
 * them in and hide "not set" from the repository file). 0 is how "no budget" is written.
 */
const CODE_DEFAULTS: Record<string, string> = {
  model: DEFAULTS.model,
  "trigger-phrase": DEFAULTS.triggerPhrase,
  "max-turns": String(DEFAULTS.maxTurns),
  "time-budget": String(DEFAULTS.timeBudgetMinutes),
  "cost-budget": String(DEFAULTS.costBudget),
  "token-budget": "0",
  "context-window": String(DEFAULTS.contextWindow),
  sandbox: DEFAULT_SETTINGS.backend,
  "command-timeout": String(DEFAULTS.commandTimeoutSeconds),
  "disk-reserve": String(DEFAULTS.diskReserveMiB),
  "branch-prefix": DEFAULTS.branchPrefix,
  draft: String(DEFAULTS.draft),
  "allow-workflow-changes": String(DEFAULTS.allowWorkflowChanges),
  "retention-days": String(DEFAULTS.retentionDays),
  "notes-store": DEFAULTS.notesStore,
};

function read(path: string): string {
  return readFileSync(join(ROOT, path), "utf8");
}

/** Parses strictly: a YAML error or warning fails the test with the file's name. */
function parseYaml(text: string, name: string): unknown {
  const document = parseDocument(text, { prettyErrors: true });
  const problems = [...document.errors, ...document.warnings];
  assert.deepEqual(
    problems.map((problem) => problem.message),
    [],
    `${name} is not clean YAML`,
  );
  return document.toJS();
}

function actionMetadata(): ActionMetadata {
  return parse(read("action.yml")) as ActionMetadata;
}

function workflow(file: string): Workflow {
  return parseYaml(read(`docs/examples/${file}`), file) as Workflow;
}

/** The one job that runs pitcrew, and the index of its pitcrew step. */
function pitcrewJob(flow: Workflow, file: string): { job: Job; at: number } {
  const found = Object.values(flow.jobs).flatMap((job) => {
    const at = (job.steps ?? []).findIndex((step) => PITCREW_USES.test(step.uses ?? ""));
    return at === -1 ? [] : [{ job, at }];
  });
  assert.equal(found.length, 1, `${file} should have exactly one job that uses pitcrew`);
  return found[0]!;
}

const RANK: Record<Level, number> = { none: 0, read: 1, write: 2 };

/** Every `uses: …/pitcrew@…` step anywhere in a parsed YAML value. */
function pitcrewSteps(value: unknown): Step[] {
  if (Array.isArray(value)) return value.flatMap(pitcrewSteps);
  if (value === null || typeof value !== "object") return [];
  const step = value as Step;
  if (typeof step.uses === "string" && PITCREW_USES.test(step.uses)) return [step];
  return Object.values(value).flatMap(pitcrewSteps);
}

/** The text between a `## heading` and the next `## `. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  assert.notEqual(start, -1, `no "## ${heading}" section`);
  const end = markdown.indexOf("\n## ", start + 1);
  return markdown.slice(start, end === -1 ? undefined : end);
}

/** The text between a `### heading` and the next heading of its level or above. */
function subsection(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n### ${heading}\n`);
  assert.notEqual(start, -1, `no "### ${heading}" section`);
  const end = markdown.slice(start + 1).search(/\n#{2,3} /);
  return markdown.slice(start, end === -1 ? undefined : start + 1 + end);
}

/** The body rows of the first Markdown table in `text`, as trimmed cells. */
function tableRows(text: string): string[][] {
  const lines = text.split("\n");
  const first = lines.findIndex((line) => line.startsWith("|"));
  assert.notEqual(first, -1, "no table found");
  const end = lines.findIndex((line, index) => index > first && !line.startsWith("|"));
  return lines.slice(first + 2, end === -1 ? undefined : end).map((line) =>
    line
      .slice(1, -1)
      .split("|")
      .map((cell) => cell.trim()),
  );
}

function unquote(cell: string): string {
  const match = /^`([^`]+)`$/.exec(cell);
  assert.ok(match, `expected a single \`code\` cell, got ${cell}`);
  return match[1]!;
}

function yamlBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

function headingAnchors(markdown: string): Set<string> {
  const outsideCode = markdown.replace(/```[\s\S]*?```/g, "");
  return new Set(
    [...outsideCode.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchor(match[1]!.trim())),
  );
}

/** Every string literal the source passes as an error code (`new PitcrewError("code", …)`). */
function raisedCodes(): Set<string> {
  const codes = new Set<string>();
  const files = readdirSync(join(ROOT, "src"), { recursive: true, encoding: "utf8" });
  for (const file of files.filter((name) => name.endsWith(".ts"))) {
    const text = read(join("src", file));
    for (const match of text.matchAll(/new PitcrewError\(\s*"([a-z0-9-]+)"/g)) codes.add(match[1]!);
  }
  return codes;
}

function webhookExample(name: WebhookDefinition["name"]): unknown {
  const [example] = examples(name);
  assert.ok(example, `@octokit/webhooks-examples has no ${name} example`);
  return structuredClone(example);
}

describe("example workflows", () => {
  const action = actionMetadata();

  for (const example of EXAMPLES) {
    describe(example.file, () => {
      const flow = workflow(example.file);
      const { job, at } = pitcrewJob(flow, example.file);
      const steps = job.steps ?? [];
      const pitcrew = steps[at]!;

      test("grants the GITHUB_TOKEN the scopes the mode needs, as a list", () => {
        const permissions = job.permissions ?? flow.permissions;
        assert.ok(
          permissions !== null && typeof permissions === "object",
          "permissions must list scopes (not read-all/write-all, not left to the repository default)",
        );
        const granted = permissions as Record<string, Level>;
        for (const [scope, needed] of Object.entries(example.scopes)) {
          assert.ok(
            RANK[granted[scope] ?? "none"] >= RANK[needed],
            `${scope}: needs ${needed}, has ${granted[scope] ?? "none"}`,
          );
        }
      });

      test("queues a second run on the job instead of cancelling the first", () => {
        assert.equal(
          flow.concurrency,
          undefined,
          "a workflow-level group would let runs the job's if: drops cancel a waiting request",
        );
        assert.equal(job.concurrency?.["cancel-in-progress"], false);
        assert.match(String(job.concurrency?.group), /^pitcrew-/);
      });

      test("has a job timeout", () => {
        assert.equal(typeof job["timeout-minutes"], "number");
        assert.ok((job["timeout-minutes"] as number) > DEFAULTS.timeBudgetMinutes);
      });

      test("passes the API key from a secret and only inputs action.yml declares", () => {
        assert.match(String(pitcrew.with?.["api-key"]), /^\$\{\{ *secrets\.[A-Z0-9_]+ *\}\}$/);
        const declared = Object.keys(action.inputs);
        for (const key of Object.keys(pitcrew.with ?? {})) {
          assert.ok(declared.includes(key), `with: ${key} is not an input of action.yml`);
        }
        for (const [name, input] of Object.entries(action.inputs)) {
          if (input.required === true) assert.ok(name in (pitcrew.with ?? {}), `${name} missing`);
        }
      });

      test("checks out the commit it runs on and installs dependencies before pitcrew", () => {
        const before = steps.slice(0, at);
        const checkout = before.find((step) => step.uses?.startsWith("actions/checkout@"));
        assert.ok(checkout, "no actions/checkout before pitcrew");
        // pitcrew reads .github/pitcrew.yml from GITHUB_SHA; another ref would not contain it.
        assert.equal(checkout.with?.ref, undefined);
        assert.equal(checkout.with?.["persist-credentials"], false);
        assert.ok(
          before.some((step) => typeof step.run === "string"),
          "no install step before pitcrew: the sandbox has no network",
        );
      });

      test("runs the copy `npm run vendor` makes, after the checkout, and names the release form", () => {
        assert.equal(pitcrew.uses, `./${VENDOR_PATH}`);
        const text = read(`docs/examples/${example.file}`);
        assert.match(text, /npm run vendor/);
        assert.match(text, /^\s*#.*\bOWNER\/pitcrew@v0\b/m, "the release form, as a comment");
      });

      if (example.notYet) {
        test("says at the top that the mode is not available yet, and pitcrew ignores it", () => {
          const header = read(`docs/examples/${example.file}`).split("\n")[0]!;
          assert.match(header, /NOT AVAILABLE YET/);
          for (const eventName of Object.keys(flow.on)) {
            const payload =
              eventName === "schedule"
                ? { schedule: "17 4 * * 1-5" }
                : webhookExample(eventName as WebhookDefinition["name"]);
            const trigger = parseEvent({
              eventName,
              payload,
              triggerPhrase: DEFAULTS.triggerPhrase,
              runId: "1",
            });
            assert.equal(trigger.kind, "ignore", `${eventName} should be "nothing to do"`);
          }
        });
      }
    });
  }

  describe("agent-fix.yml", () => {
    const flow = workflow("agent-fix.yml");
    const { job } = pitcrewJob(flow, "agent-fix.yml");

    test("starts on new comments and on a manual run, gated on the trigger phrase", () => {
      assert.deepEqual(Object.keys(flow.on).sort(), ["issue_comment", "workflow_dispatch"]);
      assert.deepEqual((flow.on.issue_comment as { types: string[] }).types, ["created"]);
      assert.match(
        String(job.if),
        new RegExp(`startsWith\\(github\\.event\\.comment\\.body, '${DEFAULTS.triggerPhrase}'\\)`),
      );
      assert.match(String(job.if), /github\.event_name == 'workflow_dispatch'/);
      assert.match(String(job.concurrency?.group), /github\.event\.issue\.number/);
    });

    test("the manual run's inputs are what pitcrew reads as a task", () => {
      const inputs = (flow.on.workflow_dispatch as { inputs: Record<string, unknown> }).inputs;
      const payload = {
        ...workflowDispatchPayload({}),
        inputs: Object.fromEntries(Object.keys(inputs).map((name) => [name, "Fix the typo"])),
      };
      const trigger = parseEvent({
        eventName: "workflow_dispatch",
        payload,
        triggerPhrase: DEFAULTS.triggerPhrase,
        runId: "42",
      });
      assert.equal(trigger.kind, "task");
      assert.equal(trigger.kind === "task" && trigger.task.instruction, "Fix the typo");
    });

    test("can hand pitcrew a GitHub App token, falling back to the workflow's own", () => {
      const steps = job.steps ?? [];
      const app = steps.find((step) => step.uses?.startsWith("actions/create-github-app-token@"));
      assert.ok(app, "no actions/create-github-app-token step");
      const pitcrew = steps.find((step) => PITCREW_USES.test(step.uses ?? ""))!;
      assert.equal(
        pitcrew.with?.["github-token"],
        "${{ steps.app-token.outputs.token || github.token }}",
      );
    });
  });

  describe("ci-repair.yml", () => {
    const flow = workflow("ci-repair.yml");
    const { job } = pitcrewJob(flow, "ci-repair.yml");

    test("starts only for failed or timed-out runs of this repository's own branches", () => {
      assert.deepEqual((flow.on.workflow_run as { types: string[] }).types, ["completed"]);
      const condition = String(job.if);
      assert.match(condition, /github\.event\.workflow_run\.conclusion == 'failure'/);
      assert.match(condition, /github\.event\.workflow_run\.conclusion == 'timed_out'/);
      assert.match(
        condition,
        /github\.event\.workflow_run\.head_repository\.full_name == github\.repository/,
      );
    });

    test("one repair per branch at a time, none cancelled, and the App token for CI on the fix", () => {
      const concurrency = job.concurrency as { group: string; "cancel-in-progress": boolean };
      assert.match(concurrency.group, /github\.event\.workflow_run\.head_branch/);
      assert.equal(concurrency["cancel-in-progress"], false);
      const steps = job.steps as { uses?: string; with?: Record<string, string> }[];
      assert.ok(steps.some((step) => step.uses?.startsWith("actions/create-github-app-token@")));
      const pitcrew = steps.find((step) => PITCREW_USES.test(step.uses ?? ""));
      assert.match(pitcrew?.with?.["github-token"] ?? "", /steps\.app-token\.outputs\.token/);
    });
  });

  describe("flaky-triage.yml", () => {
    const flow = workflow("flaky-triage.yml");

    test("runs on a schedule, and its scheduled event is a triage", () => {
      const schedule = flow.on.schedule as { cron: string }[];
      assert.equal(schedule.length, 1);
      assert.equal(schedule[0]!.cron.split(" ").length, 5);
      const trigger = parseEvent({
        eventName: "schedule",
        payload: schedulePayload(schedule[0]!.cron),
        triggerPhrase: DEFAULTS.triggerPhrase,
        runId: "1",
      });
      assert.equal(trigger.kind === "task" && trigger.task.kind, "flaky-triage");
    });

    test("the manual run's default input is a triage", () => {
      const inputs = (flow.on.workflow_dispatch as { inputs: Record<string, { default?: string }> })
        .inputs;
      const payload = {
        ...workflowDispatchPayload({}),
        inputs: Object.fromEntries(
          Object.entries(inputs).map(([name, input]) => [name, input.default]),
        ),
      };
      const trigger = parseEvent({
        eventName: "workflow_dispatch",
        payload,
        triggerPhrase: DEFAULTS.triggerPhrase,
        runId: "42",
      });
      assert.equal(trigger.kind === "task" && trigger.task.kind, "flaky-triage");
    });
  });
});

describe("docs/action.md", () => {
  const page = read("docs/action.md");
  const action = actionMetadata();

  test("the inputs table lists every input of action.yml with its real default", () => {
    const rows = tableRows(section(page, "Inputs"));
    assert.deepEqual(
      rows.map(([name]) => unquote(name!)).sort(),
      Object.keys(action.inputs).sort(),
    );
    for (const [cell, shown] of rows) {
      const name = unquote(cell!);
      const input = action.inputs[name]!;
      const expected =
        input.default !== undefined
          ? `\`${input.default}\``
          : input.required === true
            ? "required"
            : CODE_DEFAULTS[name] !== undefined
              ? `\`${CODE_DEFAULTS[name]}\``
              : "—";
      assert.equal(shown, expected, `default of ${name}`);
    }
  });

  test("the outputs table lists every output of action.yml", () => {
    const rows = tableRows(section(page, "Outputs"));
    assert.deepEqual(
      rows.map(([name]) => unquote(name!)).sort(),
      Object.keys(action.outputs).sort(),
    );
  });

  test("the repository file example is one pitcrew accepts, and its table names real inputs", () => {
    const part = section(page, "The repository file: `.github/pitcrew.yml`");
    const example = yamlBlocks(part)[0] ?? "";
    assert.ok(example.startsWith("# .github/pitcrew.yml\n"));
    const config = parseRepoConfig(example);
    const rows = tableRows(part);
    const documented = rows.map(([key]) => unquote(key!));
    for (const key of Object.keys(parse(example) as object)) {
      assert.ok(
        documented.some((row) => row === key || row.startsWith(`${key}.`)),
        `${key} is in the example but not in the table`,
      );
    }
    for (const [, input] of rows) {
      if (input !== "—") assert.ok(unquote(input!) in action.inputs, `${input} is not an input`);
    }
    assert.deepEqual(config.permissions.deny, ["npm publish", "git push"]);
  });

  test("the ci-repair section: its example is accepted, its table has each key and default", () => {
    const part = subsection(page, "CI repair: `ci-repair`");
    const example = yamlBlocks(part)[0] ?? "";
    assert.ok(example.startsWith("# .github/pitcrew.yml\n"));
    const settings = parseRepoConfig(example)["ci-repair"] ?? {};
    const { caps } = CI_REPAIR_DEFAULTS;
    const defaults: Record<string, string> = {
      branches: `\`${JSON.stringify(CI_REPAIR_DEFAULTS.branches)}\``,
      "attempts-per-sha": `\`${caps.perHeadSha}\``,
      "attempts-per-branch": `\`${caps.perBranch}\``,
      "attempts-per-signature": `\`${caps.perSignature}\``,
      "dollars-per-signature": `\`${caps.dollarsPerSignature}\``,
      forks: `\`${CI_REPAIR_DEFAULTS.forks}\``,
      "rerun-flaky": `\`${CI_REPAIR_DEFAULTS.rerunFlaky}\``,
      "proof-runs": `\`${CI_REPAIR_DEFAULTS.proofRuns}\``,
      classify: "none",
    };
    const rows = tableRows(part);
    assert.deepEqual(rows.map(([key]) => unquote(key!)).sort(), Object.keys(settings).sort());
    for (const [key, shown] of rows) assert.equal(shown, defaults[unquote(key!)], key);
    const [message] = [...part.matchAll(/```text\n([\s\S]*?)\n```/g)].map((match) => match[1]);
    assert.throws(
      () => parseRepoConfig(example.replace(/match: .*/, "match: '/[a/'")),
      (error) => error instanceof Error && error.message === message,
    );
  });

  test("every error the troubleshooting section names is one the source raises", () => {
    const named = [...section(page, "Troubleshooting").matchAll(/^### `([a-z0-9-]+)`$/gm)].map(
      (match) => match[1]!,
    );
    assert.ok(named.length >= 8);
    const raised = raisedCodes();
    assert.deepEqual(
      named.filter((code) => !raised.has(code)),
      [],
      "codes documented but never raised in src/",
    );
  });

  test("opens with a quick start: the secret, the copy or a release, the workflow, /agent fix", () => {
    const quick = section(page, "Quick start");
    const opening = quick.slice(0, quick.indexOf("\n### "));
    const words = opening.split(/\s+/).filter(Boolean).length;
    assert.ok(words <= 400, `the quick start is ${words} words: more than two minutes to read`);
    assert.ok(
      page.indexOf("\n## Quick start\n") === page.indexOf("\n## "),
      "it is the first section",
    );
    assert.match(opening, /`OPENAI_API_KEY`/);
    assert.match(opening, /npm run vendor -- \.\.\/your-repo/);
    assert.match(opening, /When pitcrew has a release.*`uses: OWNER\/pitcrew@v0`/s);
    assert.match(opening, /\[examples\/agent-fix\.yml\]\(examples\/agent-fix\.yml\)/);
    assert.match(opening, /```text\n\s*\/agent fix\n/);
    const script = read("scripts/vendor.mjs");
    assert.ok(script.includes(`VENDOR_PATH = "${VENDOR_PATH}"`), "the script writes elsewhere");
    assert.match(read("package.json"), /"vendor": "node scripts\/vendor\.mjs"/);
  });

  test("says the agent cannot change the vendored action, not even with allow-protected-changes", () => {
    const part = section(page, "Quick start").replace(/\s+/g, " ");
    assert.match(part, /The agent cannot change the action that runs it\./);
    assert.match(
      part,
      /when that is inside the checkout it stays protected even with `allow-protected-changes: true`/,
    );
  });

  test("the introduction names the three uses with their example workflows", () => {
    const introduction = page.slice(0, page.indexOf("\n## "));
    for (const file of ["agent-fix.yml", "ci-repair.yml", "flaky-triage.yml"]) {
      assert.ok(introduction.includes(`(examples/${file})`), file);
    }
    assert.doesNotMatch(introduction, /not available yet/i);
  });

  test("the flaky-triage section: its example is accepted, its table has each key and default", () => {
    const part = subsection(page, "Flaky-test triage: `flaky-triage`");
    const example = yamlBlocks(part)[0] ?? "";
    assert.ok(example.startsWith("# .github/pitcrew.yml\n"));
    const settings = parseRepoConfig(example)["flaky-triage"] ?? {};
    const d = FLAKY_TRIAGE_DEFAULTS;
    const defaults: Record<string, string> = {
      workflows: "none",
      "lookback-days": `\`${d.lookbackDays}\``,
      top: `\`${d.top}\``,
      reruns: `\`${d.reruns}\``,
      label: `\`${d.label}\``,
      quarantine: `\`${d.quarantine}\``,
    };
    const rows = tableRows(part);
    assert.deepEqual(rows.map(([key]) => unquote(key!)).sort(), Object.keys(settings).sort());
    for (const [key, shown] of rows) assert.equal(shown, defaults[unquote(key!)], key);
    assert.deepEqual(FLAKY_TRIAGE_DEFAULTS.workflows, []);
  });
});

describe("links and snippets in the pages", () => {
  const action = actionMetadata();

  for (const path of ["docs/action.md", "README.md"]) {
    test(`${path}: relative links reach a file and, with #, a heading`, () => {
      const text = read(path);
      const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
        .map((match) => match[1]!)
        .filter((target) => !/^[a-z]+:/.test(target));
      assert.ok(links.length > 0);
      for (const target of links) {
        const [file = "", hash] = target.split("#");
        const resolved = file === "" ? join(ROOT, path) : join(ROOT, dirname(path), file);
        assert.ok(existsSync(resolved), `${path} links to ${target}, which does not exist`);
        if (hash !== undefined) {
          const anchors = headingAnchors(readFileSync(resolved, "utf8"));
          assert.ok(anchors.has(hash), `${path} links to ${target}: no such heading`);
        }
      }
    });

    test(`${path}: every pitcrew step shown uses declared inputs and a secret key`, () => {
      const steps = yamlBlocks(read(path)).flatMap((block) => pitcrewSteps(parseYaml(block, path)));
      assert.ok(steps.length > 0, `${path} shows no pitcrew step`);
      for (const step of steps) {
        assert.match(String(step.with?.["api-key"]), /^\$\{\{ *secrets\.[A-Z0-9_]+ *\}\}$/);
        for (const key of Object.keys(step.with ?? {})) {
          assert.ok(key in action.inputs, `${path}: with: ${key} is not an input of action.yml`);
        }
      }
    });
  }
});
