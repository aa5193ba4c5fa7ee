/**
 * The progress comment's Markdown for a state of the run: the headline, the request, what the agent
 * does now (or how it ended), the todo list, the totals. The marker comes first, so later runs know
 * the comment as pitcrew's. Creating and editing the comment is github/progress.ts's.
 */
import type { Activity } from "../domain/run-state.ts";
import type { ProgressState } from "../domain/ending.ts";
import type { Todo } from "../domain/todos.ts";
import { PITCREW_COMMENT_MARKER } from "../domain/conversation.ts";
import { audienceOf } from "./defuse.ts";
import type { Audience } from "./defuse.ts";
import { STOP_CAUSES, describeCall, formatTotals } from "./describe.ts";
import {
  HEADLINES,
  SENTENCE_LIMIT,
  codeSpan,
  continueSentence,
  pullLink,
  quotedLine,
  quotedMarkdown,
  requestLine,
} from "./text.ts";

const TODO_LIMIT = 50;
const TODO_CHARS = 200;

/** What the agent does now, one line of Markdown. */
export function activityLine(activity: Activity | undefined): string {
  if (activity === undefined) return "getting started";
  if (activity.kind === "model") return `waiting for the model (turn ${activity.turn})`;
  if (activity.kind === "tool") return codeSpan(describeCall(activity.call));
  return "compacting the conversation into a handoff note";
}

/**
 * The todo list as a checklist. While the run works, the step in progress is marked so; once it
 * has ended nothing is in progress any more, so the list is shown as the agent left it, and said
 * to be stale when the agent did not mark every step done.
 */
function checklist(todos: readonly Todo[], audience: Audience, ended: boolean): string {
  const items = todos.slice(0, TODO_LIMIT).map(({ content, status }) => {
    const text = quotedLine(content, audience, TODO_CHARS);
    if (status === "completed") return `- [x] ${text}`;
    if (status === "in_progress" && !ended) return `- [ ] **${text}** ← in progress`;
    return `- [ ] ${text}`;
  });
  if (todos.length > TODO_LIMIT) items.push(`- … and ${todos.length - TODO_LIMIT} more`);
  const stale = ended && todos.some((todo) => todo.status !== "completed");
  return [
    ...(stale
      ? ["_The todo list as the agent last left it: it did not mark every step done._"]
      : []),
    ...items,
  ].join("\n");
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
      : checklist(state.todos, audience, state.phase !== "working"),
    [
      totals,
      `[Workflow run](${state.runUrl})`,
      state.reportUrl === undefined ? undefined : `[Run report](${state.reportUrl})`,
    ]
      .filter((part) => part !== undefined)
      .join(" · "),
    state.thread === undefined || state.thread.runs < 2
      ? undefined
      : `All ${state.thread.runs} runs on this thread: ${formatTotals(state.thread)}`,
  ];
  return blocks.filter((block) => block !== undefined).join("\n\n");
}
