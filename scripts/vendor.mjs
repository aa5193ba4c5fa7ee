// Copies the built action into another repository, for use before there is a published release:
// `npm run vendor -- <target repo>` writes <target>/.github/actions/pitcrew/ — action.yml, the
// dist/ files its main and post steps load (found by following their imports, plus the
// WebAssembly and licence files those name), and a package.json that makes Node load them as ES
// modules — and nothing anywhere else. The workflow then says `uses: ./.github/actions/pitcrew`.
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const VENDOR_PATH = ".github/actions/pitcrew";

const USAGE = "usage: npm run vendor -- <target repository> [--dist DIR]";
const HELP = `${USAGE}

Copies pitcrew's action (action.yml and the dist/ files it loads) into
<target>/${VENDOR_PATH}/, so a workflow there can run it with
  uses: ./${VENDOR_PATH}
before pitcrew has a published release. The target must be the top folder of a git checkout;
nothing outside ${VENDOR_PATH}/ is changed, and nothing is committed.

  --dist DIR   take the built files from DIR instead of this checkout's dist/
  -h, --help   print this and exit
`;

class Refusal extends Error {
  constructor(message, status = 1) {
    super(message);
    this.status = status;
  }
}

function git(cwd, args) {
  return execFileSync("git", ["-C", cwd, ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  }).trim();
}

function tryGit(cwd, args) {
  try {
    return git(cwd, args);
  } catch {
    return null;
  }
}

/** `runs.main` and `runs.post` of action.yml, read without a YAML parser (no npm ci needed). */
export function actionEntries(actionYml) {
  const runs = /^runs:\n((?:[ \t]+.*\n?|[ \t]*#.*\n?|\n)*)/m.exec(actionYml)?.[1] ?? "";
  const main = field(runs, "main");
  if (main === undefined) throw new Refusal("action.yml names no runs.main.");
  return [main, field(runs, "post")].filter((path) => path !== undefined);
}

function field(block, key) {
  const match = new RegExp(`^[ \\t]+${key}:[ \\t]*["']?([^"'\\s#]+)`, "m").exec(block);
  return match?.[1];
}

/**
 * The files of `dist` that `entries` need: each module they import (statically or with a
 * literal `import()`), followed to the end, and every other file of dist/ whose name appears in
 * one of them (the shell parser's .wasm files, the chunks' .LEGAL.txt licences).
 */
export function neededFiles(dist, entries) {
  const names = readdirSync(dist);
  const needed = new Set();
  const queue = [...entries];
  while (queue.length > 0) {
    const name = queue.shift();
    if (needed.has(name)) continue;
    if (!names.includes(name)) {
      throw new Refusal(
        `${join(dist, name)} is missing, but the action loads it; run \`npm run build\` first.`,
      );
    }
    needed.add(name);
    if (!name.endsWith(".js")) continue;
    const text = readFileSync(join(dist, name), "utf8");
    // esbuild writes every import of a sibling module as "./name.js", in double quotes.
    for (const match of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)"\.\/([^"/]+\.js)"/g)) {
      queue.push(match[1]);
    }
    for (const other of names) {
      if (!other.endsWith(".js") && !needed.has(other) && text.includes(other)) queue.push(other);
    }
  }
  return [...needed].sort();
}

/** The folders from `root` down to `path`, each of which must be a real folder or absent. */
function refuseLinks(root, path) {
  const parts = relative(root, path).split("/");
  for (let index = 1; index <= parts.length; index++) {
    const component = join(root, ...parts.slice(0, index));
    let stat;
    try {
      stat = lstatSync(component);
    } catch {
      return;
    }
    if (stat.isSymbolicLink()) {
      throw new Refusal(
        `${component} is a symbolic link; pitcrew writes only into real folders of the checkout. Replace the link with a folder, or remove it.`,
      );
    }
    if (!stat.isDirectory()) {
      throw new Refusal(`${component} is a file, not a folder; move it away first.`);
    }
  }
}

function checkoutRoot(target) {
  if (!existsSync(target)) throw new Refusal(`${target} does not exist.`);
  if (!statSync(target).isDirectory()) {
    throw new Refusal(`${target} is not a folder; pass the top folder of a git checkout.`);
  }
  const real = realpathSync(target);
  const top = tryGit(real, ["rev-parse", "--show-toplevel"]);
  if (top === null) {
    const bare = tryGit(real, ["rev-parse", "--is-bare-repository"]) === "true";
    throw new Refusal(
      bare
        ? `${target} is a bare repository: it has no files for a workflow to run. Pass a clone of it (git clone ${target}).`
        : `${target} is not a git checkout; pass the top folder of the repository the workflow will run in (where .git is).`,
    );
  }
  if (realpathSync(top) !== real) {
    throw new Refusal(
      `${target} is inside the checkout ${top}, not its top folder; the action must lie at ${VENDOR_PATH} from the top: npm run vendor -- ${top}`,
    );
  }
  if (real === realpathSync(ROOT)) {
    throw new Refusal(
      "That is pitcrew's own checkout; pass the repository pitcrew should work in.",
    );
  }
  return real;
}

/** Does `folder` hold a copy this script made (so it may be replaced)? */
function isPitcrewCopy(folder) {
  const action = join(folder, "action.yml");
  const pkg = join(folder, "package.json");
  if (!existsSync(action) || !existsSync(pkg)) return false;
  const named = /^name:\s*pitcrew\s*$/m.test(readFileSync(action, "utf8"));
  let written = false;
  try {
    written = JSON.parse(readFileSync(pkg, "utf8")).name === "pitcrew-vendored";
  } catch {
    written = false;
  }
  return named && written;
}

function size(bytes) {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${bytes} B`;
}

function describeSource(dist) {
  const version = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version;
  const commit = tryGit(ROOT, ["rev-parse", "--short=12", "HEAD"]);
  const changed =
    commit !== null &&
    resolve(dist) === join(ROOT, "dist") &&
    tryGit(ROOT, ["status", "--porcelain", "--", "dist", "action.yml"]) !== "";
  return {
    version,
    commit,
    label: `pitcrew ${version}${commit === null ? "" : ` (commit ${commit}${changed ? ", with dist/ or action.yml changed since" : ""})`}`,
  };
}

export function vendor(targetArg, distArg = join(ROOT, "dist")) {
  const dist = resolve(distArg);
  const actionSource = join(ROOT, "action.yml");
  const entries = actionEntries(readFileSync(actionSource, "utf8")).map((entry) => {
    if (!entry.startsWith("dist/")) {
      throw new Refusal(`action.yml runs ${entry}, which is not in dist/.`);
    }
    return entry.slice("dist/".length);
  });
  if (!existsSync(dist)) {
    throw new Refusal(`${dist} does not exist; run \`npm run build\` first.`);
  }
  const files = neededFiles(dist, entries);
  const target = checkoutRoot(resolve(targetArg));
  const destination = join(target, VENDOR_PATH);
  refuseLinks(target, join(destination, "dist"));
  if (existsSync(destination) && !isPitcrewCopy(destination)) {
    throw new Refusal(
      `${destination} exists and is not a copy this script made (no action.yml named pitcrew with its package.json); move it away first. Nothing was written.`,
    );
  }
  const source = describeSource(dist);

  // The new dist/ is written beside the old one and swapped in, so no file of an older version
  // (a chunk with another name) stays behind.
  mkdirSync(destination, { recursive: true });
  const fresh = join(destination, `.dist-${process.pid}`);
  rmSync(fresh, { recursive: true, force: true });
  mkdirSync(fresh);
  const written = [];
  try {
    for (const name of files) {
      copyFileSync(join(dist, name), join(fresh, name));
      written.push({ path: `dist/${name}`, bytes: lstatSync(join(fresh, name)).size });
    }
    rmSync(join(destination, "dist"), { recursive: true, force: true });
    renameSync(fresh, join(destination, "dist"));
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
  copyFileSync(actionSource, join(destination, "action.yml"));
  written.unshift({ path: "action.yml", bytes: lstatSync(join(destination, "action.yml")).size });
  const pkg = `${JSON.stringify(
    {
      "//": "Written by pitcrew's `npm run vendor`. type: module makes Node load dist/*.js as the ES modules they are, whatever the repository's own package.json says.",
      name: "pitcrew-vendored",
      version: source.version,
      description: `The pitcrew GitHub Action, vendored from ${source.label}.`,
      private: true,
      type: "module",
    },
    null,
    2,
  )}\n`;
  writeFileSync(join(destination, "package.json"), pkg);
  written.splice(1, 0, { path: "package.json", bytes: Buffer.byteLength(pkg) });
  return { target, destination, written, source, entries };
}

function report({ target, destination, written, source, entries }) {
  const roles = new Map([
    ["action.yml", "what the workflow's `uses:` reads"],
    ["package.json", "makes Node load dist/*.js as ES modules"],
    [`dist/${entries[0]}`, "the main step (runs.main)"],
    ...(entries[1] ? [[`dist/${entries[1]}`, "the post step (runs.post)"]] : []),
  ]);
  const width = Math.max(...written.map(({ path }) => path.length));
  const lines = [
    `Vendored ${source.label} into ${destination}:`,
    ...written.map(({ path, bytes }) => {
      const role =
        roles.get(path) ??
        (path.endsWith(".wasm")
          ? "the shell parser"
          : path.endsWith(".LEGAL.txt")
            ? "licences of bundled code"
            : "code the steps import");
      return `  ${path.padEnd(width)}  ${size(bytes).padStart(9)}  ${role}`;
    }),
    `${written.length} files, ${size(written.reduce((sum, { bytes }) => sum + bytes, 0))}. Nothing outside ${VENDOR_PATH}/ was changed; nothing was committed.`,
    "",
  ];
  const probe = join(VENDOR_PATH, "dist", entries[0]);
  const ignored = tryGit(target, ["check-ignore", "-q", "--", probe]) !== null;
  const add = `git -C ${target} add ${ignored ? "-f " : ""}${VENDOR_PATH}`;
  lines.push(
    "Commit it on the default branch (comment events run the default branch's workflow and its copy of the action):",
    `  ${add}`,
    `  git -C ${target} commit -m "Vendor pitcrew ${source.version}${source.commit ? ` (${source.commit})` : ""}"`,
  );
  if (ignored) {
    lines.push(
      `  (-f because the repository's .gitignore ignores ${probe}; without it git would leave dist/ out.)`,
    );
  }
  lines.push(
    "Then, in .github/workflows/pitcrew.yml (from pitcrew's docs/examples/agent-fix.yml):",
    `  - uses: ./${VENDOR_PATH}`,
    "",
    `The agent cannot change this copy: it is read-only in the agent's sandbox and a push that changes it is refused, even where .github/pitcrew.yml sets allow-protected-changes: true. To update pitcrew, run this again and commit; the old dist/ files are replaced (pitcrew/… branches made before keep the old copy: docs/action.md says what to do).`,
  );
  return `${lines.join("\n")}\n`;
}

function main(args) {
  if (args.includes("-h") || args.includes("--help")) {
    process.stdout.write(HELP);
    return 0;
  }
  let dist;
  const positionals = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    if (arg === "--dist" || arg.startsWith("--dist=")) {
      dist = arg === "--dist" ? args[++index] : arg.slice("--dist=".length);
      if (!dist) throw new Refusal("--dist needs a folder, for example --dist /tmp/dist.", 2);
    } else if (arg.startsWith("-")) {
      throw new Refusal(`${arg} is not an option of the vendor script.`, 2);
    } else {
      positionals.push(arg);
    }
  }
  if (positionals.length !== 1) {
    throw new Refusal(
      positionals.length === 0
        ? "Name the repository to copy the action into, for example: npm run vendor -- ../my-app"
        : `Name one repository, not ${positionals.length}.`,
      2,
    );
  }
  process.stdout.write(report(vendor(positionals[0], dist)));
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    process.stderr.write(`vendor: ${error.message}\n${error.status === 2 ? `${USAGE}\n` : ""}`);
    process.exitCode = error.status;
  }
}
