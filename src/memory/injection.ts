/**
 * Whether a memory file reads as instructions addressed to the agent rather than facts about the
 * repository. Memory is written by earlier runs, unreviewed, and loaded into the next run's
 * prompt: a file that tells the agent to ignore its instructions, hides text, or asks for secrets
 * to be sent somewhere is flagged and kept out of the prompt. A pure function of the text; it is
 * a tripwire for the obvious shapes, not a proof of innocence, and it leans towards letting
 * ordinary notes ("run `make db` before the integration tests", "ignore the warning about X in
 * the build log") through.
 */

interface Rule {
  /** Why the text is flagged, as a listing shows it. */
  reason: string;
  /** Looks at the text as written, not at its NFKC form (which folds some hidden characters). */
  raw?: boolean;
  test(text: string): boolean;
}

/** Who a line can address when it gives the agent orders. */
const ADDRESSEE =
  /\b(?:pitcrew|the agent|(?:ai|coding) agent|(?:the |an? )?assistant|the model|the bot|the llm|claude|chatgpt|gpt)\b/i;

/** An addressee followed by an order: `pitcrew, …`, `the agent must …`, `Assistant: …`. */
const ADDRESSED_ORDER = new RegExp(
  `${ADDRESSEE.source}\\s*(?:[,:—]|\\b(?:must|should|shall|will|always|never|needs? to|has to|is (?:required|allowed|expected) to|may now)\\b)`,
  "i",
);

/** What only an instruction to misuse the run's access would ask for. */
const DANGEROUS_ORDER =
  /\b(?:push|force[- ]push|commit|merge|deploy|exfiltrate|upload|send|post|leak|print|echo|reveal|dump|read|cat|email)\b[^\n]{0,80}\b(?:secrets?|tokens?|credentials?|api[_ -]?keys?|passwords?|env(?:ironment)?(?: variables)?|directly to (?:main|master)|to (?:main|master)|without (?:review|a pr|a pull request|asking|approval))\b/i;

/** A shell fed by the network: `curl … | sh`, `bash <(curl …)`, `eval "$(wget …)"`. */
const PIPE_TO_SHELL =
  /\b(?:curl|wget|fetch)\b[^\n]*\|\s*(?:sudo\s+)?(?:ba|z|da|k|fi)?sh\b|\b(?:ba|z)?sh\s+(?:-c\s+)?["']?<\(\s*(?:curl|wget)\b|\beval\s+["']?\$\(\s*(?:curl|wget)\b|base64\s+(?:-d|--decode)\b[^\n]*\|\s*(?:ba|z)?sh\b/i;

/** Names of secret variables and files that a note never needs the agent to show or send. */
const SECRET_READ =
  /\b(?:echo|print|printenv|cat|reveal|dump|show|output|send|post|upload)\b[^\n]{0,40}(?:\$\{?[A-Z0-9_]*(?:TOKEN|SECRET|API_KEY|PASSWORD)\b|~\/\.ssh\b|\bid_(?:rsa|ed25519)\b|\.aws\/credentials|\/proc\/(?:self|\d+)\/environ|\.git-credentials|\.netrc\b)/i;

/** Zero-width characters (a byte-order mark opening the file is no hiding). */
const ZERO_WIDTH = /[\u200B-\u200D\u2060-\u2064\u180E]|(?<!^)\uFEFF/u;
/** Bidirectional controls: text shown in another order than it is read. */
const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/u;
/** Unicode tag characters: invisible ASCII look-alikes. */
const TAGS = /[\u{E0000}-\u{E007F}]/u;

/** A run of base64 (or base64url) longer than any fact needs. */
function longBase64(text: string): boolean {
  for (const match of text.matchAll(/[A-Za-z0-9+/_-]{201,}={0,2}/g)) {
    const run = match[0];
    if (/[A-Z]/.test(run) && /[a-z]/.test(run) && /[0-9]/.test(run)) return true;
  }
  return false;
}

const RULES: readonly Rule[] = [
  {
    reason: "hides text in zero-width or invisible characters",
    raw: true,
    test: (text) => ZERO_WIDTH.test(text) || TAGS.test(text),
  },
  {
    reason: "holds bidirectional control characters (text shown in another order than it reads)",
    raw: true,
    test: (text) => BIDI.test(text),
  },
  {
    reason: "hides text in an HTML comment",
    test: (text) => /<!--[\s\S]*?(?:-->|$)/.test(text),
  },
  { reason: "holds a long base64 blob (hidden content)", test: longBase64 },
  {
    reason: "asks the agent to ignore its instructions",
    test: (text) =>
      /\b(?:ignore|disregard|forget|override|bypass)\b[^.\n]{0,40}\b(?:previous|prior|above|earlier|preceding|original|initial|system|safety|your)\b[^.\n]{0,20}\b(?:instructions?|prompts?|rules|directions|directives|guidelines|guardrails|policies|restrictions)\b/i.test(
        text,
      ) ||
      /\bdisregard\b[^.\n]{0,30}\b(?:instructions?|rules|guidelines|guardrails|restrictions)\b/i.test(
        text,
      ) ||
      /\b(?:ignore|disregard|forget)\s+(?:everything|all)\s+(?:above|before|you (?:were|have been) told)\b/i.test(
        text,
      ),
  },
  {
    reason: "tries to give the agent a new role",
    test: (text) =>
      /\byou are now\b|\bfrom now on,? you\b|\bpretend (?:to be|you are)\b|\bact as (?:an? |the )?(?:unrestricted|jailbroken|different|new)\b|\b(?:developer|god|dan) mode\b/i.test(
        text,
      ),
  },
  {
    reason: "talks to the agent about its system prompt",
    test: (text) => /\bsystem[ -]?prompt\b/i.test(text),
  },
  {
    reason: "imitates a system or chat message",
    test: (text) =>
      /<\|(?:im_start|im_end|system|user|assistant|endoftext)\|>|\[\/?INST\]|<\/?(?:system|instructions?)>/i.test(
        text,
      ),
  },
  {
    reason: "addresses the agent instead of recording a fact",
    test: (text) =>
      /\bif you are (?:an? )?(?:ai|llm|language model|assistant|agent|bot)\b|\b(?:new |hidden |secret )?instructions? (?:for|to) (?:the |any )?(?:agent|assistant|ai|model|llm|pitcrew|bot)\b/i.test(
        text,
      ),
  },
  {
    reason: "asks the agent to hide something from people",
    test: (text) =>
      /\b(?:do not|don't|never)\s+(?:tell|inform|mention (?:it|this) to|reveal (?:it|this) to|alert|notify)\b[^.\n]{0,30}\b(?:users?|maintainers?|humans?|anyone|anybody|reviewers?|people|them|team|owners?)\b|\bwithout (?:telling|informing|notifying) (?:the |any )?(?:users?|maintainers?|humans?|anyone|reviewers?|people|team|owners?)\b|\bkeep (?:this|it) (?:a )?secret\b/i.test(
        text,
      ),
  },
  {
    reason: "asks the agent to run a script fetched from the network",
    test: (text) => PIPE_TO_SHELL.test(text),
  },
  {
    reason: "asks the agent to read or send secrets",
    test: (text) => /\bexfiltrat/i.test(text) || SECRET_READ.test(text),
  },
  {
    reason: "orders the agent to push, commit or hand over secrets",
    test: (text) =>
      text.split("\n").some((line) => ADDRESSED_ORDER.test(line) && DANGEROUS_ORDER.test(line)),
  },
];

/** Why `text` reads as instructions to the agent, in a few words; undefined when it reads as notes. */
export function injectionFlag(text: string): string | undefined {
  // Hidden characters are looked for in the text as written; words in their plain form, so
  // full-width or compatibility letters spell what they look like.
  const plain = text.normalize("NFKC");
  for (const rule of RULES) {
    if (rule.test(rule.raw === true ? text : plain)) return rule.reason;
  }
  return undefined;
}
