/**
 * The HTML run report in a real browser (Debian's chromium through playwright-core), opened from
 * file:// as a person opens a downloaded report. A real thread's report: the built action runs
 * `/agent fix` once as the e2e tests do (real bwrap), its local copy of the notes is rendered, and
 * the page must show every turn, chart every request, unfold, move between turns by key and
 * filter by search, with no console error, page error or CSP violation. A hostile thread's
 * report: markup and script in messages and tool output must stay text, whatever is clicked.
 *
 * The real report's full-page screenshot goes to docs/images/report.png when UPDATE_SCREENSHOT=1
 * is set (the README's picture), else into a temporary folder that is removed afterwards.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, test } from "node:test";
import type { Browser } from "playwright-core";
import { renderReport } from "../../src/report/render.ts";
import { readNotesFolder } from "../../src/store/notes.ts";
import { launchChromium, needsChromium, openFile, waitUntil } from "../support/browser.ts";
import type { OpenedPage } from "../support/browser.ts";
import { needsBwrap } from "../support/bwrap.ts";
import { runAction } from "../e2e/harness.ts";
import { FIX, closeWorlds, commentEvent, world } from "../e2e/scenes.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SCREENSHOT = join(ROOT, "docs", "images", "report.png");

const temp = mkdtempSync(join(tmpdir(), "pitcrew-report-browser-"));
let browser: Browser | undefined;

after(async () => {
  await browser?.close();
  await closeWorlds();
  rmSync(temp, { recursive: true, force: true });
});

/** The browser, started once for the file on first use. */
async function chromium(): Promise<Browser> {
  browser ??= await launchChromium();
  return browser;
}

/** Renders `input` into a file of its own and opens it in a fresh page. */
async function openReport(name: string, input: Parameters<typeof renderReport>[0]) {
  const file = join(temp, `${name}.html`);
  writeFileSync(file, renderReport(input));
  return openFile(await chromium(), file);
}

/** What a transcript holds, counted from its lines as the renderer never sees them. */
function countTranscript(transcript: string): { answers: number; requests: number } {
  let answers = 0;
  const requests = new Set<string>();
  for (const line of transcript.split("\n")) {
    if (line.trim() === "") continue;
    const entry = JSON.parse(line) as {
      type: string;
      run: number;
      turn?: number;
      message?: { role?: string };
    };
    if (entry.type === "message" && entry.message?.role === "assistant") answers++;
    if (entry.type === "usage" || entry.type === "context")
      requests.add(`${entry.run}/${entry.turn}`);
  }
  return { answers, requests: requests.size };
}

// What the page is made of, as src/report/render.ts and chart.ts build it: an <article
// class="entry turn"> per answer among the other entries (the start, compactions, the note), a
// <g class="req"> per request in each run's context chart, the search box #q (its count in
// #count), and the keys the bar documents: j/k to the next/previous entry, which gets `.current`.
const ENTRY = "article.entry";
const TURN = "article.entry.turn";
const REQUEST = "svg.chart:not(.cost-chart) g.req";
const SEARCH = "#q";

/** The ids of the elements `selector` finds, in document order. */
function ids(opened: OpenedPage, selector: string): Promise<string[]> {
  return opened.page
    .locator(selector)
    .evaluateAll((els: { id: string }[]) => els.map((el) => el.id));
}

/** The id of the entry that holds the keyboard's place, or null. */
async function current(opened: OpenedPage): Promise<string | null> {
  const found = await ids(opened, `${ENTRY}.current`);
  assert.ok(found.length <= 1, `one current entry at most: ${found.join(", ")}`);
  return found[0] ?? null;
}

/** Types a search and waits for the page to apply it (the box waits 150 ms after typing). */
async function search(opened: OpenedPage, needle: string): Promise<void> {
  await opened.page.locator(SEARCH).fill(needle);
  const count = opened.page.locator("#count");
  const cleared = needle.trim().length < 2;
  await waitUntil(
    async () => ((await count.innerText()) === "") === cleared,
    `the search for ${JSON.stringify(needle)}`,
  );
}

describe("the run report in chromium", needsChromium(), () => {
  describe("a real thread (the built action, one /agent fix)", needsBwrap(), () => {
    let transcript = "";
    let file = "";

    before(async () => {
      const made = await world(FIX);
      const run = await runAction(made, {
        eventName: "issue_comment",
        payload: commentEvent(made, "/agent fix please keep it small"),
      });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      // The local copy the action keeps for its post step (run/ends/action-notes.ts, notesPlace):
      // RUNNER_TEMP/pitcrew-notes/<thread>/, RUNNER_TEMP being runner-<run id>/temp in the harness.
      const dir = join(made.root, "runner-1001", "temp", "pitcrew-notes", "issue-1");
      const notes = readNotesFolder(dir);
      transcript = notes.transcript;
      const pull = made.github.pulls()[0];
      file = join(temp, "real.html");
      writeFileSync(
        file,
        renderReport({
          transcript: notes.transcript,
          state: notes.state,
          note: notes.note,
          links: {
            run: `${made.github.url}/runs/1001`,
            pull: pull === undefined ? undefined : `${made.github.url}/pull/${pull.number}`,
          },
        }),
      );
    });

    test("shows every turn, charts every request, unfolds, moves by key, filters", async () => {
      const { answers, requests } = countTranscript(transcript);
      assert.ok(answers >= 4, `the FIX script answers four times; the transcript has ${answers}`);
      const opened = await openFile(await chromium(), file);
      try {
        const { page } = opened;
        assert.equal(await page.locator(TURN).count(), answers, "one turn per answer");
        assert.equal(await page.locator(REQUEST).count(), requests, "one bar per request");
        const help = await page.locator(".keys").innerText();
        assert.match(help, /j\s*\/\s*k\s+next\/previous/, "the bar documents the keys used here");

        // From the top, j walks every entry in order and reaches each turn; k walks back.
        const entries = await ids(opened, ENTRY);
        const turns = await ids(opened, TURN);
        const walked: (string | null)[] = [];
        for (let i = 0; i < entries.length; i++) {
          await page.keyboard.press("j");
          walked.push(await current(opened));
        }
        assert.deepEqual(walked, entries, "j moves to the next entry each time");
        assert.ok(
          turns.every((id) => walked.includes(id)),
          "every turn is reached",
        );
        await page.keyboard.press("k");
        assert.equal(await current(opened), entries.at(-2), "k moves back one");
        const box = await page.locator(`${ENTRY}.current`).boundingBox();
        const height = page.viewportSize()?.height ?? 0;
        assert.ok(box !== null && box.y >= 0 && box.y < height, "it is scrolled into view");
        await page.keyboard.press("Escape");
        assert.equal(await current(opened), null, "Escape lets go of it");

        // A fold: closed at first, open (its text shown) after a click on its summary. This run's
        // outputs are short, so its fold is the system prompt's (the hostile thread's are long).
        const fold = page.locator("details").first();
        assert.equal(await fold.getAttribute("open"), null, "long text starts folded");
        assert.equal(await fold.locator("pre").first().isVisible(), false);
        await fold.locator("summary").first().click();
        assert.equal(await fold.getAttribute("open"), "", "a click unfolds it");
        assert.equal(await fold.locator("pre").first().isVisible(), true);

        // Search: only the edit's new text matches, so only its turn stays.
        await search(opened, "return a + b");
        const shown = await page.locator(`${TURN}:visible h3`).allInnerTexts();
        assert.equal(shown.length, 1, `one turn matches: ${shown.join(" | ")}`);
        assert.match(shown[0] ?? "", /^Turn 2\b/);
        assert.match(await page.locator("#count").innerText(), /^1 entry matches$/);
        await search(opened, "");
        assert.equal(await page.locator(`${TURN}:visible`).count(), answers, "clearing shows all");

        assert.deepEqual(opened.problems(), [], "no console error, page error or dialog");
        assert.deepEqual(opened.log.csp, [], "no Content Security Policy violation");
      } finally {
        await opened.close();
      }
    });

    test("a full-page screenshot (docs/images/report.png with UPDATE_SCREENSHOT=1)", async () => {
      const update = process.env.UPDATE_SCREENSHOT === "1";
      const target = update ? SCREENSHOT : join(temp, "report.png");
      const opened = await openFile(await chromium(), file, {
        viewport: { width: 1200, height: 800 },
      });
      try {
        // The entries are `content-visibility: auto`: off-screen ones are not painted, and a
        // full-page shot paints only what the viewport holds. So the viewport grows to the
        // page's height (which changes as entries get their real size) before the shot.
        const { page } = opened;
        const height = () => page.evaluate<number>("document.documentElement.scrollHeight");
        for (let tries = 0, last = 0; tries < 10 && (await height()) !== last; tries++) {
          last = await height();
          await page.setViewportSize({ width: 1200, height: last });
          await page.evaluate("new Promise((done) => requestAnimationFrame(() => done()))");
        }
        const turns = await page.locator(`${TURN}:visible pre`).count();
        assert.ok(turns > 0, "the turns' text is laid out");
        mkdirSync(dirname(target), { recursive: true });
        await page.screenshot({ path: target, fullPage: true });
        assert.ok(statSync(target).size > 10_000, `${target} holds a picture`);
        if (update) process.stdout.write(`screenshot written to ${target}\n`);
      } finally {
        await opened.close();
      }
    });
  });

  test("a hostile thread's markup and script stay text, whatever is clicked", async () => {
    const opened = await openReport("hostile", {
      transcript: hostileTranscript(),
      note: HOSTILE.join("\n\n"),
      title: HOSTILE[0],
      diff: `+${HOSTILE[1]}\n-${HOSTILE[2]}\n`,
      links: {
        run: "javascript:window.__pwned=7",
        pull: `https://x.test/"><script>window.__pwned=8</script>`,
      },
    });
    try {
      const { page } = opened;
      const text = await page.locator("body").innerText();
      for (const payload of HOSTILE) assert.ok(text.includes(payload), `shown as text: ${payload}`);
      const hrefs = await page
        .locator("a[href]")
        .evaluateAll((els: { href: string }[]) => els.map((el) => el.href));
      assert.ok(hrefs.length > 0, "the page has links to click (its entries' anchors at least)");
      for (const href of hrefs)
        assert.match(href, /^(https?:|file:[^#]*#e\d+$)/, "no link runs script");

      const outputs = page.locator("details.more");
      assert.ok((await outputs.count()) >= HOSTILE.length, "each long output is folded");
      assert.equal(await page.locator("details.more[open]").count(), 0, "and starts closed");
      // Every fold, outer ones first (a click on the first closed one that shows, until none).
      const openFolds = async (): Promise<void> => {
        const closed = page.locator("details:not([open]) > summary:visible");
        for (let clicks = 0; (await closed.count()) > 0; clicks++) {
          assert.ok(clicks < 500, "the folds open one click at a time");
          await closed.first().click();
        }
        assert.equal(await page.locator("details:not([open])").count(), 0, "every fold is open");
      };
      await openFolds();
      // Every link; one that leaves the page (offline: an error page) is followed back.
      const links = page.locator("a[href]");
      for (const [index, href] of hrefs.entries()) {
        const leaves = href.split("#")[0] !== opened.url;
        const left = leaves
          ? page
              .waitForURL((url) => url.href.split("#")[0] !== opened.url)
              .catch((error: Error) => {
                // The browser is offline: the way out fails, which is the point.
                if (!error.message.includes("ERR_INTERNET_DISCONNECTED")) throw error;
              })
          : Promise.resolve();
        await links.nth(index).click();
        await left;
        if (leaves) {
          await page.goto(opened.url);
          await openFolds();
        }
      }
      await page.waitForTimeout(200);

      assert.equal(await page.evaluate("window.__pwned"), undefined);
      assert.deepEqual(opened.log.pwned, [], "no payload assigned window.__pwned");
      assert.deepEqual(opened.log.dialogs, [], "no dialog opened");
      assert.deepEqual(opened.problems({ exceptCsp: true }), []);
      if (opened.log.csp.length > 0)
        process.stdout.write(
          `blocked by the page's CSP (fine: nothing ran): ${opened.log.csp.map((v) => v.directive).join(", ")}\n`,
        );
    } finally {
      await opened.close();
    }
  });
});

/** What a hostile repository, issue or command output can put in front of the report. */
const HOSTILE = [
  "<script>window.__pwned=1</script>",
  '<img src=x onerror="window.__pwned=2">',
  '"><svg onload="window.__pwned=3">',
  "[click](javascript:window.__pwned=4)",
];

/** A thread whose every message, call and result carries the payloads. */
function hostileTranscript(): string {
  const all = HOSTILE.join(" ");
  const lines: unknown[] = [
    {
      type: "run",
      run: 1,
      at: "2026-12-02T09:00:00.000Z",
      threadKey: "issue-1",
      repository: "octo/evil",
      branch: `pitcrew/${HOSTILE[2]}`,
      window: 128_000,
      compactAt: 0.85,
    },
    { type: "message", run: 1, message: { role: "system", content: all } },
    { type: "message", run: 1, message: { role: "user", content: `Fix this: ${all}` } },
  ];
  HOSTILE.forEach((payload, index) => {
    const turn = index + 1;
    const id = `call_${turn}" onclick="window.__pwned=5`;
    lines.push(
      { type: "context", run: 1, turn, tokens: 1000 * turn, fired: [payload] },
      {
        type: "usage",
        run: 1,
        turn,
        usage: {
          promptTokens: 1000 * turn,
          cachedTokens: 0,
          completionTokens: 10,
          reasoningTokens: 0,
        },
        cost: 0.001,
      },
      {
        type: "message",
        run: 1,
        message: {
          role: "assistant",
          content: `${payload} and a [link](javascript:window.__pwned=${turn + 10})`,
          toolCalls: [
            { id, name: payload, arguments: JSON.stringify({ command: payload, path: payload }) },
          ],
        },
      },
      {
        type: "message",
        run: 1,
        // Long enough to fold: the payloads inside the <details> too.
        message: {
          role: "tool",
          toolCallId: id,
          name: payload,
          content: `${all}\n`.repeat(80),
          isError: index % 2 === 1,
        },
      },
      { type: "tool", run: 1, turn, callId: id, durationMs: 12 },
    );
  });
  lines.push(
    { type: "compaction", run: 1, turn: 5, note: all },
    {
      type: "message",
      run: 1,
      message: {
        role: "assistant",
        content: `Done. ${all} https://example.com/"onmouseover="window.__pwned=6`,
        toolCalls: [],
      },
    },
    { type: "end", run: 1, at: "2026-12-02T09:05:00.000Z", stopReason: HOSTILE[0] },
  );
  return lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
}
