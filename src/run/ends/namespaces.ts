/**
 * The namespaces of a run, opened once its workspace is ready: the skills from its base commit and
 * the memory store on the repository's `pitcrew-memory` branch (through the Git Data API on
 * GitHub, a local ref for the CLI), each memory commit signed with the run, the thread and who
 * asked. A store that cannot be read leaves the run without memory, with a warning: memory helps,
 * it is not the task.
 */
import type { GitDataPort, MemoryAuthor } from "../../domain/memory.ts";
import { describeError } from "../../errors.ts";
import { createNamespaces, skillEntries } from "../../memory/namespace.ts";
import { namespacePrompt } from "../../memory/prompt.ts";
import { loadSkills } from "../../memory/skills.ts";
import { MEMORY_BRANCH, createMemoryStore } from "../../memory/store.ts";
import type { Task } from "../../domain/task.ts";
import { knownSecrets } from "../../git/secret-scan.ts";
import type { Namespaces, Workspace } from "../ports.ts";
import type { WorkOptions } from "./action-run.ts";

export function runNamespaces(options: {
  git: GitDataPort;
  author: MemoryAuthor;
  secrets: readonly string[];
  log: { info(message: string): void; warning(message: string): void };
}): (workspace: Workspace) => Promise<Namespaces> {
  return async (workspace) => {
    const { log } = options;
    const memory = createMemoryStore({
      git: options.git,
      branch: MEMORY_BRANCH,
      author: options.author,
      secrets: options.secrets,
    });
    const [skills, entries] = await Promise.all([
      loadSkills(workspace.path, workspace.baseSha),
      memory.list().catch((error: unknown) => {
        log.warning(
          `memory: the ${MEMORY_BRANCH} branch could not be read: ${describeError(error)}`,
        );
        return [];
      }),
    ]);
    for (const skipped of skills.skipped) log.warning(`skills: left out ${skipped}`);
    for (const entry of entries.filter((one) => one.flagged !== undefined)) {
      log.warning(`memory: ${entry.path} is not loaded: ${entry.flagged}`);
    }
    log.info(`skills: ${skills.files.size}; memory files: ${entries.length}`);
    return {
      files: createNamespaces({ memory, skills: skills.files }),
      prompt: namespacePrompt(skillEntries(skills.files), entries),
    };
  };
}

/** The namespaces of an action run on `task` (a flaky triage's per-test task too), when it has memory. */
export function actionNamespaces(
  options: Pick<WorkOptions, "memory" | "runUrl" | "env" | "config" | "log">,
  task: Task,
): ((workspace: Workspace) => Promise<Namespaces>) | undefined {
  if (options.memory === undefined) return undefined;
  return runNamespaces({
    git: options.memory,
    author: { run: options.runUrl, thread: task.threadKey, requestedBy: task.requester.login },
    secrets: knownSecrets(options.env, options.config),
    log: options.log,
  });
}
