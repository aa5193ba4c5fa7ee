/**
 * A repository's origin for the harness's git tests: a bare repository whose `main` holds the
 * given files, a full clone (`seed`) to change it from, and checkouts made as actions/checkout
 * makes them (depth 1). Removed with `removeOrigins` in the test file's `after`.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { PitcrewError } from "../../src/errors.ts";
import { fixtureGit } from "./fixture-repo.ts";

export interface Origin {
  root: string;
  /** The bare repository. */
  origin: string;
  /** A full clone to change origin from. */
  seed: string;
}

const roots: string[] = [];

export function removeOrigins(): void {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
}

export function write(dir: string, file: string, text: string): void {
  mkdirSync(dirname(join(dir, file)), { recursive: true });
  writeFileSync(join(dir, file), text);
}

/** A bare origin whose `main` holds `files` in one commit, pushed from `seed`. */
export function createOrigin(name: string, files: Record<string, string>): Origin {
  const root = realpathSync(mkdtempSync(join(tmpdir(), `pitcrew-${name}-`)));
  roots.push(root);
  const origin = join(root, "origin.git");
  const seed = join(root, "seed");
  mkdirSync(seed);
  fixtureGit(root, "init", "-q", "--bare", "-b", "main", origin);
  fixtureGit(seed, "init", "-q", "-b", "main");
  for (const [file, text] of Object.entries(files)) write(seed, file, text);
  fixtureGit(seed, "add", ".");
  fixtureGit(seed, "commit", "-q", "-m", "seed");
  fixtureGit(seed, "remote", "add", "origin", origin);
  fixtureGit(seed, "push", "-q", "origin", "main");
  return { root, origin, seed };
}

let clones = 0;
/** The checkout the action works in: a depth-1 clone of main, as actions/checkout makes it. */
export function checkout(remote: Origin, url = `file://${remote.origin}`): string {
  const workspace = join(remote.root, `workspace-${++clones}`);
  fixtureGit(remote.root, "clone", "-q", "--depth", "1", url, workspace);
  return workspace;
}

/** Awaits a rejection with the named PitcrewError and returns it. */
export async function rejectsNamed(promise: Promise<unknown>, code: string): Promise<PitcrewError> {
  const error = await promise.then(
    () => assert.fail(`expected ${code}`),
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof PitcrewError, String(error));
  assert.equal(error.code, code, error.message);
  return error;
}
