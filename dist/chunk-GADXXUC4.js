import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);

// src/config/rules.ts
function complaint(rule, value) {
  const problem = rule.problem(value);
  if (problem === void 0) return void 0;
  return problem === "" ? `takes ${rule.takes}` : `takes ${rule.takes} (${problem})`;
}
function numberRule(takes, holds) {
  return { takes, problem: (value) => Number.isFinite(value) && holds(value) ? void 0 : "" };
}
var WHOLE_ABOVE_ZERO = numberRule(
  "a whole number above 0",
  (value) => Number.isInteger(value) && value > 0
);
var ABOVE_ZERO = numberRule("a number above 0", (value) => value > 0);
var BUDGET = numberRule("a number, 0 or more (0: no budget)", (value) => value >= 0);
var WHOLE_BUDGET = numberRule(
  "a whole number, 0 or more (0: no budget)",
  (value) => Number.isInteger(value) && value >= 0
);
var DISK_RESERVE = numberRule(
  "a whole number of MiB, 0 or more (0: no reserve)",
  (value) => Number.isInteger(value) && value >= 0
);
var FLAG_TAKES = "true or false";
var SAMPLE_BRANCH = "issue-1";
var BRANCH_PREFIX = {
  takes: "the start of a git branch name, such as pitcrew/",
  problem: (prefix) => prefix === "" ? "it may not be empty" : branchNameProblem(`${prefix}${SAMPLE_BRANCH}`)
};
var REFUSED_CHARACTERS = /* @__PURE__ */ new Set(["\x7F", "~", "^", ":", "?", "*", "[", "\\"]);
function branchNameProblem(name) {
  if ([...name].some((char) => char <= " " || REFUSED_CHARACTERS.has(char))) {
    return "no spaces, control characters or any of ~ ^ : ? * [ \\";
  }
  if (name.startsWith("-")) return "it may not start with '-'";
  if (name.includes("..")) return "no '..'";
  if (name.includes("@{")) return "no '@{'";
  if (name.startsWith("/") || name.endsWith("/") || name.includes("//")) {
    return "no '/' at the start or end and no '//'";
  }
  if (name.endsWith(".")) return "it may not end with '.'";
  for (const part of name.split("/")) {
    if (part.startsWith(".")) return "no part between slashes may start with '.'";
    if (part.endsWith(".lock")) return "no part between slashes may end with '.lock'";
  }
  return void 0;
}

export {
  complaint,
  WHOLE_ABOVE_ZERO,
  ABOVE_ZERO,
  BUDGET,
  WHOLE_BUDGET,
  DISK_RESERVE,
  FLAG_TAKES,
  BRANCH_PREFIX
};
