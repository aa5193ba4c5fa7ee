/** action.yml's contract: the inputs pitcrew reads, the outputs it sets, and "not set" kept visible. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { parse } from "yaml";
import { DEFAULTS } from "../../src/config/config.ts";
import { readInputs } from "../../src/config/inputs.ts";

interface ActionYml {
  name: string;
  description: string;
  branding: { icon: string; color: string };
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string }>;
  runs: { using: string; main: string; post?: string; "post-if"?: string };
}

const action = parse(
  readFileSync(new URL("../../action.yml", import.meta.url), "utf8"),
) as ActionYml;

const INPUTS = [
  "api-key",
  "base-url",
  "model",
  "github-token",
  "notes-key",
  "trigger-phrase",
  "max-turns",
  "time-budget",
  "cost-budget",
  "token-budget",
  "context-window",
  "sandbox",
  "command-timeout",
  "disk-reserve",
  "allowed-bots",
  "branch-prefix",
  "draft",
  "allow-workflow-changes",
  "retention-days",
  "notes-store",
];

/** The inputs .github/pitcrew.yml may also set. */
const ALSO_IN_FILE = [
  "max-turns",
  "time-budget",
  "cost-budget",
  "token-budget",
  "branch-prefix",
  "draft",
  "allow-workflow-changes",
  "retention-days",
];

const CONCLUSIONS = ["success", "stopped", "no-changes", "failure", "refused", "skipped"];

describe("action.yml", () => {
  test("declares exactly the inputs readInputs reads", () => {
    const asked: string[] = [];
    readInputs((name) => {
      asked.push(name);
      return "";
    });
    assert.deepEqual(asked.toSorted(), INPUTS.toSorted());
    assert.deepEqual(Object.keys(action.inputs).toSorted(), INPUTS.toSorted());
  });

  test("inputs the repository file may set have no default, so 'not set' reaches pitcrew", () => {
    for (const input of ALSO_IN_FILE) {
      assert.equal(action.inputs[input]?.default, undefined, input);
      assert.match(action.inputs[input]?.description ?? "", /\.github\/pitcrew\.yml/, input);
    }
  });

  test("only the token has a default (an expression only the runner can fill in)", () => {
    const withDefault = Object.keys(action.inputs).filter(
      (input) => action.inputs[input]?.default !== undefined,
    );
    assert.deepEqual(withDefault, ["github-token"]);
    assert.equal(action.inputs["github-token"]?.default, "${{ github.token }}");
  });

  test("every description says the default (or that the input is required)", () => {
    for (const [input, spec] of Object.entries(action.inputs)) {
      assert.match(spec.description, /Default|Required/, input);
    }
    const says = (input: string, value: string | number | boolean): void =>
      assert.ok(action.inputs[input]?.description.includes(`Default ${value}`), input);
    says("model", DEFAULTS.model);
    says("trigger-phrase", DEFAULTS.triggerPhrase);
    says("max-turns", DEFAULTS.maxTurns);
    says("time-budget", DEFAULTS.timeBudgetMinutes);
    says("cost-budget", DEFAULTS.costBudget);
    says("context-window", DEFAULTS.contextWindow);
    says("command-timeout", DEFAULTS.commandTimeoutSeconds);
    says("disk-reserve", DEFAULTS.diskReserveMiB);
    says("branch-prefix", DEFAULTS.branchPrefix);
    says("draft", DEFAULTS.draft);
    says("allow-workflow-changes", DEFAULTS.allowWorkflowChanges);
    says("retention-days", DEFAULTS.retentionDays);
    says("notes-store", DEFAULTS.notesStore);
    says("sandbox", "auto");
  });

  test("the outputs, and every conclusion described", () => {
    assert.deepEqual(Object.keys(action.outputs), [
      "pr-url",
      "pr-number",
      "pull-request-operation",
      "branch",
      "conclusion",
      "turns",
      "tokens",
      "cost",
    ]);
    for (const conclusion of CONCLUSIONS) {
      assert.match(action.outputs.conclusion?.description ?? "", new RegExp(`${conclusion}: `));
    }
    for (const operation of ["created", "updated", "none"]) {
      assert.match(
        action.outputs["pull-request-operation"]?.description ?? "",
        new RegExp(`${operation}: `),
      );
    }
  });

  test("runs the bundle on Node 24, with its name and branding, and a post step that always runs", () => {
    assert.deepEqual(action.runs, {
      using: "node24",
      main: "dist/index.js",
      post: "dist/post.js",
      "post-if": "always()",
    });
    assert.equal(action.name, "pitcrew");
    assert.deepEqual(action.branding, { icon: "tool", color: "orange" });
  });
});
