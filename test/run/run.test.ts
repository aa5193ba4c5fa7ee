/**
 * The Run (src/run/run.ts) with fake ends, a real session (bwrap, the scripted model server) and
 * the real local notes store: the order of its steps; the continue prompt built from restored
 * notes; a refusal that ends before anything is touched; and a failure at each step that still
 * saves the notes (once a checkpoint exists), salvages, reports and closes the workspace — nothing
 * lost.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { createModelClient } from "../../src/agent/model.ts";
import type { Notes } from "../../src/domain/notes.ts";
import { PitcrewError } from "../../src/errors.ts";
import type { RunEnds, RunRecord, Workspace } from "../../src/run/ports.ts";
import { runTask } from "../../src/run/run.ts";
import { DEFAULT_SETTINGS } from "../../src/sandbox/policy.ts";
import { createLocalStore } from "../../src/store/local.ts";
import { needsBwrap } from "../support/bwrap.ts";
import { createFixtureRepo } from "../support/fixture-repo.ts";
import type { FixtureRepo } from "../support/fixture-repo.ts";
import { callTools, say, startModelServer } from "../support/model-server.ts";
import type { ModelServer, Turn } from "../support/model-server.ts";

type Outcome = { kind: "delivered"; summary: string } | { kind: "salvaged"; error: string };

/** The steps a run can fail at, each named by the fake end that fails it. */
const STEPS = ["admit", "restore", "open", "gather", "begin", "brief", "session", "handOver"];

interface Recorded {
  steps: string[];
  reports: { outcome: Outcome; record: RunRecord }[];
  notesRoot: string;
}

let fixture: FixtureRepo;
let base: string;
before(() => {
  fixture = createFixtureRepo("run");
  base = mkdtempSync(join(tmpdir(), "pitcrew-run-notes-"));
});
after(() => {
  rmSync(fixture.root, { recursive: true, force: true });
  rmSync(base, { recursive: true, force: true });
});
let stores = 0;

/** Fake ends around a real session; `failAt` makes that step throw, `refuse` refuses the request. */
function fakeEnds(
  server: ModelServer,
  options: { failAt?: string; refuse?: string; earlier?: Notes; continuing?: boolean } = {},
): { ends: RunEnds<Workspace, Outcome>; recorded: Recorded } {
  const recorded: Recorded = { steps: [], reports: [], notesRoot: join(base, `s-${++stores}`) };
  const store = createLocalStore(recorded.notesRoot);
  const step = async <T>(name: string, value: T): Promise<T> => {
    recorded.steps.push(name);
    await Promise.resolve();
    if (options.failAt === name) throw new PitcrewError("test-step-failed", `${name} failed`);
    return value;
  };
  const workspace: Workspace = {
    path: options.failAt === "session" ? join(fixture.root, "no-such-folder") : fixture.repo,
    branch: "pitcrew/test",
    baseBranch: "main",
    baseSha: "a".repeat(40),
    repository: "local/test",
  };
  const ends: RunEnds<Workspace, Outcome> = {
    admission: {
      admit: () => step("admit", options.refuse),
      refused: (reason) => ({ kind: "salvaged", error: `refused: ${reason}` }),
    },
    request: {
      threadKey: "issue-9",
      continuing: options.continuing ? { instruction: "now the docs" } : undefined,
      gather: () => step("gather", undefined),
      brief: () =>
        step("brief", {
          prompt: "Fix add() in calc.js.",
          session: {
            sandbox: { ...DEFAULT_SETTINGS, backend: "bwrap", homeReadOnly: [], timeoutMs: 20_000 },
            model: createModelClient({ apiKey: "sk-test", model: "gpt-4.1", baseUrl: server.url }),
            limits: { maxTurns: 5 },
            promptCacheKey: "pitcrew-run-test",
          },
        }),
    },
    workspace: {
      open: async (earlier) => {
        await earlier;
        return step("open", workspace);
      },
      close: async () => void (await step("close", undefined)),
    },
    notes: {
      store,
      restore: () => step("restore", options.earlier),
      onSaved: () => void recorded.steps.push("notes saved"),
    },
    delivery: {
      begin: () => step("begin", undefined),
      observe: (event) => {
        if (recorded.steps.at(-1) !== "observe") recorded.steps.push("observe");
        if (event.type === "stop") recorded.steps.push(`stop: ${event.reason}`);
      },
      handOver: (result) =>
        step("handOver", {
          outcome: { kind: "delivered", summary: result.summary },
          headSha: "b".repeat(40),
          prNumber: 12,
        }),
      salvage: (error) => {
        recorded.steps.push("salvage");
        const message = error instanceof Error ? error.message : String(error);
        return Promise.resolve({
          outcome: { kind: "salvaged", error: message },
          headSha: null,
          prNumber: null,
        });
      },
      report: (outcome, record) => {
        recorded.steps.push("report");
        recorded.reports.push({ outcome, record });
        return Promise.resolve();
      },
    },
    log: {
      info: () => undefined,
      warning: () => undefined,
      phase: (phase) => void recorded.steps.push(`phase: ${phase ?? "end"}`),
    },
    env: { HOME: fixture.home, PATH: process.env.PATH },
    signal: new AbortController().signal,
  };
  return { ends, recorded };
}

const SCRIPT: Turn[] = [
  callTools([{ name: "bash", arguments: JSON.stringify({ command: "printf ok" }) }]),
  say("Fixed add()."),
];

describe("runTask", needsBwrap(), () => {
  test("the steps in order: admit, prepare together, brief, session, hand-over, notes, report, close", async () => {
    const server = await startModelServer(SCRIPT);
    try {
      const { ends, recorded } = fakeEnds(server);
      const outcome = await runTask(ends);
      assert.deepEqual(outcome, { kind: "delivered", summary: "Fixed add()." });
      const prepared = recorded.steps.slice(2, 6);
      assert.deepEqual(
        [...prepared].sort(),
        ["begin", "gather", "open", "restore"],
        "restore, open, gather and begin run together",
      );
      assert.deepEqual(
        [...recorded.steps.slice(0, 2), ...recorded.steps.slice(6)],
        [
          "phase: preparing",
          "admit",
          "brief",
          "phase: session",
          "observe",
          "stop: done",
          "phase: delivery",
          "handOver",
          "phase: end",
          "phase: notes",
          "notes saved",
          "phase: end",
          "report",
          "close",
        ],
      );
      const [report] = recorded.reports;
      assert.equal(report?.record.result?.stopReason, "done");
      assert.deepEqual(
        report?.record.state.tally.map(({ name, calls }) => [name, calls]),
        [["bash", 1]],
      );
      assert.equal(report?.record.state.activity, undefined, "settled once the session returned");
      const saved = await createLocalStore(recorded.notesRoot).restore("issue-9");
      assert.ok(saved.found);
      assert.equal(saved.notes.state.stopReason, "done");
      assert.equal(saved.notes.state.headSha, "b".repeat(40), "the head the delivery handed over");
      assert.equal(saved.notes.state.prNumber, 12);
      assert.deepEqual(report?.record.notes?.state.cumulative, saved.notes.state.cumulative);
    } finally {
      await server.close();
    }
  });

  test("a continue with restored notes starts from the continue prompt, built once", async () => {
    const first = await startModelServer([say("Half done.")]);
    let earlier: Notes;
    try {
      const { ends, recorded } = fakeEnds(first);
      await runTask(ends);
      const restored = await createLocalStore(recorded.notesRoot).restore("issue-9");
      assert.ok(restored.found);
      earlier = restored.notes;
    } finally {
      await first.close();
    }
    const second = await startModelServer([say("All done.")]);
    try {
      const { ends } = fakeEnds(second, { earlier, continuing: true });
      await runTask(ends);
      const task = second.requests[0]?.body.messages[1]?.content;
      assert.equal(typeof task, "string");
      assert.match(String(task), /^You are continuing work an earlier pitcrew run started/);
      assert.match(String(task), /The task, as first given:\n\nFix add\(\) in calc\.js\./);
      assert.match(String(task), /What to do now, from the person who asked:\n\nnow the docs/);
      assert.doesNotMatch(String(task), /You are on the branch/, "the first run's task, as it was");
      assert.equal(
        second.requests[0]?.body.messages[2]?.content,
        "You are on the branch pitcrew/test: the harness commits your changes to it when you finish.",
        "the branch, said once in the start messages",
      );
    } finally {
      await second.close();
    }
  });

  test("a refusal ends the run at once: reported, nothing opened, no notes", async () => {
    const server = await startModelServer(SCRIPT);
    try {
      const { ends, recorded } = fakeEnds(server, { refuse: "no write access" });
      const outcome = await runTask(ends);
      assert.deepEqual(outcome, { kind: "salvaged", error: "refused: no write access" });
      assert.deepEqual(recorded.steps, ["phase: preparing", "admit", "phase: end", "report"]);
      assert.equal(server.requests.length, 0);
      assert.equal((await createLocalStore(recorded.notesRoot).restore("issue-9")).found, false);
    } finally {
      await server.close();
    }
  });

  for (const failAt of STEPS) {
    test(`a failure at ${failAt}: salvaged and reported; notes saved once a checkpoint exists`, async () => {
      const server = await startModelServer(SCRIPT);
      try {
        const { ends, recorded } = fakeEnds(server, { failAt });
        const outcome = await runTask(ends);
        assert.equal(outcome.kind, "salvaged");
        assert.ok(recorded.steps.includes("salvage"), recorded.steps.join(", "));
        assert.equal(recorded.steps.filter((step) => step === "report").length, 1);
        const checkpointed = failAt === "session" || failAt === "handOver";
        const saved = await createLocalStore(recorded.notesRoot).restore("issue-9");
        assert.equal(saved.found, checkpointed, "notes are saved once the checkpoint exists");
        if (saved.found) {
          assert.equal(saved.notes.state.headSha, null, "a salvage that pushed nothing");
          assert.equal(
            saved.notes.state.stopReason,
            failAt === "handOver" ? "done" : null,
            "the session's own stop when it returned",
          );
        }
        // The workspace, once open, is closed whatever happened.
        const opened = recorded.steps.includes("open") && failAt !== "open";
        assert.equal(recorded.steps.at(-1), opened ? "close" : "report");
      } finally {
        await server.close();
      }
    });
  }
});
