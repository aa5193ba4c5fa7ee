/**
 * The proof's step (src/ci/proof-step.ts): the failing step of a job read from a workflow file as
 * the sandbox can run it — the script, the shell as the runner has it, the working directory and
 * the plain environment — or, for each thing the sandbox cannot do offline, why not.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { proofArgv, proofStep } from "../../src/ci/proof-step.ts";
import type { ProofStep } from "../../src/domain/ci.ts";

const WORKFLOW = `name: CI
on: [push, pull_request]
env:
  CI_MODE: strict
defaults:
  run:
    working-directory: ./app
jobs:
  test:
    name: unit tests
    runs-on: ubuntu-latest
    env:
      TOKEN: \${{ secrets.NPM_TOKEN }}
      NODE_ENV: test
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with: { node-version: 24 }
      - run: npm ci
      - name: Run the tests
        run: |
          npm test
          npm run lint
  matrix:
    strategy: { matrix: { node: [20, 24] } }
    runs-on: ubuntu-latest
    steps:
      - run: node --version && npm test -- --node \${{ matrix.node }}
  secretive:
    runs-on: ubuntu-latest
    steps:
      - run: 'curl -H "Authorization: \${{ secrets.DEPLOY }}" https://example.com'
  uses-token:
    runs-on: ubuntu-latest
    env:
      TOKEN: \${{ secrets.NPM_TOKEN }}
    steps:
      - run: npm publish --token "$TOKEN"
  with-services:
    runs-on: ubuntu-latest
    services:
      postgres: { image: postgres }
    steps:
      - run: npm test
  pwsh:
    runs-on: windows-latest
    steps:
      - shell: pwsh
        run: Get-ChildItem
  plain-sh:
    runs-on: ubuntu-latest
    defaults: { run: { shell: sh, working-directory: . } }
    steps:
      - run: make check
`;

const runnable = (step: ProofStep): Extract<ProofStep, { runnable: true }> => {
  assert.ok(step.runnable, step.runnable ? "" : step.why);
  return step;
};

describe("proofStep", () => {
  test("a run: step by its name: the script, the runner's bash, the folder, the plain env", () => {
    const step = runnable(
      proofStep(WORKFLOW, "unit tests", {
        name: "Run the tests",
        number: 5,
        conclusion: "failure",
      }),
    );
    assert.equal(step.script, "npm test\nnpm run lint\n");
    assert.equal(step.shell, "bash --noprofile --norc -eo pipefail {0}");
    assert.equal(step.workingDirectory, "app");
    assert.deepEqual(
      step.env,
      { CI_MODE: "strict", NODE_ENV: "test" },
      "TOKEN, a secret, left out",
    );
    assert.deepEqual(proofArgv(step), [
      "bash",
      "--noprofile",
      "--norc",
      "-eo",
      "pipefail",
      "-c",
      "npm test\nnpm run lint\n",
    ]);
  });

  test("an unnamed run: step by the name the jobs API gives it, or by its number", () => {
    const byName = runnable(
      proofStep(WORKFLOW, "unit tests", { name: "Run npm ci", number: 99, conclusion: "failure" }),
    );
    assert.equal(byName.script, "npm ci");
    const byNumber = runnable(
      proofStep(WORKFLOW, "unit tests", { name: "renamed", number: 4, conclusion: "failure" }),
    );
    assert.equal(byNumber.script, "npm ci", "number 1 is Set up job; the workflow's steps follow");
  });

  test("sh from the job's defaults, the checkout's root as its folder", () => {
    const step = runnable(
      proofStep(WORKFLOW, "plain-sh", { name: "Run make check", number: 2, conclusion: "failure" }),
    );
    assert.equal(step.workingDirectory, "");
    assert.deepEqual(proofArgv(step), ["sh", "-e", "-c", "make check"]);
  });

  const refused: [string, string, string, RegExp][] = [
    [
      "an action",
      "unit tests",
      "Run actions/setup-node@v4",
      /runs an action \(actions\/setup-node@v4\)/,
    ],
    [
      "a matrix expression",
      "matrix (20)",
      "Run node --version && npm test -- --node ${{ matrix.node }}",
      /\$\{\{ matrix\.node \}\}, an expression only the runner can evaluate/,
    ],
    [
      "a secret in the script",
      "secretive",
      'Run curl -H "Authorization: ${{ secrets.DEPLOY }}" https://example.com',
      /uses a secret, which the sandbox never has/,
    ],
    [
      "an env var set from a secret and used",
      "uses-token",
      'Run npm publish --token "$TOKEN"',
      /needs TOKEN, set from an expression/,
    ],
    ["services", "with-services", "Run npm test", /starts services/],
    ["another shell", "pwsh", "Run Get-ChildItem", /its shell \(pwsh\) is not one the proof runs/],
    ["no such job", "deploy", "Run x", /no job named deploy/],
  ];
  for (const [what, job, name, why] of refused) {
    test(`not runnable offline: ${what}, and why`, () => {
      const step = proofStep(WORKFLOW, job, { name, number: 2, conclusion: "failure" });
      assert.equal(step.runnable, false);
      assert.match(step.runnable ? "" : step.why, why);
    });
  }

  test("a workflow that is not YAML is refused by name, not thrown", () => {
    const step = proofStep("jobs: [unclosed", "test", {
      name: "x",
      number: 2,
      conclusion: "failure",
    });
    assert.equal(step.runnable, false);
    assert.match(step.runnable ? "" : step.why, /not YAML pitcrew can read/);
  });
});
