/**
 * The progress comment: one comment on the thread, created when the work starts and edited in
 * place as the agent works and when it ends, so the people watching see the plan, the current step,
 * the cost, and at the end a truthful account (also of a stop, a failure or a refusal). The comment
 * is a view of the run, not the run: a GitHub call failing here is a warning, never a failed run.
 */
import type { StopReason } from "../domain/loop.ts";
import type { Activity, RunState } from "../domain/run-state.ts";
import { STOP_CAUSES, describeCall, formatTotals } from "../present/describe.ts";
import type { Totals } from "../domain/usage.ts";
import type { Todo } from "../domain/todos.ts";
import { describeError } from "../errors.ts";
import type { Task } from "../domain/task.ts";
import { PITCREW_COMMENT_MARKER } from "../domain/conversation.ts";
import { audienceOf } from "./defuse.ts";
import type { Audience } from "./defuse.ts";
import type { GitHubApi } from "./api.ts";
import {
  HEADLINES,
  SENTENCE_LIMIT,
  codeSpan,
  continueSentence,
  pullLink,
  quotedLine,
  quotedMarkdown,
  requestLine,
} from "./report.ts";

export interface PullLink {
  number: number;
  url: string;
  draft: boolean;
  /** What this run did to it: opened it, or pushed to it or edited it (the PR was there before). */
  operation: PullOperation;
}

/** What a run did to its thread's pull request: an output as peter-evans/create-pull-request has. */
export type PullOperation = "created" | "updated";

/** What the agent has done so far: the run's state (domain/run-state.ts), as far as people see it. */
export type Work = Pick<RunState, "todos" | "activity" | "totals"> & {
  /** All runs on the thread together, this one included (from the thread's notes). */
  thread?: Totals & { runs: number };
};

/** How a run ended, with the facts each ending needs. The caller decides which one it was. */
export type Ending =
  | { phase: "done"; summary: string; pull: PullLink }
  | { phase: "stopped"; stopReason: Exclude<StopReason, "done">; summary: string; pull?: PullLink }
  /** The agent finished and changed nothing; its summary may say why. */
  | { phase: "no-changes"; summary: string }
  /** `error`: the named error's sentence (`describeError`). */
  | { phase: "failed"; error: string; pull?: PullLink }
  /** `reason`: why the requester may not ask, as authorisation says it. */
  | { phase: "refused"; reason: string };

export type ProgressState = Work & {
  task: Pick<Task, "kind" | "instruction" | "requester" | "thread">;
  /** The workflow run's page. */
  runUrl: string;
} & ({ phase: "working" } | Ending);

export type Phase = ProgressState["phase"];
export type FinalPhase = Ending["phase"];
export type FinalState = Extract<ProgressState, { phase: FinalPhase }>;

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

export const NO_WORK: Work = {};

const TODO_LIMIT = 50;
const TODO_CHARS = 200;

// ---- Rendering --------------------------------------------------------------------------------

/** What the agent does now, one line of Markdown. */
export function activityLine(activity: Activity | undefined): string {
  if (activity === undefined) return "getting started";
  if (activity.kind === "model") return `waiting for the model (turn ${activity.turn})`;
  if (activity.kind === "tool") return codeSpan(describeCall(activity.call));
  return "compacting the conversation into a handoff note";
}

function checklist(todos: readonly Todo[], audience: Audience): string {
  const items = todos.slice(0, TODO_LIMIT).map(({ content, status }) => {
    const text = quotedLine(content, audience, TODO_CHARS);
    if (status === "completed") return `- [x] ${text}`;
    if (status === "in_progress") return `- [ ] **${text}** ← in progress`;
    return `- [ ] ${text}`;
  });
  if (todos.length > TODO_LIMIT) items.push(`- … and ${todos.length - TODO_LIMIT} more`);
  return items.join("\n");
}

function summaryBlock(title: string, summary: string, audience: Audience): string | undefined {
  return summary.trim() === "" ? undefined : `${title}\n\n${quotedMarkdown(summary, audience)}`;
}

/** The part of the comment that depends on how far the run got. */
function phaseBlocks(state: ProgressState, audience: Audience): (string | undefined)[] {
  switch (state.phase) {
    case "working":
      return [`Now: ${activityLine(state.activity)}`];
    case "done":
      return [
        `Pull request: ${pullLink(state.pull)}`,
        summaryBlock("**Summary**", state.summary, audience),
      ];
    case "stopped":
      return [
        `Stopped early: ${STOP_CAUSES[state.stopReason]}. ${
          state.pull === undefined
            ? "Nothing had been changed yet."
            : `The work so far is in ${pullLink(state.pull)}.`
        } ${continueSentence()}`,
        summaryBlock("**Where it got to**", state.summary, audience),
      ];
    case "no-changes":
      return [
        "The agent finished without changing any file, so there is no pull request.",
        summaryBlock("**Its answer, which may say why**", state.summary, audience) ??
          "It gave no reason.",
      ];
    case "failed":
      return [
        `**Error:** ${quotedLine(state.error, audience, SENTENCE_LIMIT)}`,
        state.pull === undefined ? undefined : `The work so far is in ${pullLink(state.pull)}.`,
        `What to do: the [workflow run](${state.runUrl})'s log has the details. Once the cause is fixed, reply \`/agent continue\` to try again from where it stopped.`,
      ];
    case "refused":
      return [quotedLine(state.reason, audience, SENTENCE_LIMIT)];
  }
}

/** The comment's Markdown for a state; the marker comes first, so later runs know it as ours. */
export function renderProgress(state: ProgressState): string {
  const audience = audienceOf(state.task, state.runUrl);
  const totals =
    state.totals === undefined
      ? undefined
      : `${formatTotals(state.totals)}${state.phase === "working" ? " (so far)" : ""}`;
  const blocks = [
    PITCREW_COMMENT_MARKER,
    `### ${HEADLINES[state.phase]}`,
    `${requestLine(state.task, audience)}.`,
    ...phaseBlocks(state, audience),
    state.todos === undefined || state.todos.length === 0
      ? undefined
      : checklist(state.todos, audience),
    [totals, `[Workflow run](${state.runUrl})`].filter((part) => part !== undefined).join(" · "),
    state.thread === undefined || state.thread.runs < 2
      ? undefined
      : `All ${state.thread.runs} runs on this thread: ${formatTotals(state.thread)}`,
  ];
  return blocks.filter((block) => block !== undefined).join("\n\n");
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
