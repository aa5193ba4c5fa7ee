/**
 * One Run, for every entry: admission → notes → start messages → checkpoint → session → hand-over
 * → notes saved → report. The entry picks the ends (ports.ts); the order of the steps, the one fold
 * of the loop's events into the run's state, the continue prompt, and the rule that every way out —
 * done, a limit, a failure at any step, a refusal — saves the notes (once there are any) and reports
 * are written here once.
 */
import { loadShellParser } from "../agent/shell/parse.ts";
import { SYSTEM_PROMPT, branchLine, continuePrompt } from "../agent/prompt.ts";
import { runSession } from "../agent/session.ts";
import type { SessionResult } from "../domain/loop.ts";
import type { Message } from "../domain/messages.ts";
import type { Notes } from "../domain/notes.ts";
import { RUN_START, foldEvent, settle } from "../domain/run-state.ts";
import type { RunState } from "../domain/run-state.ts";
import { createCheckpoint } from "../store/checkpoint.ts";
import type { Checkpoint } from "../store/checkpoint.ts";
import { lastWords, threadTask } from "../store/transcript.ts";
import { DEFAULT_CONTEXT } from "../context/manager.ts";
import type { Brief, Handed, RequestPort, RunEnds, Workspace } from "./ports.ts";

/** What the steps have reached so far: whatever way the run ends, this is saved and reported. */
interface Reached<W> {
  workspace?: W;
  checkpoint?: Checkpoint;
  result?: SessionResult;
  state: RunState;
}

export async function runTask<W extends Workspace, O>(ends: RunEnds<W, O>): Promise<O> {
  const { admission, delivery, log } = ends;
  const reached: Reached<W> = { state: RUN_START };
  log.phase?.("preparing");
  let handed: Handed<O>;
  try {
    const refusal = await admission?.admit();
    if (refusal !== undefined && admission !== undefined) {
      log.phase?.(undefined);
      const outcome = admission.refused(refusal);
      await delivery.report(outcome, { state: reached.state, notes: undefined, result: undefined });
      return outcome;
    }
    handed = await work(ends, reached);
  } catch (error) {
    handed = await delivery.salvage(error, reached.workspace);
  }
  return finish(ends, reached, handed);
}

/** The steps from an admitted request to the work handed over. */
async function work<W extends Workspace, O>(
  ends: RunEnds<W, O>,
  reached: Reached<W>,
): Promise<Handed<O>> {
  const { request, notes, delivery, log } = ends;
  // The independent steps overlap: the first model request waits on the slowest of them (usually
  // a fetch), not on their sum. The shell parser's WebAssembly compiles meanwhile (memoised). All
  // of them settle before a failure is taken up, so a workspace opened beside it is still closed.
  const restoring = notes.restore();
  const [opened, restored, ...others] = await Promise.allSettled([
    ends.workspace.open(restoring),
    restoring,
    request.gather?.(),
    loadShellParser(),
    delivery.begin?.(),
  ]);
  if (opened.status === "fulfilled") reached.workspace = opened.value;
  if (restored.status === "rejected") throw restored.reason;
  if (opened.status === "rejected") throw opened.reason;
  for (const other of others) if (other.status === "rejected") throw other.reason;
  const workspace = opened.value;
  const earlier = restored.value;
  const [brief, namespaces] = await Promise.all([
    request.brief(workspace),
    ends.namespaces?.(workspace),
  ]);
  const system =
    namespaces === undefined ? SYSTEM_PROMPT : `${SYSTEM_PROMPT}\n\n${namespaces.prompt}`;
  const start: Message[] = [
    { role: "system", content: system },
    { role: "user", content: taskPrompt(request, brief.prompt, earlier) },
    // A message of its own, so the task stays the first user message (a continue quotes it).
    { role: "user", content: branchLine(workspace.branch) },
  ];
  const checkpoint = createCheckpoint({
    store: notes.store,
    localDir: notes.localDir,
    restored: earlier,
    place: {
      threadKey: request.threadKey,
      repository: workspace.repository,
      branch: workspace.branch,
      baseBranch: workspace.baseBranch,
      baseSha: workspace.baseSha,
    },
    start,
    context: contextOf(brief.session.window),
    log,
  });
  reached.checkpoint = checkpoint;

  // The session's own phase holds the sandbox's start; the loop's turns follow in it.
  log.phase?.("session");
  const result = await runSession({
    ...brief.session,
    virtual: namespaces?.files,
    workspace: workspace.path,
    messages: start,
    env: ends.env,
    signal: ends.signal,
    log,
    onEvent: (event) => {
      reached.state = foldEvent(reached.state, event);
      checkpoint.observe(event, reached.state);
      delivery.observe(event, reached.state);
    },
  });
  reached.result = result;
  reached.state = settle(reached.state, result);

  log.phase?.("delivery");
  return delivery.handOver(result, reached.state, workspace);
}

/** The window and compaction share the session runs with, as the transcript records them. */
function contextOf(window: Brief["session"]["window"]): { window: number; compactAt: number } {
  return {
    window: window?.window ?? DEFAULT_CONTEXT.window,
    compactAt: window?.compactAt ?? DEFAULT_CONTEXT.compactAt,
  };
}

/**
 * The continue prompt when the request goes on from notes that were restored; otherwise (and for a
 * continue with nothing restored) the fresh start's prompt, from the thread or the local task.
 */
function taskPrompt<W extends Workspace>(
  request: RequestPort<W>,
  fresh: string,
  earlier: Notes | undefined,
): string {
  if (request.continuing === undefined || earlier === undefined) return fresh;
  return continuePrompt({
    note: earlier.note,
    // The first run's prompt, which already quotes the thread and the repository's instructions.
    task: threadTask(earlier.transcript),
    instruction: request.continuing.instruction,
    previous: {
      summary: lastWords(earlier.transcript),
      todos: earlier.state.todos,
      stopReason: earlier.state.stopReason,
    },
    repositoryInstructions: request.continuing.repositoryInstructions,
  });
}

/** Every way out ends here: the notes saved (so the next run picks up), then the report. */
async function finish<W extends Workspace, O>(
  ends: RunEnds<W, O>,
  reached: Reached<W>,
  handed: Handed<O>,
): Promise<O> {
  const { log, notes } = ends;
  const { checkpoint, result, workspace } = reached;
  // Whichever phase ended the run, it ends here.
  log.phase?.(undefined);
  try {
    let saved: Notes | undefined;
    if (checkpoint !== undefined) {
      log.phase?.("notes");
      const stored = await checkpoint.finish({
        stopReason: result?.stopReason ?? null,
        headSha: handed.headSha,
        prNumber: handed.prNumber,
        messages: result?.messages,
        ledgers: handed.ledgers,
      });
      if (stored) notes.onSaved?.();
      saved = checkpoint.current();
      log.phase?.(undefined);
    }
    await ends.delivery.report(handed.outcome, { state: reached.state, notes: saved, result });
    return handed.outcome;
  } finally {
    if (workspace !== undefined) await ends.workspace.close?.(workspace);
  }
}
