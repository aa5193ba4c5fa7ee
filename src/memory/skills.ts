/**
 * The repository's skills: Markdown playbooks under `.github/pitcrew/skills/`, read from the base
 * commit's objects (never the working tree, which the agent may change), so what a run is guided
 * by is what was reviewed and merged. Bounded: a skill past the size limit, or past the count, is
 * left out and named.
 */
import { git } from "../git/git.ts";

export const SKILLS_DIR = ".github/pitcrew/skills";
/** Bytes of one skill, and skills in all, that a run loads. */
export const SKILL_BYTES = 64 * 1024;
export const SKILLS_MAX = 50;

export interface Skills {
  /** Path under the skills folder → its text. */
  files: Map<string, string>;
  /** Skills left out, with why. */
  skipped: string[];
}

/** The skills at commit `sha` of the repository at `repo`. */
export async function loadSkills(repo: string, sha: string): Promise<Skills> {
  const listed = await git(repo, ["ls-tree", "-r", "-l", "-z", sha, "--", `${SKILLS_DIR}/`]);
  const files = new Map<string, string>();
  const skipped: string[] = [];
  for (const entry of listed.stdout.split("\0")) {
    // `<mode> blob <sha> <size>\t<path>`
    const match = /^\d+ blob ([0-9a-f]+) +(\d+)\t(.+)$/s.exec(entry);
    if (match === null) continue;
    const [, blob = "", size = "0", path = ""] = match;
    const name = path.slice(SKILLS_DIR.length + 1);
    if (!name.endsWith(".md")) continue;
    if (Number(size) > SKILL_BYTES) {
      skipped.push(`${name}: over ${SKILL_BYTES / 1024} KiB`);
      continue;
    }
    if (files.size >= SKILLS_MAX) {
      skipped.push(`${name}: past the first ${SKILLS_MAX} skills`);
      continue;
    }
    files.set(name, (await git(repo, ["cat-file", "blob", blob])).stdout);
  }
  return { files, skipped };
}
