/**
 * The scene of the CI-repair e2e tests and benchmark: the fixture repository with its CI workflow
 * committed, a failed run on the fake GitHub (its attempt, a job with a log in the runner's
 * format) and the `workflow_run` payload GitHub sends for it (from `@octokit/webhooks-examples`),
 * and the model's script that repairs the bug.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUGGY_LINE, FIXED_LINE, fixtureGit } from "../support/fixture-repo.ts";
import { REPO_ID } from "../support/github-server.ts";
import type { FakeRunSpec } from "../support/github-server.ts";
import { callTools, say } from "../support/model-server.ts";
import type { Turn } from "../support/model-server.ts";
import { workflowRunPayload } from "../support/payloads.ts";
import type { World } from "./harness.ts";
import { REQUESTER, args } from "./scenes.ts";

export const CI_PATH = ".github/workflows/ci.yml";
const CI_WORKFLOW = `name: CI
on: [push]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Run the tests
        run: node calc.test.js
`;

/** The repository with its CI workflow committed, as the failing commit has it. */
export function withWorkflow(repo: string): void {
  mkdirSync(join(repo, ".github", "workflows"), { recursive: true });
  writeFileSync(join(repo, CI_PATH), CI_WORKFLOW);
  fixtureGit(repo, "add", ".");
  fixtureGit(repo, "commit", "-q", "-m", "CI runs the tests");
}

/** A job log as the runner writes it: BOM, timestamps, groups, the runner's last word. */
function jobLog(lines: readonly string[]): string {
  const at = (second: number): string =>
    `2026-12-02T10:00:${String(second).padStart(2, "0")}.1234567Z`;
  const body = [
    "##[group]Run actions/checkout@v4",
    "with:",
    "  repository: Codertocat/Hello-World",
    "##[endgroup]",
    "Syncing repository: Codertocat/Hello-World",
    "##[group]Run node calc.test.js",
    "\u001b[36;1mnode calc.test.js\u001b[0m",
    "shell: /usr/bin/bash -e {0}",
    "##[endgroup]",
    ...lines,
    "##[error]Process completed with exit code 1.",
  ];
  return `\ufeff${body.map((line, index) => `${at(index)} ${line}`).join("\n")}\n`;
}

export const ASSERTION_FAILURE = [
  "node:assert:128",
  "  throw new AssertionError(obj);",
  "  ^",
  "",
  "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:",
  "",
  "-1 !== 5",
  "",
  "    at file:///home/runner/work/Hello-World/Hello-World/calc.test.js:3:8",
  "  code: 'ERR_ASSERTION',",
  "Node.js v24.11.0",
];

export const NETWORK_FAILURE = [
  "npm error code ENOTFOUND",
  "npm error network request to https://registry.npmjs.org/left-pad failed, reason: getaddrinfo ENOTFOUND registry.npmjs.org",
];

/** The failed run on the fake, at the branch's head, and the payload GitHub sends for it. */
export function failedRun(
  made: World,
  options: { id: number; branch?: string; log?: readonly string[]; headRepository?: string },
): { payload: unknown; sha: string } {
  const branch = options.branch ?? "main";
  const sha = fixtureGit(made.origin, "rev-parse", branch);
  const spec: FakeRunSpec = {
    id: options.id,
    path: CI_PATH,
    event: "push",
    headBranch: branch,
    headSha: sha,
    actor: REQUESTER.login,
    ...(options.headRepository === undefined ? {} : { headRepository: options.headRepository }),
    attempts: [
      {
        jobs: [
          {
            name: "test",
            conclusion: "failure",
            steps: [
              { name: "Set up job", conclusion: "success" },
              { name: "Run actions/checkout@v4", conclusion: "success" },
              { name: "Run the tests", conclusion: "failure" },
            ],
            log: jobLog(options.log ?? ASSERTION_FAILURE),
          },
        ],
      },
    ],
  };
  made.github.addRun(spec);
  const payload = workflowRunPayload({ branch, headRepository: options.headRepository }) as {
    repository: Record<string, unknown> & { owner: Record<string, unknown> };
    workflow_run: Record<string, unknown>;
  };
  const actor = {
    ...(payload.workflow_run.actor as object),
    login: REQUESTER.login,
    id: REQUESTER.id,
    type: "User",
  };
  Object.assign(payload.workflow_run, {
    id: options.id,
    name: "CI",
    path: CI_PATH,
    head_sha: sha,
    event: "push",
    actor,
    triggering_actor: actor,
    // When the run failed: now, as the fake's run was made.
    created_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
  });
  const fullName = `${made.github.owner}/${made.github.repo}`;
  if (options.headRepository === undefined) {
    Object.assign(payload.workflow_run.head_repository as Record<string, unknown>, {
      id: REPO_ID,
      full_name: fullName,
    });
  }
  Object.assign(payload.repository, {
    id: REPO_ID,
    name: made.github.repo,
    full_name: fullName,
    default_branch: "main",
    owner: { ...payload.repository.owner, login: made.github.owner },
  });
  return { payload, sha };
}

export const REPAIR: readonly Turn[] = [
  callTools([{ name: "bash", arguments: args({ command: "node calc.test.js" }) }]),
  callTools([
    {
      name: "edit",
      arguments: args({ path: "calc.js", old_string: BUGGY_LINE, new_string: FIXED_LINE }),
    },
  ]),
  callTools([{ name: "bash", arguments: args({ command: "node calc.test.js" }) }]),
  say("Make add() add again\nClass: code\n\nadd() subtracted; calc.test.js passes now."),
];
