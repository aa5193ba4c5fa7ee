/**
 * The progress comment: one comment on the thread, created when the work starts and edited in
 * place as the agent works and when it ends, so the people watching see the plan, the current step,
 * the cost, and at the end a truthful account (also of a stop, a failure or a refusal). The comment
 * is a view of the run, not the run: a GitHub call failing here is a warning, never a failed run.
 * Its Markdown is present/comment.ts's.
 */
import type { FinalState, ProgressState } from "../domain/ending.ts";
import { describeError } from "../errors.ts";
import { renderProgress } from "../present/comment.ts";
import type { GitHubApi } from "./api.ts";

export interface ProgressComment {
  /** Creates the comment (once). */
  start(state: ProgressState): Promise<void>;
  /** Shows a newer state: at most one edit per interval, and the newest state always lands. */
  update(state: ProgressState): void;
  /** Shows the final state at once and waits for it; later updates are ignored. */
  finish(state: FinalState): Promise<void>;
  /** The comment's id, once it exists. */
  readonly commentId: number | undefined;
}

export interface ProgressCommentOptions {
  api: Pick<GitHubApi, "createComment" | "updateComment">;
  /** The issue or PR to comment on; none for a dispatched task, and then nothing is posted. */
  issueNumber: number | undefined;
  log: { warning(message: string): void };
  minIntervalMs?: number;
  now?: () => number;
}

// ---- The comment on GitHub --------------------------------------------------------------------

/**
 * The progress comment of one run. Edits are throttled by coalescing, not queued: while one is
 * waiting for its turn, a newer state replaces it, so a busy agent costs one edit per interval and
 * the comment always ends on the newest state.
 */
export function createProgressComment(options: ProgressCommentOptions): ProgressComment {
  const { api, issueNumber, log } = options;
  const interval = options.minIntervalMs ?? 3000;
  const now = options.now ?? Date.now;
  let commentId: number | undefined;
  let lastEditAt = -Infinity;
  let pending: ProgressState | undefined;
  let timer: NodeJS.Timeout | undefined;
  let editing: Promise<void> | undefined;
  let creating: Promise<void> | undefined;
  let finished = false;

  const warn = (what: string, error: unknown): void =>
    log.warning(`Could not ${what} the progress comment: ${describeError(error)}`);

  const create = async (state: ProgressState): Promise<void> => {
    if (issueNumber === undefined) return;
    try {
      commentId = (await api.createComment(issueNumber, renderProgress(state))).id;
      lastEditAt = now();
    } catch (error) {
      warn("create", error);
    }
  };

  const edit = async (id: number, state: ProgressState): Promise<void> => {
    lastEditAt = now();
    try {
      await api.updateComment(id, renderProgress(state));
    } catch (error) {
      warn("update", error);
    }
  };

  const send = async (): Promise<void> => {
    timer = undefined;
    const state = pending;
    pending = undefined;
    if (state === undefined || commentId === undefined || finished) return;
    editing = edit(commentId, state);
    await editing;
    editing = undefined;
    schedule();
  };

  const schedule = (): void => {
    if (timer !== undefined || editing !== undefined || pending === undefined || finished) return;
    const wait = lastEditAt + interval - now();
    if (wait <= 0) void send();
    else timer = setTimeout(() => void send(), wait);
  };

  return {
    get commentId() {
      return commentId;
    },
    start: async (state) => {
      creating ??= create(state);
      await creating;
    },
    update: (state) => {
      if (finished || commentId === undefined) return;
      pending = state;
      schedule();
    },
    finish: async (state) => {
      finished = true;
      pending = undefined;
      clearTimeout(timer);
      timer = undefined;
      // A creation or an edit under way lands first, so the final state is the last one written
      // (and a run that fails while the comment is being created still leaves one comment).
      await creating;
      await editing;
      if (commentId === undefined) await create(state);
      else await edit(commentId, state);
    },
  };
}
