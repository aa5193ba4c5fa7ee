/**
 * pitcrew's version, for `pitcrew --version`: baked into dist/ by scripts/build.mjs (esbuild's
 * `define`), so a bundle copied anywhere still knows it; read from package.json when running from
 * the sources.
 */
import { readFileSync } from "node:fs";

declare const PITCREW_BUILD_VERSION: string | undefined;

export function pitcrewVersion(): string {
  if (typeof PITCREW_BUILD_VERSION === "string") return PITCREW_BUILD_VERSION;
  const manifest = JSON.parse(
    readFileSync(new URL("../package.json", import.meta.url), "utf8"),
  ) as { version: string };
  return manifest.version;
}
