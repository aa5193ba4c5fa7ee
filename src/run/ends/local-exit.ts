/**
 * `pitcrew run`'s exit statuses, a module of their own so the command answers `--help` and a
 * usage error without loading the Run.
 */
import type { StopReason } from "../../domain/loop.ts";

export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
export const EXIT_STOPPED_EARLY = 3;
export const EXIT_CANCELLED = 130;

export function exitCodeFor(reason: StopReason): number {
  if (reason === "done") return 0;
  if (reason === "cancelled") return EXIT_CANCELLED;
  if (reason === "model_error") return EXIT_FAILED;
  return EXIT_STOPPED_EARLY;
}
