/**
 * One reader for `/proc/<pid>/stat`, where the process name in parentheses may itself hold
 * spaces and parentheses: the fields that follow start after the last `)`.
 */
import { readFileSync } from "node:fs";

export interface ProcStat {
  /** R, S, D, T, t, Z, … */
  state: string;
  ppid: number;
}

/** The process's state and parent, or null when it is gone (or there is no /proc). */
export function procStat(pid: number | string): ProcStat | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const [state = "", ppid = ""] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { state, ppid: Number(ppid) };
  } catch {
    return null;
  }
}
