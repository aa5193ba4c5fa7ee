/**
 * A real browser for tests and benchmarks: Debian's chromium driven by playwright-core (no browser
 * download), found at CHROMIUM_PATH, /usr/bin/chromium or chromium-browser. Missing chromium skips
 * the tests with the install command, except under CI=true, where it is a failure, as bwrap is
 * (bwrap.ts). `openFile` opens a local HTML file in a fresh page and records what the page says
 * about itself: console messages, uncaught errors, dialogs and Content Security Policy violations.
 */
import { existsSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import type { Browser, BrowserContext, Page } from "playwright-core";

export const CHROMIUM_MISSING =
  "chromium is not installed: these tests open pages in a real browser. Install Debian's chromium: apt-get install -y chromium (or point CHROMIUM_PATH at a Chromium or Chrome binary).";

/** Where chromium is looked for when CHROMIUM_PATH is unset: Debian's path, then PATH's. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | null {
  const chosen = env.CHROMIUM_PATH;
  if (chosen !== undefined && chosen !== "") return existsSync(chosen) ? chosen : null;
  if (existsSync("/usr/bin/chromium")) return "/usr/bin/chromium";
  const onPath = (env.PATH ?? "")
    .split(delimiter)
    .filter((entry) => isAbsolute(entry))
    .flatMap((entry) => [join(entry, "chromium"), join(entry, "chromium-browser")])
    .find((path) => existsSync(path));
  return onPath ?? null;
}

/**
 * Options for `describe`/`test` in node:test: `{ skip: reason }` when chromium is missing
 * locally. Under CI the tests run anyway and fail on the missing browser.
 */
export function needsChromium(): { skip: string | false } {
  if (findChromium() !== null) return { skip: false };
  if (process.env.CI === "true")
    throw new Error(`${CHROMIUM_MISSING} (CI=true: failing instead of skipping)`);
  return { skip: CHROMIUM_MISSING };
}

/** Starts headless chromium; the caller closes it. Throws CHROMIUM_MISSING when there is none. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = findChromium();
  if (executablePath === null) throw new Error(CHROMIUM_MISSING);
  return chromium.launch({ executablePath, headless: true });
}

/** One Content Security Policy violation, as the page's `securitypolicyviolation` event said it. */
export interface CspViolation {
  directive: string;
  blockedURI: string;
  sample: string;
}

/** What a page said about itself while it was open. */
export interface PageLog {
  console: { type: string; text: string }[];
  /** Uncaught exceptions in the page (`pageerror`). */
  errors: string[];
  /** alert/confirm/prompt/beforeunload: each is recorded and dismissed. */
  dialogs: { type: string; message: string }[];
  /** From the page's own event, and console errors that name the policy. */
  csp: CspViolation[];
  /** Values the page's scripts assigned to `window.__pwned` (a hostile payload that ran). */
  pwned: unknown[];
}

export interface OpenedPage {
  page: Page;
  log: PageLog;
  /** The file's URL, to tell whether a click navigated away. */
  url: string;
  /**
   * Console errors, page errors and dialogs as lines, for an assertion's message; with
   * `exceptCsp`, console errors that report a blocked CSP violation are left to `log.csp`.
   */
  problems(options?: { exceptCsp?: boolean }): string[];
  close(): Promise<void>;
}

/**
 * Registered before any of the page's own scripts: reports CSP violations, and traps assignments
 * to `window.__pwned` so a payload that runs is caught even if it runs and the page moves on.
 * Playwright injects it over the DevTools protocol, so the page's CSP does not block it.
 */
const WATCH_SCRIPT = `(() => {
  const report = globalThis.__pitcrewReport;
  document.addEventListener("securitypolicyviolation", (event) => {
    report({ kind: "csp", directive: event.violatedDirective, blockedURI: event.blockedURI, sample: event.sample });
  }, true);
  let pwned;
  Object.defineProperty(window, "__pwned", {
    configurable: false,
    get: () => pwned,
    set: (value) => { pwned = value; report({ kind: "pwned", value: String(value) }); },
  });
})();`;

/** How chromium words a blocked violation on the console. */
const CSP_MESSAGE = /Content Security Policy/i;

interface Report {
  kind: "csp" | "pwned";
  directive?: string;
  blockedURI?: string;
  sample?: string;
  value?: string;
}

/**
 * Opens `file` (a local path) in a fresh context and page of `browser` and waits for its load
 * event. The context is offline: a report page needs nothing from the network, and a click on a
 * link out must not leave the machine (offline rather than a route, which would hold up every
 * request, the page's own included, on a round trip to this process).
 */
export async function openFile(
  browser: Browser,
  file: string,
  options: { viewport?: { width: number; height: number } } = {},
): Promise<OpenedPage> {
  const url = pathToFileURL(file).href;
  const context: BrowserContext = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 900 },
    offline: true,
  });
  const log: PageLog = { console: [], errors: [], dialogs: [], csp: [], pwned: [] };
  await context.exposeFunction("__pitcrewReport", (report: Report) => {
    if (report.kind === "pwned") log.pwned.push(report.value);
    else
      log.csp.push({
        directive: report.directive ?? "",
        blockedURI: report.blockedURI ?? "",
        sample: report.sample ?? "",
      });
  });
  await context.addInitScript({ content: WATCH_SCRIPT });
  const watch = (page: Page): void => {
    page.on("console", (message) => {
      const text = message.text();
      log.console.push({ type: message.type(), text });
      if (message.type() === "error" && CSP_MESSAGE.test(text))
        log.csp.push({ directive: "(console)", blockedURI: "", sample: text });
    });
    page.on("pageerror", (error) => log.errors.push(error.message));
    page.on("dialog", (dialog) => {
      log.dialogs.push({ type: dialog.type(), message: dialog.message() });
      void dialog.dismiss().catch(() => undefined);
    });
  };
  // A link with target=_blank opens a page of its own: watched the same way.
  context.on("page", watch);
  const page = await context.newPage();
  await page.goto(url, { waitUntil: "load" });
  return {
    page,
    log,
    url,
    problems: ({ exceptCsp = false } = {}) => [
      ...log.console
        .filter((m) => m.type === "error" && !(exceptCsp && CSP_MESSAGE.test(m.text)))
        .map((m) => `console error: ${m.text}`),
      ...log.errors.map((e) => `page error: ${e}`),
      ...log.dialogs.map((d) => `${d.type} dialog: ${d.message}`),
    ],
    close: () => context.close(),
  };
}

/**
 * Polls `check` from here until it holds, or throws naming `what` after `timeoutMs`. Playwright's
 * own `waitForFunction` evaluates its predicate with eval inside the page, which a strict CSP
 * refuses (and reports as a violation); `page.evaluate` and locators go over the DevTools
 * protocol and are not subject to it.
 */
export async function waitUntil(
  check: () => Promise<boolean>,
  what: string,
  timeoutMs = 5000,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
