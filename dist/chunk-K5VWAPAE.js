import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);

// src/sandbox/protected-paths.ts
import { isAbsolute, posix, relative, sep } from "node:path";
var GITHUB_FOLDER = ".github";
var PITCREW_FOLDER = ".github/pitcrew";
var WORKFLOWS_FOLDER = ".github/workflows";
function protectedPatterns(extra, allowChanges, always = []) {
  return [...allowChanges ? [] : [GITHUB_FOLDER, ...extra.map(normalisePattern)], ...always];
}
function ownActionPaths(workspace, actionRoot) {
  const inside = relative(workspace, actionRoot);
  if (inside === "") return ["action.yml", "dist"];
  if (inside.startsWith("..") || isAbsolute(inside)) return [];
  return [inside.split(sep).join("/")];
}
function normalisePattern(pattern) {
  let result = pattern.trim().replace(/^(\.\/)+/, "");
  while (result.endsWith("/")) result = result.slice(0, -1);
  while (result.endsWith("/**")) result = result.slice(0, -3);
  return result;
}
function patternProblem(pattern) {
  const normal = normalisePattern(pattern);
  if (normal === "") return "is empty";
  if (normal.startsWith("/")) return "must be relative to the repository root, not absolute";
  if (normal.includes("\\")) return "must use / between folders";
  if (/[[\]{}!]/.test(normal)) return "may use only *, ** and ? as wildcards";
  const segments = normal.split("/");
  if (segments.some((segment) => segment === "" || segment === "." || segment === "..")) {
    return "must not contain empty, . or .. folders";
  }
  if (segments.every((segment) => segment === "**")) return "would protect the whole checkout";
  return void 0;
}
var compiled = /* @__PURE__ */ new Map();
function globRegex(pattern) {
  const known = compiled.get(pattern);
  if (known) return known;
  let source = "";
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index] ?? "";
    const wholeSegment = index === 0 || pattern[index - 1] === "/";
    if (char === "*" && pattern[index + 1] === "*" && wholeSegment) {
      const after = pattern[index + 2];
      if (after === "/") {
        source += "(?:[^/]+/)*";
        index += 2;
        continue;
      }
      if (after === void 0) {
        source += ".*";
        index += 1;
        continue;
      }
    }
    if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else source += char.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  const regex = new RegExp(`^${source}$`);
  compiled.set(pattern, regex);
  return regex;
}
function selfAndAncestors(path) {
  const parts = posix.normalize(path).split("/").filter(Boolean);
  return parts.map((_, index) => parts.slice(0, index + 1).join("/"));
}
function isWithin(path, folder) {
  return path === folder || path.startsWith(`${folder}/`);
}
function matchesPattern(path, pattern) {
  return globRegex(pattern).test(path);
}
function protectingPattern(path, patterns) {
  const chain = selfAndAncestors(path);
  if (chain.length === 0) return void 0;
  const full = chain[chain.length - 1] ?? "";
  return patterns.find((pattern) => {
    if (pattern === GITHUB_FOLDER && isWithin(full, PITCREW_FOLDER)) return false;
    return chain.some((prefix) => matchesPattern(prefix, pattern));
  });
}
function literalPrefix(pattern) {
  const segments = pattern.split("/");
  const literal = [];
  for (const segment of segments) {
    if (/[*?]/.test(segment)) break;
    literal.push(segment);
  }
  return literal.join("/");
}

export {
  GITHUB_FOLDER,
  PITCREW_FOLDER,
  WORKFLOWS_FOLDER,
  protectedPatterns,
  ownActionPaths,
  patternProblem,
  matchesPattern,
  protectingPattern,
  literalPrefix
};
