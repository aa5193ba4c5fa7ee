/**
 * The project's own CI habits (taken from actions/typescript-action): one Node version in
 * `.node-version` that every workflow reads, dist/ marked as generated, check-dist keeping and
 * uploading the expected dist/ when the committed one is stale, and the shared-data suite left to
 * the project's own CI (.ci/run), with GitHub's workflow saying so.
 */
import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  globSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { parse } from "yaml";

interface Step {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}

interface Workflow {
  jobs: Record<string, { steps: Step[] }>;
}

const ROOT = join(import.meta.dirname, "..", "..");
const WORKFLOWS = join(ROOT, ".github", "workflows");
const read = (path: string): string => readFileSync(join(ROOT, path), "utf8");

const workflows = readdirSync(WORKFLOWS)
  .filter((file) => file.endsWith(".yml"))
  .map((file) => ({
    file,
    text: readFileSync(join(WORKFLOWS, file), "utf8"),
    steps: Object.values(
      (parse(readFileSync(join(WORKFLOWS, file), "utf8")) as Workflow).jobs,
    ).flatMap((job) => job.steps),
  }));
const workflow = (file: string): (typeof workflows)[number] => {
  const found = workflows.find((entry) => entry.file === file);
  assert.ok(found, `.github/workflows/${file}`);
  return found;
};

describe("the project's workflows", () => {
  test("every setup-node step reads .node-version, the major action.yml runs on", () => {
    const major = read(".node-version").trim();
    assert.match(major, /^\d+$/);
    const action = parse(read("action.yml")) as { runs: { using: string } };
    assert.equal(action.runs.using, `node${major}`);
    assert.equal(
      (JSON.parse(read("package.json")) as { engines: { node: string } }).engines.node,
      `>=${major}`,
    );
    const setups = workflows.flatMap(({ file, steps }) =>
      steps
        .filter((step) => step.uses?.startsWith("actions/setup-node@"))
        .map((step) => ({ file, step })),
    );
    assert.ok(setups.length >= 2, "ci.yml and check-dist.yml set up Node");
    for (const { file, step } of setups) {
      assert.equal(step.with?.["node-version-file"], ".node-version", file);
      assert.equal(step.with?.["node-version"], undefined, `${file}: one source of the version`);
    }
  });

  test("git and GitHub see dist/ as generated, with no text diff", () => {
    const attributes = execFileSync(
      "git",
      [
        "check-attr",
        "linguist-generated",
        "diff",
        "--",
        "dist/index.js",
        "dist/cli.js",
        "src/main.ts",
      ],
      { cwd: ROOT, encoding: "utf8" },
    );
    assert.equal(
      attributes,
      [
        "dist/index.js: linguist-generated: true",
        "dist/index.js: diff: unset",
        "dist/cli.js: linguist-generated: true",
        "dist/cli.js: diff: unset",
        "src/main.ts: linguist-generated: unspecified",
        "src/main.ts: diff: unspecified",
        "",
      ].join("\n"),
    );
  });

  test("check-dist keeps the fresh build in a folder and uploads it when the compare fails", () => {
    const steps = workflow("check-dist.yml").steps;
    const compare = steps.find((step) => step.run?.includes("npm run check-dist"));
    assert.ok(compare?.id, "the compare step has an id the upload can name");
    const folder = /npm run check-dist -- "\$RUNNER_TEMP\/([^"]+)"/.exec(compare.run ?? "")?.[1];
    assert.ok(folder, compare.run);
    const upload = steps.find((step) => step.uses?.startsWith("actions/upload-artifact@"));
    assert.ok(upload, "an upload-artifact step");
    assert.ok(steps.indexOf(upload) > steps.indexOf(compare), "after the compare");
    assert.match(upload.if ?? "", /failure\(\)/);
    assert.ok(upload.if?.includes(`steps.${compare.id}.conclusion == 'failure'`), upload.if);
    assert.equal(upload.with?.name, "dist");
    assert.equal(upload.with?.path, `\${{ runner.temp }}/${folder}/`);
  });

  test("GitHub's CI leaves out the shared-data suite and says so; npm test leaves it out too", () => {
    const ci = workflow("ci.yml");
    assert.ok(!ci.steps.some((step) => step.run?.includes("test:shared")));
    assert.match(ci.text, /^# .*shared-data suite .*is not run\n# here/m);
    const npmTest = ci.steps.find((step) => step.run === "npm test");
    assert.match(npmTest?.name ?? "", /all but the shared-data suite/);
    const scripts = (JSON.parse(read("package.json")) as { scripts: Record<string, string> })
      .scripts;
    const patterns = [...(scripts["test:unit"] ?? "").matchAll(/"([^"]+)"/g)].map(
      (m) => m[1] ?? "",
    );
    const files = patterns.flatMap((pattern) => globSync(pattern, { cwd: ROOT }));
    assert.ok(files.includes("test/config/workflows.test.ts"), files.join(" "));
    assert.ok(files.includes("test/shared-suite.test.ts"));
    assert.deepEqual(
      files.filter((file) => file.startsWith("test/shared/")),
      [],
    );
    assert.ok(read(".ci/run").includes("npm run test:shared"), "the project's own CI runs it");
  });
});

describe("scripts/check-dist.mjs", () => {
  const copy = mkdtempSync(join(tmpdir(), "pitcrew-check-dist-"));
  after(() => rmSync(copy, { recursive: true, force: true }));

  test("a stale dist/ fails, naming the files, and the given folder keeps the expected build", async () => {
    for (const path of ["src", "scripts", "package.json"])
      cpSync(join(ROOT, path), join(copy, path), { recursive: true });
    symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"));
    mkdirSync(join(copy, "dist"));
    writeFileSync(join(copy, "dist", "index.js"), "// an old build\n");
    const expected = join(copy, "expected-dist");
    const { code, stderr } = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        ["scripts/check-dist.mjs", expected],
        { cwd: copy },
        (error, _out, err) => resolve({ code: error ? Number(error.code) : 0, stderr: err }),
      ),
    );
    assert.equal(code, 1, stderr);
    assert.match(stderr, /dist\/ is stale: .*index\.js/);
    assert.ok(stderr.includes(`The expected dist/ is in ${expected}.`), stderr);
    for (const file of ["index.js", "post.js", "cli.js"])
      assert.ok(existsSync(join(expected, file)), file);
    assert.notEqual(readFileSync(join(expected, "index.js"), "utf8"), "// an old build\n");
  });
});
