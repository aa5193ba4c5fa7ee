/**
 * Durable execution for one run: the thread's notes kept current while the agent works. After
 * every turn the notes are written to a local folder (cheap, and what the action's `post:` step
 * uploads when the main step could not); after every compaction and at the end they are saved to
 * the store (the artifact). What the notes say of this run (todos, totals, the handoff note) is
 * read from the run's state (domain/run-state.ts); only the history is kept here, from the events.
 * Saves never fail the run: a failed save is a warning.
 */
import { rmSync, renameSync } from "node:fs";
import type { LoopEvent, StopReason } from "../domain/loop.ts";
import { ZERO_USAGE } from "../domain/usage.ts";
import type { Message } from "../domain/messages.ts";
import { RUN_START } from "../domain/run-state.ts";
import type { RunState } from "../domain/run-state.ts";
import { describeError } from "../errors.ts";
import { nextState, writeNotesFolder } from "./notes.ts";
import type { RunFacts } from "./notes.ts";
import type { Notes, RunStart } from "../domain/notes.ts";
import type { NotesStore } from "./store.ts";
import { messagesFromEvents, transcriptLines } from "./transcript.ts";

/** The thread's facts that do not change while the run goes on. */
export type RunPlace = Pick<
  RunFacts,
  "threadKey" | "repository" | "branch" | "baseBranch" | "baseSha"
>;

export interface CheckpointOptions {
  store: NotesStore;
  /** Where the newest notes are written after every turn (the action's post step uploads them);
   * none when the store is itself a local folder. */
  localDir?: string;
  /** What the thread's earlier runs left; undefined for its first run. */
  restored: Notes | undefined;
  place: RunPlace;
  /** The messages the run started from (system prompt, task). */
  start: readonly Message[];
  /** The model's window and the share of it at which compaction fires, for the report's chart. */
  context?: { window: number; compactAt: number };
  now?: () => Date;
  log: { warning(message: string): void };
}

export interface Checkpoint {
  /**
   * Feed every loop event with the run's state after it: turns are written locally, compactions
   * saved to the store.
   */
  observe(event: LoopEvent, state: RunState): void;
  /**
   * The final save of the run, resolving to whether the store took it; `messages` is the loop's
   * whole history when the loop returned. Null head and PR keep what is known.
   */
  finish(end: {
    stopReason: StopReason | null;
    headSha: string | null;
    prNumber: number | null;
    messages?: readonly Message[];
    /** Ledgers the run updated, by name (a CI repair's attempts); the rest are kept. */
    ledgers?: Record<string, unknown>;
  }): Promise<boolean>;
  /** The notes as they would be saved now. */
  current(): Notes;
}

export function createCheckpoint(options: CheckpointOptions): Checkpoint {
  const { restored, place, log } = options;
  const events: LoopEvent[] = [];
  let run: RunState = RUN_START;
  let headSha = restored?.state.headSha ?? null;
  let prNumber = restored?.state.prNumber ?? null;
  /** Store saves run one after another; the newest notes are always the ones saved last. */
  let saving: Promise<boolean> = Promise.resolve(true);
  const attempt = (restored?.state.attempts ?? 0) + 1;

  let ledgers: Record<string, unknown> | undefined;

  const now = options.now ?? (() => new Date());
  const started = now().toISOString();
  const runStart = (): RunStart | undefined =>
    options.context === undefined
      ? undefined
      : {
          type: "run",
          run: attempt,
          at: started,
          threadKey: place.threadKey,
          repository: place.repository,
          branch: place.branch,
          ...options.context,
        };

  const build = (
    stopReason: StopReason | null,
    messages?: readonly Message[],
    ended = false,
  ): Notes => {
    const state = nextState(restored?.state, {
      ...place,
      headSha,
      prNumber,
      ...(run.totals ?? { turns: 0, usage: ZERO_USAGE, cost: 0 }),
      // A run that set no list leaves the one it restored.
      todos: [...(run.todos ?? restored?.state.todos ?? [])],
      stopReason,
      ledgers,
    });
    const history = messages ?? messagesFromEvents(options.start, events);
    const transcript =
      (restored?.transcript ?? "") +
      transcriptLines(attempt, history, run.perTurn, {
        start: runStart(),
        events,
        end: ended ? { at: now().toISOString(), stopReason } : undefined,
      });
    return { note: run.note ?? restored?.note ?? "", state, transcript };
  };

  /** Written beside and renamed over, so the post step never reads half a folder. */
  const writeLocal = (notes: Notes): void => {
    const { localDir } = options;
    if (localDir === undefined) return;
    const fresh = `${localDir}.new`;
    try {
      rmSync(fresh, { recursive: true, force: true });
      writeNotesFolder(fresh, notes);
      rmSync(localDir, { recursive: true, force: true });
      renameSync(fresh, localDir);
    } catch (error) {
      log.warning(`Could not keep a local copy of the notes: ${describeError(error)}`);
    }
  };

  const save = (notes: Notes): Promise<boolean> => {
    writeLocal(notes);
    saving = saving.then(async () => {
      try {
        await options.store.save(notes);
        return true;
      } catch (error) {
        log.warning(`The handoff notes were not saved: ${describeError(error)}`);
        return false;
      }
    });
    return saving;
  };

  return {
    observe(event, state) {
      events.push(event);
      run = state;
      if (event.type === "usage") writeLocal(build(null));
      if (event.type === "compaction") void save(build(null));
    },
    async finish(end) {
      headSha = end.headSha ?? headSha;
      prNumber = end.prNumber ?? prNumber;
      ledgers = end.ledgers ?? ledgers;
      return save(build(end.stopReason, end.messages, true));
    },
    current: () => build(null),
  };
}
