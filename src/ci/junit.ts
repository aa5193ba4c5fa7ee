/**
 * JUnit XML as the test tools write it (jest-junit, Surefire/Gradle, pytest, cargo-nextest, go-junit-
 * report…): the failing test cases (`<failure>` or `<error>`), each with its first message line,
 * and the flaky ones (Surefire's `<flakyFailure>` / `<flakyError>` / `<rerunFailure>`: failed, then
 * passed on a re-run), which are not failures. Read with a scanner of the few elements that matter,
 * not a general XML parser: reports are machine-written, and a malformed one is a named error.
 */
import { PitcrewError } from "../errors.ts";

export interface JunitCase {
  /** `classname.name` (Java, Python), `classname::name` (Rust), `classname › name` (jest). */
  id: string;
  message: string;
}

export interface JunitReport {
  failing: JunitCase[];
  flaky: JunitCase[];
}

const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** Text with XML's entities and character references read. */
export function decodeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith("#x") || name.startsWith("#X")) {
      return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    }
    if (name.startsWith("#")) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
    return ENTITIES[name] ?? whole;
  });
}

function attributes(text: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of text.matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    found[match[1]!] = decodeXml(match[2] ?? match[3] ?? "");
  }
  return found;
}

/** The case's id as the tool names it: the classname and the name, joined as its language does. */
function caseId(classname: string, name: string, file: string): string {
  if (classname === "") return file === "" ? name : `${file}::${name}`;
  if (classname.includes("::")) return `${classname}::${name}`;
  if (/\s/.test(classname)) return `${classname} › ${name}`;
  return `${classname}.${name}`;
}

/** The first line that says something: the `message` attribute, else the element's text. */
function messageOf(attributesText: string, body: string): string {
  const message = attributes(attributesText).message ?? "";
  const text = decodeXml(body.replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, "$1").replace(/<[^>]+>/g, ""));
  const line = [message, text]
    .flatMap((part) => part.split("\n"))
    .map((part) => part.trim())
    .find((part) => part !== "");
  return line ?? "";
}

const CASE = /<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g;
const FAILURE = /<(failure|error)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/\1>)/;
const FLAKY =
  /<(flakyFailure|flakyError|rerunFailure|rerunError)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/\1>)/;

/** Whether the text is a JUnit report at all (its root or a suite in its first few KB). */
export function isJunit(text: string): boolean {
  return /<testsuites?[\s>]/.test(text.slice(0, 8192));
}

export function readJunit(xml: string, file = "the report"): JunitReport {
  if (!isJunit(xml)) {
    throw new PitcrewError(
      "ci-report-unreadable",
      `${file} is not a JUnit report: it has no <testsuite> or <testsuites> element.`,
    );
  }
  const failing: JunitCase[] = [];
  const flaky: JunitCase[] = [];
  for (const match of xml.matchAll(CASE)) {
    const own = attributes(match[1] ?? "");
    const body = match[2] ?? "";
    const id = caseId(own.classname ?? "", own.name ?? "", own.file ?? "");
    const failure = FAILURE.exec(body);
    if (failure !== null) {
      failing.push({ id, message: messageOf(failure[2] ?? "", failure[3] ?? "") });
      continue;
    }
    const rerun = FLAKY.exec(body);
    if (rerun !== null) flaky.push({ id, message: messageOf(rerun[2] ?? "", rerun[3] ?? "") });
  }
  return { failing, flaky };
}
