/**
 * The reminder a replay sends. The live loop ends every request with one (context/reminder.ts),
 * uncached and counted in the budget, so a replay without it would measure requests that never
 * run. A recorded session has no facts of its own; these are made up but shaped like a run's: the
 * time a minute on per request, the branch, a todo list of eight items worked through one every
 * eight requests (each change stands for the model's own todo_write), and every seventh request
 * two files a command changed. The policy makes of them what it makes of a live run's facts: the
 * time and the changed files (about 25 tokens), and after a compaction also the branch and the
 * whole list, 150–300 o200k tokens (the tests check).
 */
import type { ReminderFacts } from "../reminder.ts";
import type { Todo } from "../../domain/todos.ts";

const STARTED = Date.parse("2026-01-15T09:00:00Z");
const BRANCH = "pitcrew/issue-4127-fix-regression";
const PLAN = [
  "Reproduce the failure with the test named in the issue and note the exact error",
  "Find where the failing value is computed: grep the module, its callers and its tests",
  "Write a regression test beside the existing ones that fails for the reason in the issue",
  "Fix the computation without changing the public signature or the documented behaviour",
  "Run the module's whole test suite and fix anything the change broke",
  "Check the other callers of the changed function for the same mistake and fix them too",
  "Run the linters and the type checker the repository's CI runs, and fix what they report",
  "Read the whole diff: no stray debug output, docs and changelog updated if behaviour changed",
];
const CHANGED = ["src/module/core.py", "tests/test_core.py"];
const REQUESTS_PER_ITEM = 8;
const CHANGED_EVERY = 7;

/** The todo list at the `request`-th request (0-based). */
function plan(request: number): Todo[] {
  const current = Math.floor(request / REQUESTS_PER_ITEM);
  return PLAN.map((content, index) => ({
    content,
    status: index < current ? "completed" : index === current ? "in_progress" : "pending",
  }));
}

/** The facts of one replayed session's requests, in order (a fresh source per session). */
export function replayReminder(): () => Promise<ReminderFacts> {
  let request = 0;
  return () => {
    const n = request++;
    return Promise.resolve({
      now: new Date(STARTED + n * 60_000),
      branch: BRANCH,
      todos: plan(n),
      changedFiles: n > 0 && n % CHANGED_EVERY === 0 ? CHANGED : [],
    });
  };
}
