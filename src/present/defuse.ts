/**
 * What keeps text pitcrew posts or pushes (the model's summary, an issue's title, todo items) from
 * acting on anything but its own thread: a closing keyword may name only the thread's own issue,
 * no spelling of a mention notifies anyone, and no image, link or raw HTML pointing anywhere but the
 * repository's own GitHub host is rendered — those are shown as code. Pure functions over text; the
 * secret scan of the same text is not done here (secret-scan.ts).
 *
 * Two renderings. In prose, what is neutralised is shown: a reference or a link in a code span,
 * `<` as `&lt;`, `&` as `&amp;` (so `&#64;bob` shows as written), a zero-width space after `@`.
 * In code (inline spans, fenced blocks whose extent GitHub could read differently), where a visible
 * change would alter the code people copy, the same constructs are broken by a zero-width space at
 * the one character their syntax needs; that still neutralises them if GitHub renders the "code"
 * as prose after all, so no code-fence or backtick trick can bring a live image out.
 */
import type { Task } from "../domain/task.ts";

/** Whom posted text may address: the repository's own GitHub host, the repository, the thread. */
export interface Audience {
  /** `github.com`, or the GHES host (with port, if any), lower-case. */
  host: string;
  owner: string;
  repo: string;
  /** The issue this thread works: the only one a closing keyword may name. */
  issue?: number;
}

const ZWSP = "\u200b";

/**
 * The audience of a thread's posts. The run's page (`<server>/<owner>/<repo>/actions/runs/<id>`,
 * built from GITHUB_SERVER_URL and GITHUB_REPOSITORY) names the host and the repository.
 */
export function audienceOf(task: Pick<Task, "thread">, runUrl: string): Audience {
  let host = "github.com";
  let owner = "";
  let repo = "";
  try {
    const url = new URL(runUrl);
    host = url.host.toLowerCase();
    [owner = "", repo = ""] = url.pathname.split("/").filter((part) => part !== "");
  } catch {
    // An unparsable run URL leaves no repository to match: every link is then outside.
  }
  const issue = task.thread.kind === "issue" ? task.thread.number : undefined;
  return { host, owner, repo, ...(issue === undefined ? {} : { issue }) };
}

// ---- What counts as outside -------------------------------------------------------------------

/**
 * Whether a link or image target stays on the repository's own GitHub host (relative ones do).
 * A target with a character reference or a backslash escape is outside: Markdown decodes those
 * (`https&#58;//host`, `https\://host`) before the browser reads the URL.
 */
export function onOwnHost(target: string, audience: Audience): boolean {
  if (/[&\\]/.test(target)) return false;
  try {
    const base = `https://${audience.host}/${audience.owner}/${audience.repo}/`;
    const url = new URL(target.replace(/^<|>$/g, ""), base);
    return (url.protocol === "https:" || url.protocol === "http:") && url.host === audience.host;
  } catch {
    return false;
  }
}

function sameRepository(owner: string | undefined, repo: string | undefined, a: Audience): boolean {
  return (
    owner !== undefined &&
    repo !== undefined &&
    owner.toLowerCase() === a.owner.toLowerCase() &&
    repo.toLowerCase() === a.repo.toLowerCase()
  );
}

// ---- Closing keywords -------------------------------------------------------------------------

const KEYWORD = String.raw`(?<![A-Za-z0-9_])(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)`;
/** Between keyword and reference: spaces, line breaks, a colon, emphasis, a parenthesis, escapes. */
const SEPARATOR = String.raw`(?:[\s:*_~(\\]+|(?=[#\[]))`;
const URL_CHARS = String.raw`[^\s<>\x60|()\[\]"']`;
const REFERENCE = [
  String.raw`\[[^\]\n\x60]*\]\(\s*${URL_CHARS}*\s*\)`,
  String.raw`https?:\/\/${URL_CHARS}+`,
  String.raw`(?:[A-Za-z0-9][A-Za-z0-9-]*\/[A-Za-z0-9._-]+)?#\d+`,
  String.raw`gh-\d+`,
].join("|");
const CLOSING = new RegExp(`(${KEYWORD}${SEPARATOR})(${REFERENCE})`, "gi");

/** Whether a reference after a closing keyword names the thread's own issue. */
function ownIssue(reference: string, audience: Audience): boolean {
  if (audience.issue === undefined) return false;
  const link = /^\[[^\]]*\]\(\s*(\S*)\s*\)$/.exec(reference)?.[1];
  const target = link ?? reference;
  if (/^https?:/i.test(target)) {
    if (!onOwnHost(target, audience)) return false;
    const path = /^\/([^/]+)\/([^/]+)\/issues\/(\d+)\/?$/.exec(new URL(target).pathname);
    return (
      path !== null &&
      sameRepository(path[1], path[2], audience) &&
      Number(path[3]) === audience.issue
    );
  }
  if (link !== undefined) return false;
  const short = /^(?:([^/#]+)\/([^#]+))?(?:#|gh-)(\d+)$/i.exec(reference);
  if (short === null || Number(short[3]) !== audience.issue) return false;
  return short[1] === undefined || sameRepository(short[1], short[2], audience);
}

/**
 * Every closing keyword that names another issue, neutralised: `shown` puts the reference in a
 * code span (GitHub links no reference inside code, so nothing is linked to close), otherwise a
 * zero-width space goes before its number (or between its URL's slashes), which no reader sees.
 */
export function neutraliseClosing(text: string, audience: Audience, shown: boolean): string {
  return text.replace(CLOSING, (whole, lead: string, reference: string) => {
    if (ownIssue(reference, audience)) return whole;
    if (shown) return `${lead}${codeSpanOf(reference, text)}`;
    return `${lead}${reference.replace("//", `/${ZWSP}/`).replace(/(#|gh-)(\d)/gi, `$1${ZWSP}$2`)}`;
  });
}

// ---- Mentions and character references --------------------------------------------------------

/** `@name`, `@org/team`, and the fullwidth and small at signs GitHub may read as one. */
const MENTION = /(^|[^A-Za-z0-9_])([@\uFF20\uFE6B])(?=[A-Za-z0-9])/g;

function defuseMentions(text: string): string {
  return text.replace(MENTION, `$1$2${ZWSP}`);
}

// ---- Prose: what is neutralised is shown -------------------------------------------------------

/** A code span that no backtick in `context` can close early: its fence is longer than any. */
function codeSpanOf(text: string, context: string): string {
  const ticks = "`".repeat(longestRun(context, "`") + 1);
  return `${ticks}${text}${ticks}`;
}

/** The longest run of `char` in `text`: a code span or fence must be longer to hold it. */
export function longestRun(text: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === char ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return longest;
}

/** A piece of prose: `kept` pieces are final (code spans we made, links kept as written). */
interface Piece {
  text: string;
  kept: boolean;
  /** A code span we made: it must not touch a backtick or follow a backslash. */
  span?: boolean;
}

/** Splits the free pieces at `pattern`'s matches, each rendered by `render` (undefined: free). */
function carve(
  pieces: Piece[],
  pattern: RegExp,
  render: (match: RegExpExecArray) => Piece[] | undefined,
): Piece[] {
  return pieces.flatMap((piece) => {
    if (piece.kept) return [piece];
    const out: Piece[] = [];
    let at = 0;
    for (const match of piece.text.matchAll(pattern)) {
      const rendered = render(match);
      if (rendered === undefined) continue;
      out.push({ text: piece.text.slice(at, match.index), kept: false }, ...rendered);
      at = match.index + match[0].length;
    }
    out.push({ text: piece.text.slice(at), kept: false });
    return out;
  });
}

/** A link destination: no spaces, parentheses balanced one deep (`javascript:alert(1)`). */
const DESTINATION = String.raw`(?:${URL_CHARS}|\(${URL_CHARS}*\))*`;
const LABEL = String.raw`[^\[\]\n\x60|]*(?:\[[^\[\]\n\x60|]*\][^\[\]\n\x60|]*)*`;
const TITLE = String.raw`(?:\s+(?:"[^"\n\x60|]*"|'[^'\n\x60|]*'|\([^()\n\x60|]*\)))?`;
const INLINE_LINK = new RegExp(
  String.raw`(!?)\[(${LABEL})\]\((\s*(<[^<>\n\x60|]*>|${DESTINATION})${TITLE}\s*)\)`,
  "g",
);
/** The destination of a link whose text could not be read whole (code in it, deeper brackets). */
const LINK_TARGET = new RegExp(String.raw`(?<=\]\(\s*<?)(?:${URL_CHARS}|\(${URL_CHARS}*\))+`, "g");
/** A URL GitHub could link, or an image's target on the line after its `](`: protocol-relative. */
const BARE_URL = new RegExp(
  String.raw`(?:[a-z][a-z0-9+.-]*:\/\/|www\.|(?<![\w:/])\/\/(?=[\w-]))${URL_CHARS}+`,
  "gi",
);

/** Free prose text: `&` and `<` shown as written, mentions defused. */
function escapeProse(text: string): string {
  return defuseMentions(text.replace(/&/g, "&amp;").replace(/</g, "&lt;"));
}

/**
 * One stretch of prose (no code in it as far as we can tell): references after a closing keyword
 * and links or images to other hosts become code spans, a link to the repository's host keeps its
 * target, and everything else is escaped. `context` is the whole text (the code spans' backtick
 * fences are longer than any run in it); `before` and `after` are the characters around `text`.
 */
function defuseProse(
  text: string,
  audience: Audience,
  context: string,
  before = "",
  after = "",
): string {
  const code = (shown: string): Piece[] => [
    { text: codeSpanOf(shown.replace(/\|/g, "\\|"), context), kept: true, span: true },
  ];
  let pieces: Piece[] = [{ text, kept: false }];
  pieces = carve(pieces, CLOSING, (m) => {
    const [, lead = "", reference = ""] = m;
    if (ownIssue(reference, audience)) return undefined;
    return [{ text: lead, kept: false }, ...code(reference)];
  });
  pieces = carve(pieces, INLINE_LINK, (m) => {
    const [whole, bang = "", label = "", inside = "", target = ""] = m;
    if (!onOwnHost(target, audience)) return code(whole);
    return [{ text: `${bang}[${escapeProse(label)}](${inside})`, kept: true }];
  });
  pieces = carve(pieces, LINK_TARGET, (m) => (onOwnHost(m[0], audience) ? undefined : code(m[0])));
  pieces = carve(pieces, BARE_URL, (m) => {
    const url = m[0].replace(/[.,;:!?*_~]+$/, "");
    const target = /^www\./i.test(url) ? `https://${url}` : url;
    if (onOwnHost(target, audience)) return undefined;
    return [...code(url), { text: m[0].slice(url.length), kept: false }];
  });
  let out = "";
  pieces.forEach((piece, index) => {
    if (!piece.span) {
      out += piece.kept ? piece.text : escapeProse(piece.text);
      return;
    }
    // A span we add must not merge with a neighbouring backtick or follow a backslash.
    const left = out === "" ? before : out.slice(-1);
    const right = pieces.slice(index + 1).find((next) => next.text !== "")?.text[0] ?? after;
    const pad = (char: string, also: string): string => (char === "`" || char === also ? ZWSP : "");
    out += `${pad(left, "\\")}${piece.text}${pad(right, "`")}`;
  });
  return out;
}

// ---- Code: what is neutralised is broken invisibly ---------------------------------------------

/**
 * Code that GitHub might yet render as prose: every construct that could act is broken by a
 * zero-width space at the character its syntax needs, which changes nothing a reader sees.
 */
function defuseCode(text: string, audience: Audience): string {
  return defuseMentions(
    text
      .replace(/<(?=[A-Za-z/!?])/g, `<${ZWSP}`)
      .replace(/\](?=[(:])/g, `]${ZWSP}`)
      .replace(/&(?=#|[A-Za-z][A-Za-z0-9]*;)/g, `&${ZWSP}`)
      .replace(BARE_URL, (url) => {
        const target = /^www\./i.test(url) ? `https://${url}` : url;
        if (onOwnHost(target, audience)) return url;
        return /^www\./i.test(url) ? `www${ZWSP}${url.slice(3)}` : url.replace("//", `/${ZWSP}/`);
      }),
  );
}

// ---- Inline code spans ------------------------------------------------------------------------

/** A line split into prose and inline code spans (backslash-escaped backticks open nothing). */
function inlineParts(line: string): { text: string; code: boolean }[] {
  const parts: { text: string; code: boolean }[] = [];
  let at = 0;
  let from = 0;
  while (from < line.length) {
    const open = line.indexOf("`", from);
    if (open === -1) break;
    let end = open;
    while (line[end] === "`") end += 1;
    let slashes = 0;
    while (line[open - 1 - slashes] === "\\") slashes += 1;
    // An escaped backtick is literal; the rest of its run may still open a span.
    const start = slashes % 2 === 1 ? open + 1 : open;
    const ticks = end - start;
    const close = ticks === 0 ? -1 : closingRun(line, end, ticks);
    if (close === -1) {
      from = end;
      continue;
    }
    parts.push({ text: line.slice(at, start), code: false });
    parts.push({ text: line.slice(start, close + ticks), code: true });
    at = close + ticks;
    from = at;
  }
  parts.push({ text: line.slice(at), code: false });
  return parts.filter((part) => part.text !== "");
}

/** Where the next run of exactly `ticks` backticks starts, from `from` on; -1 if none. */
function closingRun(line: string, from: number, ticks: number): number {
  for (let at = line.indexOf("`", from); at !== -1; at = line.indexOf("`", at)) {
    let end = at;
    while (line[end] === "`") end += 1;
    if (end - at === ticks) return at;
    at = end;
  }
  return -1;
}

const DEFINITION = /^ {0,3}\[[^\]]*\]:[ \t]*(\S*)/;

/** One line of inline Markdown (not a fence line), with the whole text as context. */
function defuseLine(line: string, audience: Audience, context: string): string {
  // A link reference definition to another host (or with its target on the next line) would make
  // `[text][label]` and `![alt][label]` elsewhere live: it is shown as code, and so defines nothing.
  const definition = DEFINITION.exec(line);
  if (definition !== null) {
    const target = definition[1] ?? "";
    if (target === "" || !onOwnHost(target, audience))
      return codeSpanOf(line.trim().replace(/\|/g, "\\|"), context);
  }
  let at = 0;
  return inlineParts(line)
    .map((part) => {
      const start = at;
      at += part.text.length;
      if (part.code) return defuseCode(part.text, audience);
      return defuseProse(part.text, audience, context, line[start - 1], line[at]);
    })
    .join("");
}

/**
 * One line of someone else's Markdown, to embed inline (a todo item, an error's sentence): prose
 * defused as shown, inline code defused invisibly.
 */
export function defuseInline(line: string, audience: Audience): string {
  return neutraliseClosing(defuseLine(line, audience, line), audience, false);
}

// ---- Whole Markdown documents -----------------------------------------------------------------

const FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/;

type LineKind = "kept" | "code" | "prose";

/**
 * Someone else's Markdown (the model's summary), made safe to post: fenced code kept as written
 * where GitHub must read it as we do (a fence at the margin, or indented by one space: no list item
 * can hold it), an unclosed fence closed so it cannot swallow what follows, every other line
 * defused. A fence indented two or three spaces may sit in a list item and end where that item
 * ends, so from the first one on nothing is trusted to be code: code is defused invisibly, prose as
 * shown. Closing keywords are neutralised even inside code, which a squash merge may copy into a
 * commit message where no Markdown applies.
 */
export function defuseMarkdown(markdown: string, audience: Audience): string {
  const lines = markdown.split("\n");
  const { kinds, open } = fenceKinds(lines);
  // The code spans made in prose need fences longer than any backtick run GitHub may read inline.
  const context = lines.filter((_, index) => kinds[index] !== "kept").join("\n");
  const out = lines.map((line, index) => {
    const kind = kinds[index];
    if (kind === "kept") return line;
    if (kind === "code") return defuseCode(line, audience);
    return defuseLine(line, audience, context);
  });
  if (open !== undefined) out.push(open);
  return neutraliseClosing(out.join("\n"), audience, false);
}

/**
 * Each line's part in the document: `kept` in a fence GitHub must read as we do, `code` in a fence
 * it might read otherwise, `prose` elsewhere; `open` is the closing fence an unclosed block needs.
 */
function fenceKinds(lines: readonly string[]): { kinds: LineKind[]; open?: string } {
  const kinds: LineKind[] = [];
  let fence: { char: string; length: number; indent: string } | null = null;
  let trusted = true;
  for (const line of lines) {
    const marker = FENCE.exec(line);
    const [, indent = "", run = "", rest = ""] = marker ?? [];
    if (fence === null) {
      // A backtick fence's info string has no backticks; with one, the line is inline code.
      const opens = marker !== null && !(run.startsWith("`") && rest.includes("`"));
      if (!opens) {
        kinds.push("prose");
        continue;
      }
      fence = { char: run.charAt(0), length: run.length, indent };
      if (indent.length >= 2) trusted = false;
      kinds.push(trusted ? "kept" : "code");
      continue;
    }
    kinds.push(trusted ? "kept" : "code");
    if (
      marker !== null &&
      run.startsWith(fence.char) &&
      run.length >= fence.length &&
      /^[ \t]*$/.test(rest)
    )
      fence = null;
  }
  return fence === null
    ? { kinds }
    : { kinds, open: `${fence.indent}${fence.char.repeat(fence.length)}` };
}

/**
 * Plain text that GitHub shows as written but still reads for references and mentions: a pull
 * request title, a commit message (which closes issues once it reaches the default branch).
 */
export function defusePlain(text: string, audience: Audience): string {
  return defuseMentions(neutraliseClosing(text, audience, true));
}
