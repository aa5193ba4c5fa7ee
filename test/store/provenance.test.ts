/**
 * Which runs' notes are pitcrew's own: the decision on a workflow run's fields, one reason per
 * way a run can fail it, and the workflow file read off GITHUB_WORKFLOW_REF and a run's `path`.
 * (The lookup against GitHub, with the real client, is in artifact.test.ts.)
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { distrust, workflowPathOf, type MadeBy } from "../../src/store/provenance.ts";
import { ACTED_ON_EVENTS } from "../../src/triggers/event.ts";

const EXPECTED = { workflowPath: ".github/workflows/pitcrew.yml", repositoryId: 186853002 };
const OURS: MadeBy = {
  path: ".github/workflows/pitcrew.yml",
  event: "issue_comment",
  head_repository: { id: 186853002, full_name: "Codertocat/Hello-World" },
};

describe("distrust", () => {
  test("a run of this workflow file, on an event pitcrew acts on, with this repository's code: trusted", () => {
    for (const event of ACTED_ON_EVENTS)
      assert.equal(distrust({ ...OURS, event }, EXPECTED), undefined);
    assert.equal(distrust({ ...OURS, path: `${OURS.path}@refs/heads/main` }, EXPECTED), undefined);
  });

  test("another workflow file of the repository: named", () => {
    assert.equal(
      distrust({ ...OURS, path: ".github/workflows/ci.yml" }, EXPECTED),
      "its run ran the workflow .github/workflows/ci.yml, not .github/workflows/pitcrew.yml",
    );
    // A file of the same name elsewhere is another file.
    assert.match(
      distrust({ ...OURS, path: "other/.github/workflows/pitcrew.yml" }, EXPECTED) ?? "",
      /^its run ran the workflow other\//,
    );
  });

  test("an event pitcrew does not act on (a fork's pull_request, pull_request_target, push): named", () => {
    for (const event of ["pull_request", "pull_request_target", "push"]) {
      assert.equal(
        distrust({ ...OURS, event }, EXPECTED),
        `its run was triggered by ${event}; pitcrew acts only on issue_comment, workflow_dispatch, workflow_run and schedule`,
      );
    }
    // A CI repair's own run (a workflow_run event of this repository's workflow file) is ours, and
    // so is a scheduled triage's.
    assert.equal(distrust({ ...OURS, event: "workflow_run" }, EXPECTED), undefined);
    assert.equal(distrust({ ...OURS, event: "schedule" }, EXPECTED), undefined);
  });

  test("code from a fork, or from no named repository: named", () => {
    assert.equal(
      distrust(
        { ...OURS, head_repository: { id: 42, full_name: "attacker/Hello-World" } },
        EXPECTED,
      ),
      "its run's code came from attacker/Hello-World (repository 42), not from this repository (186853002)",
    );
    assert.equal(
      distrust({ ...OURS, head_repository: null }, EXPECTED),
      "its run names no head repository",
    );
  });
});

describe("workflowPathOf", () => {
  test("GITHUB_WORKFLOW_REF loses owner/repo and the ref; a run's path loses the ref", () => {
    assert.equal(
      workflowPathOf("octo-org/octo-repo/.github/workflows/pitcrew.yml@refs/heads/main", true),
      ".github/workflows/pitcrew.yml",
    );
    assert.equal(
      workflowPathOf("o/r/.github/workflows/a@b.yml@refs/pull/1/merge", true),
      ".github/workflows/a@b.yml",
    );
    assert.equal(
      workflowPathOf(".github/workflows/pitcrew.yml", false),
      ".github/workflows/pitcrew.yml",
    );
    assert.equal(workflowPathOf("owner/repo@refs/heads/main", true), undefined);
  });
});
