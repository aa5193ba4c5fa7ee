/**
 * The message of the commit `pitcrew run` makes on its branch. A finished run whose answer starts
 * with a title line (as the system prompt asks, and as a pull request's title is taken) is
 * subjected with what changed, the task said below it; otherwise the subject is the task's first
 * line (or says the run was a continuation). The agent's answer is the body.
 */
import type { StopReason } from "../domain/loop.ts";
import { afterTitleLine, firstLine, shortTitle, summaryTitle } from "./pull-request.ts";

export interface LocalCommitFacts {
  /** The task as given on the command line ("" when continuing without a new instruction). */
  task: string;
  continuing: boolean;
  summary: string;
  stopReason: StopReason;
}

/** The task's first line, or what stands for it: the commit's subject when the agent gave none. */
export function taskSubject({
  task,
  continuing,
}: Pick<LocalCommitFacts, "task" | "continuing">): string {
  return (
    firstLine(task).slice(0, 72) ||
    (continuing ? "Carry on (pitcrew run --continue)" : "pitcrew run")
  );
}

export function localCommitMessage(facts: LocalCommitFacts): string {
  const given = facts.stopReason === "done" ? summaryTitle(facts.summary) : undefined;
  if (given === undefined) return `${taskSubject(facts)}\n\n${facts.summary}`.trim();
  const rest = afterTitleLine(facts.summary);
  const first = firstLine(facts.task);
  const asked =
    first !== ""
      ? `Task: ${first}`
      : facts.continuing
        ? "Continued with pitcrew run --continue."
        : "";
  return [shortTitle(given), rest, asked].filter((part) => part !== "").join("\n\n");
}
