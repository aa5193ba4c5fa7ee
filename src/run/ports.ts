/**
 * The ends a Run is given. The Run (run.ts) is the same for every entry — notes, start messages,
 * checkpoint, session, result — and each entry picks its ends: where the agent works (workspace),
 * what was asked (request), where the notes live (notes), who may ask (admission, optional), and
 * how the work is handed over and reported (delivery). The ends live in ends/ (action-*.ts: picked
 * by src/work.ts; local-*.ts: picked by src/commands/run.ts); CI repair and flaky triage add ends
 * of their own, not pipelines.
 */
import type { SessionOptions } from "../agent/session.ts";
import type { LoopEvent, SessionResult } from "../domain/loop.ts";
import type { VirtualFiles } from "../domain/memory.ts";
import type { Notes } from "../domain/notes.ts";
import type { RunState } from "../domain/run-state.ts";
import type { NotesStore } from "../store/store.ts";

/** Where the agent works, once it is ready: the checkout, and the branch its work lands on. */
export interface Workspace {
  path: string;
  branch: string;
  baseBranch: string;
  baseSha: string;
  /** `owner/repo` on GitHub, `local/<folder>` for the CLI. */
  repository: string;
}

export interface WorkspacePort<W extends Workspace> {
  /**
   * Makes the workspace ready (the thread's branch in the runner's checkout | a worktree on a new
   * branch). `earlier`: the thread's notes, for an end that starts where they left off.
   */
  open(earlier: Promise<Notes | undefined>): Promise<W>;
  /** Once the run is over, whatever happened (the CLI removes its worktree). */
  close?(workspace: W): Promise<void>;
}

/** How the session runs: the sandbox, the model, the limits, the repository's rules. */
export type SessionSettings = Pick<
  SessionOptions,
  | "sandbox"
  | "model"
  | "limits"
  | "window"
  | "deny"
  | "promptCacheKey"
  | "onSandbox"
  | "checkDone"
  | "tools"
>;

/** What a fresh start needs, known once the workspace is ready. */
export interface Brief {
  /** The first user message of a fresh start (the thread quoted | the local task). */
  prompt: string;
  session: SessionSettings;
}

export interface RequestPort<W extends Workspace> {
  /** The thread the run belongs to: its notes, its branch's history. */
  threadKey: string;
  /** Set when the request is to go on from the thread's notes: what to do now, if anything. */
  continuing?: { instruction?: string; repositoryInstructions?: string };
  /** What the prompt quotes, fetched while the workspace is made ready (the action: the thread). */
  gather?(): Promise<unknown>;
  brief(workspace: W): Promise<Brief>;
}

export interface NotesPort {
  store: NotesStore;
  /** Where the newest notes are written after every turn (the action's post step uploads them). */
  localDir?: string;
  /** The thread's earlier notes, when this run starts from them; undefined to start fresh. */
  restore(): Promise<Notes | undefined>;
  /** Called once the run's final notes are in the store. */
  onSaved?(): void;
}

/** Who may ask, and what a refusal looks like; the run ends there, before anything changes. */
export interface AdmissionPort<O> {
  /** The refusal's sentence, or undefined when the request may go ahead. */
  admit(): Promise<string | undefined>;
  refused(reason: string): O;
}

/** What the delivery leaves for the notes: the outcome, and the head and PR to record. */
export interface Handed<O> {
  outcome: O;
  headSha: string | null;
  prNumber: number | null;
  /** Ledgers the delivery updated (a CI repair's attempts), saved with the notes. */
  ledgers?: Record<string, unknown>;
}

/** What the report reads: the run's state, the notes as saved, the session's result if any. */
export interface RunRecord {
  state: RunState;
  notes: Notes | undefined;
  result: SessionResult | undefined;
}

export interface DeliveryPort<W extends Workspace, O> {
  /** The run has been admitted (the action creates its progress comment). */
  begin?(): Promise<void>;
  /** Each loop event, with the run's state after it (comment edits, log groups, terminal lines). */
  observe(event: LoopEvent, state: RunState): void;
  /** After the session: push and open the PR | commit on the run's branch. */
  handOver(result: SessionResult, state: RunState, workspace: W): Promise<Handed<O>>;
  /**
   * After a failure at any step: keeps what can be kept (the CLI commits what exists) and names
   * the ending. Never throws.
   */
  salvage(error: unknown, workspace: W | undefined): Promise<Handed<O>>;
  /** Tells people how the run ended, once the notes are saved (comment, summary | printed account). */
  report(outcome: O, record: RunRecord): Promise<void>;
}

/** The phases of a run, which the action's log folds into groups. */
export type RunPhase = "preparing" | "session" | "delivery" | "notes";

export interface RunLog {
  info(message: string): void;
  warning(message: string): void;
  /** A phase begins (undefined: the current one ends). */
  phase?(phase: RunPhase | undefined): void;
}

/** The memory and skills namespaces a session reads and writes, and what the system prompt says of them. */
export interface Namespaces {
  files: VirtualFiles;
  /** Appended to the system prompt: the skills and memory files there are, and how to use them. */
  prompt: string;
}

export interface RunEnds<W extends Workspace, O> {
  admission?: AdmissionPort<O>;
  /** Opens the namespaces once the workspace is ready (its base commit holds the skills). */
  namespaces?: (workspace: W) => Promise<Namespaces>;
  request: RequestPort<W>;
  workspace: WorkspacePort<W>;
  notes: NotesPort;
  delivery: DeliveryPort<W, O>;
  log: RunLog;
  /** The harness's environment, from which the sandbox's is allowlisted. */
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
}
