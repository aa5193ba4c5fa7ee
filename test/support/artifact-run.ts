/**
 * One simulated workflow run for the artifact-store tests, as a process of its own: the
 * `@actions/artifact` client and `@actions/github` read the runner's environment when they load,
 * so each run gets its own (see runArtifactSteps). Reads `{ store, steps }` from the JSON file
 * named by argv[2], runs the steps in order through one store, writes the results and what the
 * store logged (`RunOutput`) to argv[3].
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createArtifactStore, type ArtifactStoreOptions } from "../../src/store/artifact.ts";
import { PitcrewError } from "../../src/errors.ts";
import type { Notes } from "../../src/domain/notes.ts";
import type { Restored } from "../../src/store/store.ts";

export type Step = { save: Notes } | { restore: string };

export type StepResult =
  { saved: true } | { restored: Restored } | { error: { code: string; message: string } };

export interface RunOutput {
  results: StepResult[];
  /** What the store logged, in order: `info: …` and `warning: …` lines. */
  logs: string[];
}

export interface RunJob {
  store: Omit<ArtifactStoreOptions, "log">;
  steps: Step[];
}

const [jobFile, resultFile] = process.argv.slice(2);
if (jobFile === undefined || resultFile === undefined) {
  throw new Error("usage: artifact-run.ts <job.json> <results.json>");
}
const job = JSON.parse(readFileSync(jobFile, "utf8")) as RunJob;
const logs: string[] = [];
const store = createArtifactStore({
  ...job.store,
  log: {
    info: (message) => void logs.push(`info: ${message}`),
    warning: (message) => void logs.push(`warning: ${message}`),
  },
});
const results: StepResult[] = [];
for (const step of job.steps) {
  try {
    if ("save" in step) {
      await store.save(step.save);
      results.push({ saved: true });
    } else {
      results.push({ restored: await store.restore(step.restore) });
    }
  } catch (error) {
    if (!(error instanceof PitcrewError)) throw error;
    results.push({ error: { code: error.code, message: error.message } });
  }
}
writeFileSync(resultFile, JSON.stringify({ results, logs } satisfies RunOutput));
