/**
 * The failing step of a job, read from the workflow file at the failing commit, as the proof runs
 * it in the sandbox: its `run:` script, shell, working directory and plain environment — or why it
 * cannot run offline (an action's `uses:`, services, secrets, expressions only the runner can
 * evaluate). Pure: the workflow file's text comes in, a decision goes out.
 */
import { parse } from "yaml";
import type { JobStep, ProofStep } from "../domain/ci.ts";

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** GitHub's shell for a `run:` step on Linux when nothing names one. */
const DEFAULT_SHELL = "bash --noprofile --norc -eo pipefail {0}";

/** The name the jobs API gives a step of the workflow (its `name`, else `Run <first line>`). */
function apiNameOf(step: Json): string {
  if (typeof step.name === "string") return step.name;
  if (typeof step.run === "string") return `Run ${step.run.trim().split("\n")[0] ?? ""}`.trim();
  if (typeof step.uses === "string") return `Run ${step.uses}`;
  return "";
}

/**
 * The workflow's job the jobs API calls `jobName`: by its `name:` (a matrix job's name ends in the
 * matrix values, `test (20, ubuntu)`), else by its id.
 */
function findJob(jobs: Json, jobName: string): [string, Json] | undefined {
  const entries = Object.entries(jobs).filter((entry): entry is [string, Json] =>
    isObject(entry[1]),
  );
  const named = (job: Json, id: string): string => (typeof job.name === "string" ? job.name : id);
  return (
    entries.find(([id, job]) => named(job, id) === jobName) ??
    entries.find(([id, job]) => jobName.startsWith(`${named(job, id)} (`)) ??
    entries.find(([id]) => id === jobName)
  );
}

/** `${{ … }}` expressions, the ones naming secrets first. */
function expressions(text: string): string[] {
  return [...text.matchAll(/\$\{\{([^}]*)\}\}/g)].map((match) => (match[1] ?? "").trim());
}

/** The variables of an `env:` block that are plain strings, and the ones that are not. */
function plainEnv(env: unknown): { plain: Record<string, string>; blocked: string[] } {
  const plain: Record<string, string> = {};
  const blocked: string[] = [];
  if (!isObject(env)) return { plain, blocked };
  for (const [name, value] of Object.entries(env)) {
    const text = typeof value === "string" ? value : JSON.stringify(value);
    if (expressions(text).length > 0) blocked.push(name);
    else plain[name] = typeof value === "string" ? value : String(value);
  }
  return { plain, blocked };
}

function defaultsRun(holder: Json): Json {
  const defaults = isObject(holder.defaults) ? holder.defaults : {};
  return isObject(defaults.run) ? defaults.run : {};
}

/**
 * The failing step of `jobName` as the proof can run it. `failed` is the step the jobs API says
 * failed (its name and number: number 1 is "Set up job", the workflow's steps follow).
 */
export function proofStep(workflowText: string, jobName: string, failed: JobStep): ProofStep {
  const refuse = (why: string, step = failed.name): ProofStep => ({
    runnable: false,
    job: jobName,
    step,
    why,
  });
  let workflow: unknown;
  try {
    workflow = parse(workflowText);
  } catch (error) {
    return refuse(`the workflow file is not YAML pitcrew can read (${String(error)})`);
  }
  if (!isObject(workflow) || !isObject(workflow.jobs)) return refuse("the workflow has no jobs");
  const found = findJob(workflow.jobs, jobName);
  if (found === undefined) return refuse(`the workflow has no job named ${jobName}`);
  const [, job] = found;
  if (typeof job.uses === "string") return refuse(`the job calls another workflow (${job.uses})`);
  const steps = Array.isArray(job.steps) ? job.steps.filter(isObject) : [];
  const step =
    steps.find((candidate) => apiNameOf(candidate) === failed.name) ?? steps[failed.number - 2];
  if (step === undefined) return refuse(`the job has no step ${failed.name}`);
  const name = apiNameOf(step);
  if (typeof step.uses === "string" || typeof step.run !== "string") {
    return refuse(
      `it runs an action (${String(step.uses)}), which needs the runner and the network`,
      name,
    );
  }
  if (job.services !== undefined) return refuse("the job starts services (containers)", name);
  if (job.container !== undefined) return refuse("the job runs in a container", name);
  const script = step.run;
  const inScript = expressions(script);
  if (inScript.some((expression) => /\bsecrets\./.test(expression))) {
    return refuse("its script uses a secret, which the sandbox never has", name);
  }
  if (inScript.length > 0) {
    return refuse(
      `its script uses \${{ ${inScript[0]} }}, an expression only the runner can evaluate`,
      name,
    );
  }
  const layers = [workflow.env, job.env, step.env].map(plainEnv);
  const blocked = layers.flatMap((layer) => layer.blocked);
  const env = Object.assign({}, ...layers.map((layer) => layer.plain)) as Record<string, string>;
  const scripted = [script, ...Object.values(env)].join("\n");
  for (const variable of blocked) {
    // An env value set from an expression (a secret, a matrix value) is needed only if used.
    if (new RegExp(`\\$\\{?${variable}\\b`).test(scripted)) {
      return refuse(
        `it needs ${variable}, set from an expression only the runner can evaluate`,
        name,
      );
    }
  }
  const shell = [step.shell, defaultsRun(job).shell, defaultsRun(workflow).shell].find(
    (value): value is string => typeof value === "string",
  );
  const directory = [
    step["working-directory"],
    defaultsRun(job)["working-directory"],
    defaultsRun(workflow)["working-directory"],
  ].find((value): value is string => typeof value === "string");
  if (directory !== undefined && (directory.includes("${{") || directory.startsWith("/"))) {
    return refuse(`its working directory ${directory} is not a folder of the checkout`, name);
  }
  const runnable: ProofStep = {
    runnable: true,
    job: jobName,
    step: name,
    script,
    shell: shell === undefined || shell === "bash" ? DEFAULT_SHELL : shell,
    workingDirectory: (directory ?? "").replace(/^\.\/?/, ""),
    env,
  };
  if (proofArgv(runnable) === undefined) {
    return refuse(`its shell (${runnable.shell}) is not one the proof runs (bash, sh)`, name);
  }
  return runnable;
}

/**
 * The argv that runs the step's script the way GitHub's runner does with its shell, the script
 * handed to `-c` where the runner would write it to a file (`{0}`). bash and sh only: any other
 * shell is not run by the proof (undefined).
 */
export function proofArgv(step: Extract<ProofStep, { runnable: true }>): string[] | undefined {
  const template = step.shell === "sh" ? "sh -e {0}" : step.shell;
  const words = template.split(/\s+/).filter((word) => word !== "");
  const [command] = words;
  if (command !== "bash" && command !== "sh") return undefined;
  if (words.at(-1) !== "{0}" || words.filter((word) => word.includes("{0}")).length !== 1) {
    return undefined;
  }
  return [...words.slice(0, -1), "-c", step.script];
}
