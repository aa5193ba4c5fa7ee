/**
 * The run's page on GitHub: once the notes are saved, the report of the thread's transcript
 * (src/report/render.ts) is uploaded as the artifact `pitcrew-report-<thread>-<run>`, kept as long
 * as the notes, and its URL goes into the progress comment and the job summary. Everyone who can
 * read the repository can download it, so the secrets the harness knows are withheld from it
 * first. A failed upload is a warning: the page helps, the run's work is already delivered.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describeError } from "../../errors.ts";
import { tmpdir } from "node:os";
import type { Task } from "../../domain/task.ts";
import { git } from "../../git/git.ts";
import { knownSecrets, withholdSecrets } from "../../git/secret-scan.ts";
import { renderReport } from "../../report/render.ts";
import { artifactModule } from "../../store/artifact.ts";
import type { RunRecord } from "../ports.ts";
import type { WorkOptions } from "./action-run.ts";

const PAGE = "report.html";
/** The most of the final diff the page shows: a bigger one is cut, and says so. */
const DIFF_CHARS = 2 * 1024 * 1024;

/** `pitcrew-report-<thread>-<run>`: one per run, so a later run never replaces an earlier page. */
export function reportName(threadKey: string, runId: string): string {
  return `pitcrew-report-${threadKey}-${runId}`;
}

export interface ReportPublishing {
  threadKey: string;
  /** The workflow run's page: `<server>/<owner>/<repo>/actions/runs/<id>`. */
  runUrl: string;
  retentionDays: number;
  tempDir: string;
  secrets: readonly string[];
  /** The checkout, whose branch holds the run's work once delivered: the page's final diff. */
  workspace?: string;
  log: { info(message: string): void; warning(message: string): void };
}

/** What the thread's branch changes against its base (the three-dot diff a PR shows), if any. */
async function finalDiff(workspace: string | undefined, base: string): Promise<string | undefined> {
  if (workspace === undefined) return undefined;
  const diff = await git(workspace, [
    "diff",
    "--no-color",
    "--no-ext-diff",
    "--stat",
    "--patch",
    `refs/remotes/origin/${base}...HEAD`,
  ]).catch(() => undefined);
  const text = diff?.stdout ?? "";
  if (text.trim() === "") return undefined;
  return text.length > DIFF_CHARS
    ? `${text.slice(0, DIFF_CHARS)}\n… the diff is cut here (over ${DIFF_CHARS / 1024 / 1024} MiB)\n`
    : text;
}

/** Uploads the run's page; its URL, or undefined when there are no notes or the upload failed. */
export function reportPublisher(
  options: ReportPublishing,
): (record: RunRecord, pullUrl?: string) => Promise<string | undefined> {
  return async (record, pullUrl) => {
    const { notes } = record;
    if (notes === undefined || notes.transcript.trim() === "") return undefined;
    const runId = /\/actions\/runs\/(\d+)/.exec(options.runUrl)?.[1] ?? "0";
    const name = reportName(options.threadKey, runId);
    const dir = await mkdtemp(join(options.tempDir, "pitcrew-report-"));
    try {
      // Withheld before rendering: the page escapes text, and an escaped secret would not match.
      const withhold = (text: string): string => withholdSecrets(text, options.secrets);
      const diff = await finalDiff(options.workspace, notes.state.baseBranch);
      const html = renderReport({
        transcript: withhold(notes.transcript),
        state: notes.state,
        note: withhold(notes.note),
        ...(diff === undefined ? {} : { diff: withhold(diff) }),
        links: { run: options.runUrl, pull: pullUrl },
      });
      await writeFile(join(dir, PAGE), withhold(html));
      const client = new (await artifactModule()).DefaultArtifactClient();
      const { id } = await client.uploadArtifact(name, [join(dir, PAGE)], dir, {
        retentionDays: options.retentionDays,
      });
      if (id === undefined) return undefined;
      options.log.info(`report: uploaded the run's page as artifact ${id} (${name})`);
      return `${options.runUrl.replace(/\/attempts\/\d+$/, "")}/artifacts/${id}`;
    } catch (error) {
      options.log.warning(`report: the run's page was not uploaded: ${describeError(error)}`);
      return undefined;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
}

/** The publisher of an action run on `task`, from the run's options. */
export function actionReport(
  options: Pick<WorkOptions, "runUrl" | "env" | "config" | "log" | "workspace">,
  task: Pick<Task, "threadKey">,
): (record: RunRecord, pullUrl?: string) => Promise<string | undefined> {
  return reportPublisher({
    threadKey: task.threadKey,
    runUrl: options.runUrl,
    retentionDays: options.config.retentionDays,
    tempDir: options.env.RUNNER_TEMP || tmpdir(),
    secrets: knownSecrets(options.env, options.config),
    workspace: options.workspace,
    log: options.log,
  });
}
