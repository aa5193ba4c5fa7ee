import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  scanForSecrets,
  scanNames,
  showSource
} from "./chunk-3WPQHTFM.js";
import {
  MEMORY_ROOT
} from "./chunk-4CVXQSD5.js";
import {
  applyEdit,
  argumentProblem,
  editProblem
} from "./chunk-6LOFZIYU.js";
import {
  PitcrewError
} from "./chunk-QPB5RBCF.js";

// src/memory/store.ts
import { Buffer } from "node:buffer";

// src/memory/injection.ts
var ADDRESSEE = /\b(?:pitcrew|the agent|(?:ai|coding) agent|(?:the |an? )?assistant|the model|the bot|the llm|claude|chatgpt|gpt)\b/i;
var ADDRESSED_ORDER = new RegExp(
  `${ADDRESSEE.source}\\s*(?:[,:\u2014]|\\b(?:must|should|shall|will|always|never|needs? to|has to|is (?:required|allowed|expected) to|may now)\\b)`,
  "i"
);
var DANGEROUS_ORDER = /\b(?:push|force[- ]push|commit|merge|deploy|exfiltrate|upload|send|post|leak|print|echo|reveal|dump|read|cat|email)\b[^\n]{0,80}\b(?:secrets?|tokens?|credentials?|api[_ -]?keys?|passwords?|env(?:ironment)?(?: variables)?|directly to (?:main|master)|to (?:main|master)|without (?:review|a pr|a pull request|asking|approval))\b/i;
var PIPE_TO_SHELL = /\b(?:curl|wget|fetch)\b[^\n]*\|\s*(?:sudo\s+)?(?:ba|z|da|k|fi)?sh\b|\b(?:ba|z)?sh\s+(?:-c\s+)?["']?<\(\s*(?:curl|wget)\b|\beval\s+["']?\$\(\s*(?:curl|wget)\b|base64\s+(?:-d|--decode)\b[^\n]*\|\s*(?:ba|z)?sh\b/i;
var SECRET_READ = /\b(?:echo|print|printenv|cat|reveal|dump|show|output|send|post|upload)\b[^\n]{0,40}(?:\$\{?[A-Z0-9_]*(?:TOKEN|SECRET|API_KEY|PASSWORD)\b|~\/\.ssh\b|\bid_(?:rsa|ed25519)\b|\.aws\/credentials|\/proc\/(?:self|\d+)\/environ|\.git-credentials|\.netrc\b)/i;
var ZERO_WIDTH = /[\u200B-\u200D\u2060-\u2064\u180E]|(?<!^)\uFEFF/u;
var BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/u;
var TAGS = /[\u{E0000}-\u{E007F}]/u;
function longBase64(text) {
  for (const match of text.matchAll(/[A-Za-z0-9+/_-]{201,}={0,2}/g)) {
    const run = match[0];
    if (/[A-Z]/.test(run) && /[a-z]/.test(run) && /[0-9]/.test(run)) return true;
  }
  return false;
}
var RULES = [
  {
    reason: "hides text in zero-width or invisible characters",
    raw: true,
    test: (text) => ZERO_WIDTH.test(text) || TAGS.test(text)
  },
  {
    reason: "holds bidirectional control characters (text shown in another order than it reads)",
    raw: true,
    test: (text) => BIDI.test(text)
  },
  {
    reason: "hides text in an HTML comment",
    test: (text) => /<!--[\s\S]*?(?:-->|$)/.test(text)
  },
  { reason: "holds a long base64 blob (hidden content)", test: longBase64 },
  {
    reason: "asks the agent to ignore its instructions",
    test: (text) => /\b(?:ignore|disregard|forget|override|bypass)\b[^.\n]{0,40}\b(?:previous|prior|above|earlier|preceding|original|initial|system|safety|your)\b[^.\n]{0,20}\b(?:instructions?|prompts?|rules|directions|directives|guidelines|guardrails|policies|restrictions)\b/i.test(
      text
    ) || /\bdisregard\b[^.\n]{0,30}\b(?:instructions?|rules|guidelines|guardrails|restrictions)\b/i.test(
      text
    ) || /\b(?:ignore|disregard|forget)\s+(?:everything|all)\s+(?:above|before|you (?:were|have been) told)\b/i.test(
      text
    )
  },
  {
    reason: "tries to give the agent a new role",
    test: (text) => /\byou are now\b|\bfrom now on,? you\b|\bpretend (?:to be|you are)\b|\bact as (?:an? |the )?(?:unrestricted|jailbroken|different|new)\b|\b(?:developer|god|dan) mode\b/i.test(
      text
    )
  },
  {
    reason: "talks to the agent about its system prompt",
    test: (text) => /\bsystem[ -]?prompt\b/i.test(text)
  },
  {
    reason: "imitates a system or chat message",
    test: (text) => /<\|(?:im_start|im_end|system|user|assistant|endoftext)\|>|\[\/?INST\]|<\/?(?:system|instructions?)>/i.test(
      text
    )
  },
  {
    reason: "addresses the agent instead of recording a fact",
    test: (text) => /\bif you are (?:an? )?(?:ai|llm|language model|assistant|agent|bot)\b|\b(?:new |hidden |secret )?instructions? (?:for|to) (?:the |any )?(?:agent|assistant|ai|model|llm|pitcrew|bot)\b/i.test(
      text
    )
  },
  {
    reason: "asks the agent to hide something from people",
    test: (text) => /\b(?:do not|don't|never)\s+(?:tell|inform|mention (?:it|this) to|reveal (?:it|this) to|alert|notify)\b[^.\n]{0,30}\b(?:users?|maintainers?|humans?|anyone|anybody|reviewers?|people|them|team|owners?)\b|\bwithout (?:telling|informing|notifying) (?:the |any )?(?:users?|maintainers?|humans?|anyone|reviewers?|people|team|owners?)\b|\bkeep (?:this|it) (?:a )?secret\b/i.test(
      text
    )
  },
  {
    reason: "asks the agent to run a script fetched from the network",
    test: (text) => PIPE_TO_SHELL.test(text)
  },
  {
    reason: "asks the agent to read or send secrets",
    test: (text) => /\bexfiltrat/i.test(text) || SECRET_READ.test(text)
  },
  {
    reason: "orders the agent to push, commit or hand over secrets",
    test: (text) => text.split("\n").some((line) => ADDRESSED_ORDER.test(line) && DANGEROUS_ORDER.test(line))
  }
];
function injectionFlag(text) {
  const plain = text.normalize("NFKC");
  for (const rule of RULES) {
    if (rule.test(rule.raw === true ? text : plain)) return rule.reason;
  }
  return void 0;
}

// src/memory/store.ts
var MEMORY_BRANCH = "pitcrew-memory";
var MEMORY_LIMITS = {
  /** Bytes of one file. */
  fileBytes: 16 * 1024,
  /** Bytes of every file together. */
  totalBytes: 256 * 1024,
  files: 100,
  /** Characters of a path. */
  pathLength: 200
};
var DEFAULT_RETRIES = 5;
var FIRST_LINE_LENGTH = 100;
function firstLine(text) {
  const line = text.split("\n").find((candidate) => candidate.trim() !== "") ?? "";
  const trimmed = line.trim();
  return trimmed.length > FIRST_LINE_LENGTH ? `${trimmed.slice(0, FIRST_LINE_LENGTH - 1)}\u2026` : trimmed;
}
function memoryPathProblem(path) {
  if (path === "") return "it is empty";
  if (path.length > MEMORY_LIMITS.pathLength) {
    return `it is longer than ${MEMORY_LIMITS.pathLength} characters`;
  }
  if (path.includes("\0")) return "it holds a NUL character";
  if ([...path].some((char) => char.charCodeAt(0) < 32 || char === "\x7F")) {
    return "it holds a control character (a line break, a tab)";
  }
  if (path.startsWith("/")) return "it starts with /; give it relative to /memory/";
  const segments = path.split("/");
  if (segments.includes("")) return "it has an empty folder name (// or a trailing /)";
  if (segments.includes("..") || segments.includes(".")) return "it has a . or .. folder";
  if (segments.some((segment) => segment.toLowerCase() === ".git")) return "it has a .git folder";
  return void 0;
}
function placeProblem(path, files) {
  for (const file of files) {
    if (file.path.startsWith(`${path}/`)) return "it is a folder of memory, not a file";
    if (path.startsWith(`${file.path}/`)) {
      return `${MEMORY_ROOT}${file.path} is a file, so it cannot hold other files`;
    }
  }
  return void 0;
}
function limit(bytes) {
  return `${bytes / 1024} KiB (${bytes} bytes)`;
}
function describeFindings(findings) {
  const shown = [
    ...new Set(findings.map((f) => f.line > 0 ? `${f.kind} on line ${f.line}` : f.kind))
  ];
  const more = shown.length > 5 ? ` and ${shown.length - 5} more` : "";
  return shown.slice(0, 5).join(", ") + more;
}
function trailerValue(value) {
  return value.replace(/[\r\n]+/g, " ").trim();
}
function commitMessage(verb, path, author) {
  const login = trailerValue(author.requestedBy).replace(/^@/, "");
  return [
    `pitcrew memory: ${verb} ${path}`,
    "",
    `Pitcrew-Run: ${trailerValue(author.run)}`,
    `Pitcrew-Thread: ${trailerValue(author.thread)}`,
    `Pitcrew-Requested-By: @${login}`
  ].join("\n");
}
function createMemoryStore(options) {
  const port = options.git;
  const branch = options.branch ?? MEMORY_BRANCH;
  const ref = options.ref ?? `heads/${branch}`;
  const where = options.ref === void 0 ? `the ${branch} branch` : `refs/${ref}`;
  const retries = options.retries ?? DEFAULT_RETRIES;
  const { secrets, author } = options;
  if (!Number.isInteger(retries) || retries < 0) {
    throw new PitcrewError("memory-invalid", `retries must be a whole number \u2265 0, not ${retries}.`);
  }
  const shownPath = (path) => `${MEMORY_ROOT}${showSource(path, secrets)}`;
  const checkPath = (path) => {
    const problem = memoryPathProblem(path);
    if (problem !== void 0) {
      throw new PitcrewError(
        "memory-path-invalid",
        `${JSON.stringify(shownPath(path))} cannot be a memory file: ${problem}. Give a path inside ${MEMORY_ROOT} such as ${MEMORY_ROOT}db.md or ${MEMORY_ROOT}ci/notes.md.`
      );
    }
    const names = scanNames([path], secrets);
    if (names.length > 0) {
      throw new PitcrewError(
        "memory-secret",
        `Memory was not changed: the file's name holds what looks like a secret (${describeFindings(names)}). Name the file after what it is about.`
      );
    }
  };
  const checkContent = (path, content) => {
    const shown = shownPath(path);
    const bytes = Buffer.byteLength(content, "utf8");
    if (bytes > MEMORY_LIMITS.fileBytes) {
      throw new PitcrewError(
        "memory-too-large",
        `${shown} would be ${bytes} bytes; a memory file holds at most ${limit(MEMORY_LIMITS.fileBytes)}. Shorten it to the facts a later run needs (drop what the repository itself says), or split it by topic into smaller files.`
      );
    }
    const findings = scanForSecrets([{ source: shown, text: content }], secrets);
    if (findings.length > 0) {
      throw new PitcrewError(
        "memory-secret",
        `${shown} was not changed: its new content holds what looks like a secret (${describeFindings(findings)}). Memory is kept on a branch that everyone who can read the repository can see; leave the value out and say where it comes from instead (for example, which secret or variable holds it).`
      );
    }
  };
  const checkFits = (snapshot2, path, bytes) => {
    const place = placeProblem(path, snapshot2.files);
    if (place !== void 0) {
      throw new PitcrewError(
        "memory-path-invalid",
        `${shownPath(path)} cannot be written: ${place}. Choose another path.`
      );
    }
    const others = snapshot2.files.filter((file) => file.path !== path);
    const count = others.length + 1;
    if (count > MEMORY_LIMITS.files) {
      throw new PitcrewError(
        "memory-too-large",
        `Memory would hold ${count} files; it holds at most ${MEMORY_LIMITS.files}. Merge related notes into an existing file (edit it) instead of adding ${shownPath(path)}.`
      );
    }
    const total = others.reduce((sum, file) => sum + file.size, bytes);
    if (total > MEMORY_LIMITS.totalBytes) {
      throw new PitcrewError(
        "memory-too-large",
        `Memory would hold ${total} bytes in all; it holds at most ${limit(MEMORY_LIMITS.totalBytes)}. Shorten ${shownPath(path)} or other memory files, or merge files that say the same things.`
      );
    }
  };
  const snapshot = async () => {
    const parent = await port.refSha(ref);
    if (parent === void 0) return { parent, tree: void 0, files: [] };
    const { tree } = await port.commit(parent);
    return { parent, tree, files: await port.treeFiles(tree) };
  };
  const text = async (file) => (await port.blob(file.sha)).toString("utf8");
  const land = async (verb, path, change) => {
    let blob;
    for (let attempt = 0; attempt <= retries; attempt++) {
      const current = await snapshot();
      const { content, result } = await change(current, attempt > 0);
      checkContent(path, content);
      checkFits(current, path, Buffer.byteLength(content, "utf8"));
      if (blob?.content !== content) {
        blob = { content, sha: await port.createBlob(Buffer.from(content, "utf8")) };
      }
      const tree = await port.createTree([{ path, sha: blob.sha }], current.tree);
      const commit = await port.createCommit({
        message: commitMessage(verb, path, author),
        tree,
        parents: current.parent === void 0 ? [] : [current.parent]
      });
      if (await port.moveRef(ref, commit, current.parent)) return result;
    }
    throw new PitcrewError(
      "memory-busy",
      `${shownPath(path)} was not saved: other runs changed ${where} ${retries + 1} times while this run tried to ${verb} it. Try the ${verb} again in a moment.`
    );
  };
  return {
    async list() {
      const { files } = await snapshot();
      const sorted = [...files].sort((a, b) => a.path < b.path ? -1 : 1);
      return Promise.all(
        sorted.map(async (file) => {
          const content = await text(file);
          const flagged = injectionFlag(content);
          const entry = { path: file.path, bytes: file.size, firstLine: firstLine(content) };
          return flagged === void 0 ? entry : { ...entry, flagged };
        })
      );
    },
    async read(path) {
      checkPath(path);
      const file = (await snapshot()).files.find((candidate) => candidate.path === path);
      return file === void 0 ? void 0 : text(file);
    },
    async write(path, content) {
      checkPath(path);
      checkContent(path, content);
      return land("write", path, (current) => ({
        content,
        result: {
          created: !current.files.some((file) => file.path === path),
          bytes: Buffer.byteLength(content, "utf8")
        }
      }));
    },
    async edit(path, oldString, newString, replaceAll = false) {
      checkPath(path);
      const shown = shownPath(path);
      const problem = argumentProblem(oldString, newString);
      if (problem !== null) {
        throw new PitcrewError("memory-edit-failed", editProblem({ ok: false, problem }, shown));
      }
      const conflict = (what) => new PitcrewError(
        "memory-edit-conflict",
        `Another run changed ${shown} since this run read it, and ${what}. Read ${shown} again and make the edit on what it holds now.`
      );
      return land("edit", path, async (current, retry) => {
        const file = current.files.find((candidate) => candidate.path === path);
        if (file === void 0) {
          if (retry) throw conflict("it no longer exists");
          throw new PitcrewError(
            "memory-edit-failed",
            `${shown} does not exist. Use write to create it.`
          );
        }
        const edited = applyEdit(await text(file), oldString, newString, replaceAll);
        if (edited.ok) return { content: edited.text, result: { replacements: edited.count } };
        if (retry) {
          throw conflict(
            edited.problem === "ambiguous" ? `old_string now matches ${edited.count} places there` : "old_string is no longer found there"
          );
        }
        throw new PitcrewError("memory-edit-failed", editProblem(edited, shown));
      });
    }
  };
}

export {
  injectionFlag,
  MEMORY_BRANCH,
  firstLine,
  createMemoryStore
};
