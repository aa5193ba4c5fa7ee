// Fails when dist/ differs from a fresh build of the sources, naming the files that differ.
// `node scripts/check-dist.mjs [folder]`: with a folder, the fresh build is written there and
// kept, so CI can upload the expected dist/ when the committed one is stale; without one it goes
// to a temporary folder, removed afterwards.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";

function listFiles(dir) {
  return readdirSync(dir, { recursive: true })
    .map((name) => join(dir, String(name)))
    .filter((path) => statSync(path).isFile())
    .map((path) => relative(dir, path))
    .sort();
}

const kept = process.argv[2];
if (kept !== undefined && resolve(kept) === resolve("dist")) {
  console.error("check-dist: give a folder other than dist/ for the fresh build.");
  process.exit(2);
}
const fresh = kept ?? mkdtempSync(join(tmpdir(), "pitcrew-dist-"));
try {
  execFileSync(process.execPath, ["scripts/build.mjs", fresh], { stdio: "inherit" });
  const committed = listFiles("dist");
  const built = listFiles(fresh);
  const names = [...new Set([...committed, ...built])].sort();
  const stale = names.filter((name) => {
    if (!committed.includes(name) || !built.includes(name)) return true;
    return !readFileSync(join("dist", name)).equals(readFileSync(join(fresh, name)));
  });
  if (stale.length > 0) {
    console.error(`dist/ is stale: ${stale.join(", ")} differ from a fresh build.`);
    console.error("Run `npm run build` and commit dist/.");
    if (kept !== undefined) console.error(`The expected dist/ is in ${kept}.`);
    process.exitCode = 1;
  } else {
    console.log(`dist/ is up to date (${built.length} files).`);
  }
} finally {
  if (kept === undefined) rmSync(fresh, { recursive: true, force: true });
}
