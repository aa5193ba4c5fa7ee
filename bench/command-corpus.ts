/**
 * Real commands for measuring how often the permission rules refuse ordinary work, by source:
 * the bench's own hand-written agent commands, the five trajectories in `../shared/trajectories`,
 * and, when `PITCREW_BENCH_TRAJECTORIES` names a folder, every `*.traj.json` under it (the 500
 * mini-swe-agent runs of gruckion/mini-swe-agent's
 * `swebench_results/20251118_gemini-3-pro-74pct/trajs`, see bench/README.md). It only reads
 * commands; judging them is the bench's business.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export interface CommandSource {
  label: string;
  commands: readonly string[];
}

/** mini-swe-agent v1 runs an assistant message's command only when it holds exactly one block. */
const BASH_BLOCK = /```bash\s*\n(.*?)\n```/gs;

interface Trajectory {
  messages?: { role?: string; content?: unknown }[];
}

/** The commands an agent ran in one mini-swe-agent trajectory file. */
export function trajectoryCommands(file: string): string[] {
  const trajectory = JSON.parse(readFileSync(file, "utf8")) as Trajectory;
  const commands: string[] = [];
  for (const message of trajectory.messages ?? []) {
    if (message.role !== "assistant" || typeof message.content !== "string") continue;
    const blocks = [...message.content.matchAll(BASH_BLOCK)].map((match) => match[1] ?? "");
    if (blocks.length === 1) commands.push(blocks[0] ?? "");
  }
  return commands;
}

/** Every `*.traj.json` under `folder`, in a stable order. */
function trajectoryFiles(folder: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(folder).sort()) {
    const path = join(folder, entry);
    if (statSync(path).isDirectory()) files.push(...trajectoryFiles(path));
    else if (entry.endsWith(".traj.json")) files.push(path);
  }
  return files;
}

function fromFolder(label: string, folder: string): CommandSource {
  const files = trajectoryFiles(folder);
  return {
    label: `${label} (${files.length} runs)`,
    commands: files.flatMap(trajectoryCommands),
  };
}

/** The sources present on this machine, the hand-written `own` commands first. */
export function commandSources(own: readonly string[]): CommandSource[] {
  const sources: CommandSource[] = [{ label: "bench corpus (hand-written)", commands: own }];
  const shared = fileURLToPath(new URL("../../shared/trajectories", import.meta.url));
  if (existsSync(shared)) sources.push(fromFolder("../shared/trajectories", shared));
  const more = process.env.PITCREW_BENCH_TRAJECTORIES;
  if (more) sources.push(fromFolder(`mini-swe-agent gemini-3-pro trajectories`, more));
  return sources;
}
