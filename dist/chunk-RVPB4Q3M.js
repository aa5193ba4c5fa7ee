import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  callArguments,
  callSubject
} from "./chunk-EYJLS7SB.js";

// src/report/render.ts
import { createHash } from "node:crypto";

// src/report/assets.ts
var STYLE = `
:root{color-scheme:light dark;
--bg:light-dark(#ffffff,#0d1117);--fg:light-dark(#1f2328,#e6edf3);--muted:light-dark(#59636e,#9198a1);
--line:light-dark(#d1d9e0,#3d444d);--panel:light-dark(#f6f8fa,#151b23);--code:light-dark(#f3f5f7,#161b22);
--accent:light-dark(#0969da,#4493f8);--sent:light-dark(#a8d1ff,#1d4a7a);--cached:light-dark(#0969da,#4493f8);
--window:light-dark(#1f2328,#e6edf3);--threshold:light-dark(#bf8700,#d29922);
--err:light-dark(#cf222e,#ff7b72);--errbg:light-dark(#ffebe9,#2d1416);--warn:light-dark(#9a6700,#e3b341);
--warnbg:light-dark(#fff8c5,#2b2211);--ok:light-dark(#1a7f37,#3fb950);--add:light-dark(#dafbe1,#10281b);
--del:light-dark(#ffebe9,#301418);--hit:light-dark(#fff066,#73600e);--cur:light-dark(#0969da,#4493f8);
--stub:light-dark(#8250df,#ab7df8);--clear:light-dark(#1a7f37,#3fb950);--drop:light-dark(#bc4c00,#f0883e);
--compact:light-dark(#cf222e,#ff7b72)}
:root.light{color-scheme:light}:root.dark{color-scheme:dark}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
a{color:var(--accent)}
header,main{max-width:1120px;margin:0 auto;padding:0 16px}
header{padding-top:20px}
.kicker{margin:0;color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.06em}
h1{font-size:22px;line-height:1.3;margin:4px 0 12px;overflow-wrap:anywhere}
h2{font-size:18px;margin:28px 0 8px;padding-bottom:4px;border-bottom:1px solid var(--line)}
h3{font-size:14px;margin:0 0 6px;display:flex;flex-wrap:wrap;gap:4px 10px;align-items:baseline}
h3 a{color:inherit;text-decoration:none}
.facts{display:grid;grid-template-columns:repeat(auto-fill,minmax(170px,1fr));gap:8px 16px;margin:0 0 12px}
.facts div{min-width:0}
.facts dt{color:var(--muted);font-size:12px}
.facts dd{margin:0;font-weight:600;overflow-wrap:anywhere}
.notice{border:1px solid var(--warn);background:var(--warnbg);border-radius:6px;padding:6px 10px;margin:8px 0}
.bad-link{font-weight:400;color:var(--muted);overflow-wrap:anywhere}
.bar{position:sticky;top:0;z-index:2;background:var(--bg);border-bottom:1px solid var(--line)}
.bar div{max-width:1120px;margin:0 auto;padding:8px 16px;display:flex;flex-wrap:wrap;gap:6px 14px;align-items:center}
.bar input{font:inherit;padding:4px 8px;width:min(360px,100%);border:1px solid var(--line);border-radius:6px;background:var(--panel);color:var(--fg)}
.keys{color:var(--muted);font-size:12px}
kbd{font:11px ui-monospace,monospace;border:1px solid var(--line);border-bottom-width:2px;border-radius:4px;padding:0 4px;background:var(--panel)}
#count{font-size:12px;color:var(--muted)}
.run-facts{color:var(--muted);margin:0 0 8px}
.figure{margin:8px 0 16px}
.figure figcaption{font-weight:600;font-size:13px}
svg.chart{display:block;width:100%;height:auto;overflow:visible}
.chart .sent{fill:var(--sent)}.chart .cached{fill:var(--cached)}
.chart .est{fill:none;stroke:var(--muted);stroke-dasharray:2 2}
.chart .req:hover rect{opacity:.75}
.chart .grid{stroke:var(--line);stroke-width:.6}.chart .lane{stroke:var(--line);stroke-dasharray:1 3}
.chart .window{stroke:var(--window);stroke-width:1.5}.chart .threshold{stroke:var(--threshold);stroke-width:1.5;stroke-dasharray:6 4}
.chart .tick{fill:var(--muted);font-size:11px}.chart .lab{fill:var(--fg);font-size:11px}
.chart .threshold-lab{fill:var(--threshold)}
.chart .cost{fill:none;stroke:var(--accent);stroke-width:2}.chart .cost-area{fill:var(--accent);opacity:.12}
.chart .cost-end{fill:var(--accent)}
.m-stub{fill:var(--stub);background:var(--stub)}.m-clear{fill:var(--clear);background:var(--clear)}
.m-drop{fill:var(--drop);background:var(--drop)}.m-compact{fill:var(--compact);background:var(--compact)}
.legend{list-style:none;display:flex;flex-wrap:wrap;gap:2px 16px;padding:0;margin:4px 0 0;color:var(--muted);font-size:12px}
.sw,.dot{display:inline-block;vertical-align:middle;margin-right:6px}
.sw{width:14px;height:10px;background:var(--sent)}.sw.cached{background:var(--cached)}
.sw.est{background:none;border:1px dashed var(--muted)}
.sw.window{height:0;border-top:2px solid var(--window);background:none}
.sw.threshold{height:0;border-top:2px dashed var(--threshold);background:none}
.dot{width:9px;height:9px;border-radius:50%}
.entry{content-visibility:auto;contain-intrinsic-size:auto 220px;border:1px solid var(--line);border-radius:6px;margin:10px 0;padding:8px 12px;scroll-margin-top:88px;background:var(--bg)}
.entry:focus{outline:none}
.entry.current{border-color:var(--cur);box-shadow:0 0 0 2px var(--cur)}
.entry.compaction{background:var(--panel)}
.hidden{display:none}
.meta{color:var(--muted);font-weight:400;font-size:12px}
.layer{font-size:11px;font-weight:600;border-radius:3px;padding:0 5px;color:var(--bg)}
.who{color:var(--muted);font-size:12px;margin-top:6px}
pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:4px 0;font:12px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--code);padding:6px 8px;border-radius:4px;tab-size:4}
pre.text{background:none;padding:0;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
pre.reminder{color:var(--muted)}
details{margin:4px 0}
summary{cursor:pointer;color:var(--muted);font-size:12px}
details.has-hit>summary::after{content:" \xB7 matches inside";color:var(--fg);background:var(--hit)}
.call{border-left:3px solid var(--line);margin:10px 0;padding:2px 0 2px 10px}
.call.k-error{border-left-color:var(--err);background:var(--errbg)}
.call.k-refused,.call.k-denied{border-left-color:var(--warn);background:var(--warnbg)}
.call.k-exit{border-left-color:var(--warn)}
.call-head{display:flex;flex-wrap:wrap;gap:4px 10px;align-items:baseline}
.tool{font-weight:600}
.subject{font:12px ui-monospace,monospace;overflow-wrap:anywhere}
.dur{color:var(--muted);font-size:12px}
.arg{font-size:12px;margin-top:2px}.arg .k{color:var(--muted)}
.arg code{font:12px ui-monospace,monospace;overflow-wrap:anywhere}
.badge{font-size:11px;border:1px solid currentColor;border-radius:10px;padding:0 7px;white-space:nowrap}
.b-error{color:var(--err)}.b-refused,.b-denied,.b-exit,.b-spill{color:var(--warn)}
mark{color:inherit}
mark.spill{background:var(--warnbg);outline:1px dashed var(--warn)}
mark.deny{background:var(--errbg);color:var(--err)}
::highlight(hits){background-color:var(--hit);color:var(--fg)}
.diffstat{font-weight:600}
table.stat{border-collapse:collapse;font-size:12px;margin:4px 0 8px}
table.stat td{padding:1px 10px 1px 0;vertical-align:middle}
.num{text-align:right;font-variant-numeric:tabular-nums}
.add{color:var(--ok)}.del{color:var(--err)}
svg.bars .ba{fill:var(--ok)}svg.bars .bd{fill:var(--err)}
pre.diff .da,pre.diff .dd{display:inline-block;width:100%}pre.diff .da{background:var(--add)}pre.diff .dd{background:var(--del)}
pre.diff .dk{color:var(--accent)}pre.diff .dh{font-weight:600}
footer{max-width:1120px;margin:24px auto;padding:0 16px 24px;color:var(--muted);font-size:12px}
`;
var SCRIPT = `
(function () {
  "use strict";
  var root = document.documentElement;
  var entries = Array.prototype.slice.call(document.querySelectorAll(".entry"));
  var box = document.getElementById("q");
  var count = document.getElementById("count");
  var current = null;
  var texts = null;
  var marked = [];
  var LIMIT = 3000;
  var paintable = typeof Highlight === "function" && window.CSS && CSS.highlights;

  function shown() {
    return entries.filter(function (entry) { return !entry.classList.contains("hidden"); });
  }
  function select(entry, scroll) {
    if (current) current.classList.remove("current");
    current = entry || null;
    if (!current) return;
    current.classList.add("current");
    if (scroll) {
      current.scrollIntoView({ block: "start" });
      current.focus({ preventScroll: true });
    }
  }
  /** The first listed entry whose bottom is below the sticky bar: where the reader is. */
  function inView(list) {
    var top = document.querySelector(".bar").getBoundingClientRect().bottom;
    for (var i = 0; i < list.length; i++) if (list[i].getBoundingClientRect().bottom > top + 1) return i;
    return list.length - 1;
  }
  function move(by) {
    var list = shown();
    if (list.length === 0) return;
    var at = current ? list.indexOf(current) : -1;
    var next = at === -1 ? inView(list) + (by < 0 ? -1 : 0) : at + by;
    select(list[Math.max(0, Math.min(list.length - 1, next))], true);
  }
  function fold() {
    if (!current) return;
    var all = current.querySelectorAll("details");
    var closed = Array.prototype.some.call(all, function (d) { return !d.open; });
    Array.prototype.forEach.call(all, function (d) { d.open = closed; });
  }
  function theme() {
    var dark = root.classList.contains("dark") ||
      (!root.classList.contains("light") && window.matchMedia("(prefers-color-scheme: dark)").matches);
    root.classList.toggle("dark", !dark);
    root.classList.toggle("light", dark);
  }
  function collect(entry, needle, ranges) {
    var walker = document.createTreeWalker(entry, NodeFilter.SHOW_TEXT);
    for (var node = walker.nextNode(); node && ranges.length < LIMIT; node = walker.nextNode()) {
      var text = node.data.toLowerCase();
      var at = text.indexOf(needle);
      if (at === -1) continue;
      var details = node.parentElement && node.parentElement.closest("details:not([open])");
      if (details && !details.classList.contains("has-hit")) {
        details.classList.add("has-hit");
        marked.push(details);
      }
      for (; at !== -1 && ranges.length < LIMIT; at = text.indexOf(needle, at + needle.length)) {
        if (at + needle.length > node.length) break;
        var range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + needle.length);
        ranges.push(range);
      }
    }
  }
  function search() {
    var needle = box.value.trim().toLowerCase();
    if (needle.length < 2) needle = "";
    if (needle && !texts) texts = entries.map(function (entry) { return entry.textContent.toLowerCase(); });
    marked.forEach(function (details) { details.classList.remove("has-hit"); });
    marked = [];
    var ranges = [];
    var hits = 0;
    entries.forEach(function (entry, index) {
      var match = !needle || texts[index].indexOf(needle) !== -1;
      entry.classList.toggle("hidden", !match);
      if (needle && match) {
        hits += 1;
        if (ranges.length < LIMIT) collect(entry, needle, ranges);
      }
    });
    if (paintable) {
      if (ranges.length) CSS.highlights.set("hits", new Highlight(...ranges));
      else CSS.highlights.delete("hits");
    }
    count.textContent = needle ? hits + (hits === 1 ? " entry matches" : " entries match") : "";
    if (current && current.classList.contains("hidden")) select(null);
  }

  var timer = 0;
  box.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(search, 150);
  });
  document.addEventListener("click", function (event) {
    var entry = event.target instanceof Element ? event.target.closest(".entry") : null;
    if (entry) select(entry, false);
  });
  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    if (target === box) {
      if (event.key === "Escape") { box.value = ""; search(); box.blur(); }
      else if (event.key === "Enter") { clearTimeout(timer); search(); select(shown()[0], true); box.blur(); }
      else return;
      event.preventDefault();
      return;
    }
    if (target instanceof Element && target.closest("input, textarea, select, [contenteditable]")) return;
    switch (event.key) {
      case "j": case "n": move(1); break;
      case "k": case "p": move(-1); break;
      case "/": box.focus(); box.select(); break;
      case "o": fold(); break;
      case "t": theme(); break;
      case "Escape": if (box.value) { box.value = ""; search(); } else select(null); break;
      default: return;
    }
    event.preventDefault();
  });
})();
`;

// src/report/html.ts
var ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
function escapeHtml(text) {
  return /[&<>"]/.test(text) ? text.replace(/[&<>"]/g, (char) => ESCAPES[char]) : text;
}
var ANSI = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])/g;
function withoutAnsi(text) {
  return text.includes("\x1B") ? text.replace(ANSI, "") : text;
}
function countLines(text) {
  if (text === "") return 0;
  let lines = 1;
  for (let at2 = text.indexOf("\n"); at2 !== -1; at2 = text.indexOf("\n", at2 + 1)) lines++;
  return text.endsWith("\n") ? lines - 1 : lines;
}
function charBoundary(text, at2) {
  const code = text.charCodeAt(at2 - 1);
  return at2 > 0 && at2 < text.length && code >= 55296 && code <= 56319 ? at2 - 1 : at2;
}
var FOLD_LINES = 40;
var FOLD_CHARS = 4096;
function charCut(text) {
  const lineEnd = text.lastIndexOf("\n", FOLD_CHARS - 1);
  return lineEnd > FOLD_CHARS / 2 ? lineEnd + 1 : charBoundary(text, FOLD_CHARS);
}
function foldAt(text) {
  let at2 = -1;
  for (let line = 0; line < FOLD_LINES; line++) {
    at2 = text.indexOf("\n", at2 + 1);
    if (at2 === -1) return text.length <= FOLD_CHARS ? text.length : charCut(text);
    if (at2 >= FOLD_CHARS) return charCut(text);
  }
  return Math.min(at2 + 1, text.length);
}
function size(chars) {
  return chars < 1024 ? `${chars} chars` : `${(chars / 1024).toFixed(chars < 10240 ? 1 : 0)} KB`;
}
function markedText(text, marks, offset = 0) {
  let out = "";
  let at2 = 0;
  for (const mark of marks) {
    const from = Math.max(mark.from - offset, at2);
    const to = Math.min(mark.to - offset, text.length);
    if (to <= from) continue;
    out += `${escapeHtml(text.slice(at2, from))}<mark class="${mark.className}">${escapeHtml(text.slice(from, to))}</mark>`;
    at2 = to;
  }
  return out + escapeHtml(text.slice(at2));
}
function foldedPre(text, className, marks = []) {
  const cut = foldAt(text);
  const head = text.slice(0, cut);
  const shown = `<pre class="${className}">${markedText(head, marks)}</pre>`;
  if (cut >= text.length) return shown;
  const rest = text.slice(cut);
  const lines = countLines(rest);
  const summary = `${lines === 1 ? "1 more line" : `${lines} more lines`} (${size(rest.length)})`;
  return `${shown}<details class="more"><summary>${summary}</summary><pre class="${className}">${markedText(rest, marks, cut)}</pre></details>`;
}
function lineAround(text, at2) {
  const from = text.lastIndexOf("\n", at2 - 1) + 1;
  const end = text.indexOf("\n", at2);
  return { from, to: end === -1 ? text.length : end };
}

// src/report/transcript.ts
var isNumber = (value) => typeof value === "number" && Number.isFinite(value);
var isString = (value) => typeof value === "string";
var count = (value) => isNumber(value) && value > 0 ? value : 0;
function usageOf(value) {
  if (value === null || typeof value !== "object") return void 0;
  const usage = value;
  if (!isNumber(usage.promptTokens) || !isNumber(usage.completionTokens)) return void 0;
  return {
    promptTokens: count(usage.promptTokens),
    cachedTokens: count(usage.cachedTokens),
    completionTokens: count(usage.completionTokens),
    reasoningTokens: count(usage.reasoningTokens)
  };
}
function callsOf(value) {
  if (!Array.isArray(value)) return [];
  const calls = [];
  for (const item of value) {
    if (item === null || typeof item !== "object") continue;
    const call = item;
    calls.push({
      id: isString(call.id) ? call.id : "",
      name: isString(call.name) ? call.name : "(unnamed tool)",
      arguments: isString(call.arguments) ? call.arguments : ""
    });
  }
  return calls;
}
function reading(runs, run) {
  let found = runs.get(run);
  if (found === void 0) {
    found = {
      view: { run, system: [], opening: [], turns: [] },
      turns: /* @__PURE__ */ new Map(),
      calls: /* @__PURE__ */ new Map(),
      turn: 0,
      upcoming: void 0
    };
    runs.set(run, found);
  }
  return found;
}
function turnOf(run, turn) {
  let found = run.turns.get(turn);
  if (found === void 0) {
    found = { turn, reminders: [], said: [], calls: [] };
    run.turns.set(turn, found);
  }
  return found;
}
function named(run, turn) {
  if (!isNumber(turn) || !Number.isInteger(turn) || turn < 1) return void 0;
  if (turn > run.turn) run.upcoming = turn;
  return turnOf(run, turn);
}
function readMessage(run, value) {
  if (value === null || typeof value !== "object") return false;
  const message = value;
  if (!isString(message.content)) return false;
  const content = message.content;
  switch (message.role) {
    case "system":
      run.view.system.push(content);
      return true;
    case "user": {
      const answered = run.turn > 0 || run.upcoming !== void 0;
      if (content.startsWith("<reminder>"))
        turnOf(run, run.upcoming ?? run.turn + 1).reminders.push(content);
      else if (!answered) run.view.opening.push(content);
      else turnOf(run, run.upcoming ?? run.turn + 1).said.push(content);
      return true;
    }
    case "assistant": {
      run.turn = run.upcoming ?? run.turn + 1;
      run.upcoming = void 0;
      const turn = turnOf(run, run.turn);
      turn.text = turn.text === void 0 ? content : `${turn.text}

${content}`;
      for (const call of callsOf(message.toolCalls)) {
        const view = { call };
        turn.calls.push(view);
        if (call.id !== "") run.calls.set(call.id, view);
      }
      return true;
    }
    case "tool": {
      const id = isString(message.toolCallId) ? message.toolCallId : "";
      const result = { content, isError: message.isError === true };
      const known = id === "" ? void 0 : run.calls.get(id);
      if (known !== void 0 && known.result === void 0) {
        known.result = result;
      } else {
        const name = isString(message.name) ? message.name : "(unknown tool)";
        const orphan = { call: { id, name, arguments: "" }, result };
        turnOf(run, Math.max(run.turn, 1)).calls.push(orphan);
      }
      return true;
    }
    default:
      return false;
  }
}
function readEntry(runs, entry2, durations) {
  if (!isNumber(entry2.run)) return false;
  const run = reading(runs, entry2.run);
  switch (entry2.type) {
    case "run": {
      const { at: at2, threadKey, repository, branch, window, compactAt } = entry2;
      if (!isString(at2) || !isString(threadKey) || !isString(repository) || !isString(branch))
        return false;
      if (!isNumber(window) || !isNumber(compactAt)) return false;
      run.view.start = { at: at2, threadKey, repository, branch, window, compactAt };
      return true;
    }
    case "message":
      return readMessage(run, entry2.message);
    case "usage": {
      const usage = usageOf(entry2.usage);
      const turn = usage === void 0 ? void 0 : named(run, entry2.turn);
      if (turn === void 0) return false;
      turn.usage = usage;
      turn.cost = count(entry2.cost);
      return true;
    }
    case "context": {
      const fired = Array.isArray(entry2.fired) ? entry2.fired.filter(isString) : [];
      const turn = isNumber(entry2.tokens) ? named(run, entry2.turn) : void 0;
      if (turn === void 0) return false;
      turn.context = { tokens: count(entry2.tokens), fired };
      return true;
    }
    case "compaction": {
      const turn = isString(entry2.note) ? named(run, entry2.turn) : void 0;
      if (turn === void 0) return false;
      turn.compaction = entry2.note;
      return true;
    }
    case "tool":
      if (!isString(entry2.callId) || !isNumber(entry2.durationMs)) return false;
      durations.set(`${entry2.run}\0${entry2.callId}`, count(entry2.durationMs));
      return true;
    case "end":
      if (!isString(entry2.at)) return false;
      run.view.end = {
        at: entry2.at,
        stopReason: isString(entry2.stopReason) ? entry2.stopReason : null
      };
      return true;
    default:
      return false;
  }
}
function readTranscript(text) {
  const runs = /* @__PURE__ */ new Map();
  const durations = /* @__PURE__ */ new Map();
  let dropped = 0;
  let skipped = 0;
  let from = 0;
  while (from < text.length) {
    let to = text.indexOf("\n", from);
    if (to === -1) to = text.length;
    const line = text.slice(from, to).trim();
    from = to + 1;
    if (line === "") continue;
    let parsed;
    try {
      parsed = JSON.parse(line);
    } catch {
      skipped += 1;
      continue;
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      skipped += 1;
      continue;
    }
    const entry2 = parsed;
    if (entry2.type === "dropped" && isNumber(entry2.lines)) {
      dropped += count(entry2.lines);
      continue;
    }
    if (!readEntry(runs, entry2, durations)) skipped += 1;
  }
  const views = [];
  for (const run of runs.values()) {
    for (const [id, call] of run.calls) {
      const duration2 = durations.get(`${run.view.run}\0${id}`);
      if (duration2 !== void 0) call.durationMs = duration2;
    }
    run.view.turns = [...run.turns.values()].sort((a, b) => a.turn - b.turn);
    views.push(run.view);
  }
  return { runs: views, dropped, skipped };
}
function isAnswered(turn) {
  return turn.usage !== void 0 || turn.text !== void 0;
}
function requestsOf(run) {
  return run.turns.filter((turn) => turn.usage !== void 0 || turn.context !== void 0);
}

// src/report/words.ts
function grouped(value) {
  const whole = Math.round(value);
  const sign = whole < 0 ? "-" : "";
  const digits = String(Math.abs(whole));
  let out = "";
  for (let end = digits.length; end > 0; end -= 3) {
    const part = digits.slice(Math.max(0, end - 3), end);
    out = out === "" ? part : `${part},${out}`;
  }
  return sign + out;
}
function shortCount(value) {
  const abs = Math.abs(value);
  const short = (scaled) => Math.abs(scaled) >= 100 ? scaled.toFixed(0) : scaled.toFixed(2).replace(/\.?0+$/, "");
  if (abs >= 1e6) return `${short(value / 1e6)}M`;
  if (abs >= 1e3) return `${short(value / 1e3)}k`;
  return String(Math.round(value));
}
function dollars(amount) {
  if (amount === 0) return "$0.00";
  return `$${amount.toFixed(amount >= 1 ? 2 : amount >= 0.01 ? 3 : 4)}`;
}
function percent(part, whole) {
  return whole > 0 ? `${Math.round(100 * part / whole)}%` : "\u2013";
}
function duration(ms) {
  if (ms < 1e3) return `${Math.round(ms)} ms`;
  if (ms < 6e4) return `${(ms / 1e3).toFixed(1).replace(/\.0$/, "")}s`;
  const seconds = Math.round(ms / 1e3);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor(seconds % 3600 / 60);
  const s = seconds % 60;
  return h > 0 ? `${h}h ${m}m ${s}s` : `${m}m ${s}s`;
}
function between(from, to) {
  const ms = Date.parse(to) - Date.parse(from);
  return Number.isFinite(ms) && ms >= 0 ? ms : void 0;
}
function when(iso) {
  const time = Date.parse(iso);
  if (!Number.isFinite(time)) return iso;
  return `${new Date(time).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
var STOPS = {
  done: "done: the model finished",
  max_turns: "stopped at the turn limit",
  time_budget: "stopped at the time budget",
  cost_budget: "stopped at the cost budget",
  token_budget: "stopped at the token budget",
  cancelled: "cancelled",
  model_error: "stopped by a model error"
};
function stopWords(reason) {
  if (reason === null || reason === void 0) return "not recorded (interrupted or still going)";
  return Object.hasOwn(STOPS, reason) ? STOPS[reason] : reason;
}
function fencedAt(text, at2) {
  const open = /^(`{3,})text\n/.exec(text.slice(at2, at2 + 64));
  if (open === null) return void 0;
  const start = at2 + open[0].length;
  const end = text.indexOf(`
${open[1]}`, start);
  return end === -1 ? void 0 : text.slice(start, end);
}
function fenceAfter(text, label) {
  const found = text.startsWith(label) ? 0 : text.indexOf(`
${label}`);
  if (found === -1) return void 0;
  const lineEnd = text.indexOf("\n", found + 1);
  return lineEnd === -1 ? void 0 : fencedAt(text, lineEnd + 1);
}
var LOCAL_TASK = "Your task, from the person running pitcrew:\n\n";
var INSTRUCTIONS = "\n\nThe repository's instructions for agents";
function requestOf(message) {
  if (message.startsWith(LOCAL_TASK)) {
    const end = message.indexOf(INSTRUCTIONS);
    return message.slice(LOCAL_TASK.length, end === -1 ? void 0 : end).trim();
  }
  const request = fenceAfter(message, "The request from ");
  if (request !== void 0 && request.trim() !== "") return request.trim();
  const issue = fenceAfter(message, "The title and description of ");
  if (issue !== void 0 && issue.trim() !== "") return issue.trim();
  return message.trim();
}
function firstLine(text, limit = 160) {
  const trimmed = text.trimStart();
  const end = trimmed.indexOf("\n");
  const line = (end === -1 ? trimmed : trimmed.slice(0, end)).trimEnd();
  if (line.length <= limit) return line;
  const space = line.lastIndexOf(" ", limit - 1);
  return `${line.slice(0, space > limit / 2 ? space : charBoundary(line, limit - 1))}\u2026`;
}

// src/report/header.ts
function webLink(url) {
  if (url === void 0) return void 0;
  try {
    const parsed = new URL(url.trim());
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.href : void 0;
  } catch {
    return void 0;
  }
}
function link(url, label) {
  if (url === void 0 || url.trim() === "") return void 0;
  const href = webLink(url);
  if (href === void 0)
    return `<span class="bad-link">${escapeHtml(url)} (not a web link, shown as text)</span>`;
  return `<a href="${escapeHtml(href)}" rel="noopener noreferrer">${escapeHtml(label)}</a>`;
}
function stateFacts(state) {
  if (state === null || typeof state !== "object") return {};
  const s = state;
  const text = (value) => typeof value === "string" && value !== "" ? value : void 0;
  const number = (value) => typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : void 0;
  const facts = {
    threadKey: text(s.threadKey),
    repository: text(s.repository),
    branch: text(s.branch),
    prNumber: Number.isInteger(s.prNumber) ? number(s.prNumber) : void 0
  };
  if (s.stopReason === null || typeof s.stopReason === "string") facts.stopReason = s.stopReason;
  const cumulative = s.cumulative;
  const usage = cumulative?.usage;
  const [runs, turns, cost] = [
    number(cumulative?.runs),
    number(cumulative?.turns),
    number(cumulative?.cost)
  ];
  const [prompt, cached, completion] = [
    number(usage?.promptTokens),
    number(usage?.cachedTokens),
    number(usage?.completionTokens)
  ];
  if (runs !== void 0 && turns !== void 0 && cost !== void 0 && prompt !== void 0 && cached !== void 0 && completion !== void 0)
    facts.cumulative = {
      runs,
      turns,
      cost,
      usage: {
        promptTokens: prompt,
        cachedTokens: cached,
        completionTokens: completion,
        reasoningTokens: 0
      }
    };
  return facts;
}
function summarize(data, input) {
  const facts = stateFacts(input.state);
  const starts = data.runs.flatMap((run) => run.start === void 0 ? [] : [run.start]);
  const newest = starts.at(-1);
  const opening = data.runs.find((run) => run.opening.length > 0)?.opening[0];
  const summary = {
    task: input.title?.trim() || (opening === void 0 ? "" : requestOf(opening)),
    threadKey: newest?.threadKey ?? facts.threadKey,
    repository: newest?.repository ?? facts.repository,
    branch: newest?.branch ?? facts.branch,
    prNumber: facts.prNumber,
    stopReason: data.runs.at(-1)?.end?.stopReason ?? facts.stopReason,
    runs: data.runs.length,
    turns: 0,
    promptTokens: 0,
    cachedTokens: 0,
    completionTokens: 0,
    cost: 0,
    unfinished: 0,
    started: starts[0]?.at,
    fromState: false
  };
  for (const run of data.runs) {
    for (const turn of run.turns) {
      if (isAnswered(turn)) summary.turns += 1;
      summary.promptTokens += turn.usage?.promptTokens ?? 0;
      summary.cachedTokens += turn.usage?.cachedTokens ?? 0;
      summary.completionTokens += turn.usage?.completionTokens ?? 0;
      summary.cost += turn.cost ?? 0;
    }
    const ms = run.start && run.end ? between(run.start.at, run.end.at) : void 0;
    if (ms !== void 0) summary.durationMs = (summary.durationMs ?? 0) + ms;
    if (run.start !== void 0 && run.end === void 0) summary.unfinished += 1;
  }
  const whole = facts.cumulative;
  if (data.dropped > 0 && whole !== void 0 && whole.turns >= summary.turns) {
    Object.assign(summary, {
      runs: Math.max(whole.runs, summary.runs),
      turns: whole.turns,
      promptTokens: whole.usage.promptTokens,
      cachedTokens: whole.usage.cachedTokens,
      completionTokens: whole.usage.completionTokens,
      cost: whole.cost,
      fromState: true
    });
  }
  return summary;
}
function fact(term, value) {
  return `<div><dt>${term}</dt><dd>${value}</dd></div>`;
}
function header(summary, input) {
  const task = summary.task === "" ? "A pitcrew run" : summary.task;
  const line = firstLine(task);
  const whole = line === task.trim() ? "" : `<details class="task"><summary>the whole request</summary>${foldedPre(task, "text")}</details>`;
  const tokens = summary.promptTokens + summary.completionTokens;
  const pull = link(
    input.links?.pull,
    summary.prNumber === void 0 ? input.links?.pull ?? "" : `#${summary.prNumber}`
  ) ?? (summary.prNumber === void 0 ? void 0 : `#${summary.prNumber}`);
  const run = link(input.links?.run, "workflow run");
  const took = summary.durationMs === void 0 ? "not recorded" : duration(summary.durationMs) + (summary.unfinished > 0 ? " (a run has no end recorded)" : "");
  const facts = [
    fact("thread", escapeHtml(summary.threadKey ?? "unknown")),
    fact("repository", escapeHtml(summary.repository ?? "unknown")),
    fact("branch", escapeHtml(summary.branch ?? "unknown")),
    ...pull === void 0 ? [] : [fact("pull request", pull)],
    ...run === void 0 ? [] : [fact("workflow", run)],
    fact("ended", escapeHtml(stopWords(summary.stopReason))),
    fact("runs", grouped(summary.runs)),
    fact("turns", grouped(summary.turns)),
    fact(
      "tokens",
      `${grouped(tokens)} <span class="meta">(${shortCount(summary.promptTokens)} in, ${shortCount(summary.completionTokens)} out)</span>`
    ),
    fact("cached", percent(summary.cachedTokens, summary.promptTokens)),
    fact("cost", dollars(summary.cost)),
    fact("duration", escapeHtml(took)),
    ...summary.started === void 0 ? [] : [fact("started", escapeHtml(when(summary.started)))]
  ];
  const fromState = summary.fromState ? `<p class="meta">Runs, turns, tokens and cost are the thread's totals from its state file: the transcript was cut.</p>` : "";
  return `<header><p class="kicker">pitcrew run report</p><h1>${escapeHtml(line)}</h1>${whole}<dl class="facts">${facts.join("")}</dl>${fromState}</header>`;
}

// src/report/chart.ts
var LAYERS = ["stub", "clear", "drop", "compact"];
var WIDTH = 960;
var LEFT = 56;
var RIGHT = WIDTH - 132;
var LANE = 11;
var LANES_TOP = 8;
var PLOT_TOP = LANES_TOP + LANE * LAYERS.length + 16;
var HEIGHT = 300;
var PLOT_BOTTOM = HEIGHT - 24;
var at = (value) => String(Math.round(value * 10) / 10);
function axisFor(highest) {
  if (!(highest > 0)) return { step: 1, max: 1 };
  const least = highest / 5;
  const power = 10 ** Math.floor(Math.log10(least));
  const step = [1, 2, 2.5, 5, 10].map((times) => times * power).find((one) => one >= least);
  const chosen = step ?? 10 * power;
  return { step: chosen, max: chosen * Math.ceil(highest / chosen - 1e-9) };
}
function money(value, step) {
  const decimals = (String(Number(step.toPrecision(3))).split(".")[1] ?? "").length;
  return `$${value.toFixed(Math.min(6, Math.max(2, decimals)))}`;
}
function thresholdOf(start) {
  if (start === void 0 || start.window <= 0 || start.compactAt <= 0) return void 0;
  return start.compactAt <= 1 ? start.window * start.compactAt : start.compactAt;
}
function sentOf(turn) {
  if (turn.usage !== void 0)
    return { tokens: turn.usage.promptTokens, cached: turn.usage.cachedTokens, estimated: false };
  return { tokens: turn.context?.tokens ?? 0, cached: 0, estimated: true };
}
function firedLayers(turn) {
  const fired = turn.context?.fired ?? [];
  return LAYERS.filter((layer) => fired.includes(layer));
}
function requestTitle(run, turn) {
  const sent = sentOf(turn);
  const parts = [
    sent.estimated ? `about ${grouped(sent.tokens)} tokens sent (estimated; no answer recorded)` : `${grouped(sent.tokens)} tokens sent, ${grouped(sent.cached)} cached (${percent(sent.cached, sent.tokens)})`
  ];
  if (turn.usage !== void 0) parts.push(`${grouped(turn.usage.completionTokens)} out`);
  if (turn.cost !== void 0) parts.push(dollars(turn.cost));
  const fired = turn.context?.fired ?? [];
  if (fired.length > 0) parts.push(`fired: ${fired.join(", ")}`);
  return escapeHtml(`run ${run}, turn ${turn.turn}: ${parts.join(" \xB7 ")}`);
}
function xLabels(requests, step, baseline) {
  const every = Math.max(1, Math.ceil(requests.length / 12));
  const last = requests.length - 1;
  let out = "";
  requests.forEach((turn, index) => {
    const shown = index % every === 0 ? index + every / 2 <= last || index === last : index === last;
    if (!shown) return;
    const x = LEFT + step * (index + 0.5);
    out += `<text class="tick" x="${at(x)}" y="${baseline + 14}" text-anchor="middle">${turn.turn}</text>`;
  });
  return out;
}
function yAxis(axis, label, top, bottom) {
  let out = "";
  const parts = Math.round(axis.max / axis.step);
  for (let part = 0; part <= parts; part++) {
    const value = axis.step * part;
    const y = bottom - (bottom - top) * part / parts;
    out += `<line class="grid" x1="${LEFT}" x2="${RIGHT}" y1="${at(y)}" y2="${at(y)}"/>`;
    out += `<text class="tick" x="${LEFT - 6}" y="${at(y + 4)}" text-anchor="end">${label(value)}</text>`;
  }
  return out;
}
function level(className, y, label) {
  return `<line class="${className}" x1="${LEFT}" x2="${RIGHT}" y1="${at(y)}" y2="${at(y)}"/><text class="lab ${className}-lab" x="${RIGHT + 6}" y="${at(y + 4)}">${label}</text>`;
}
var LEGEND = '<ul class="legend"><li><i class="sw sent"></i>tokens sent</li><li><i class="sw cached"></i>of which cached</li><li><i class="sw window"></i>context window</li><li><i class="sw threshold"></i>compaction threshold</li>' + LAYERS.map((layer) => `<li><i class="dot m-${layer}"></i>${layer} fired</li>`).join("") + "</ul>";
function contextChart(run) {
  const requests = requestsOf(run);
  if (requests.length === 0) return "";
  const window = run.start !== void 0 && run.start.window > 0 ? run.start.window : void 0;
  const threshold = thresholdOf(run.start);
  let highest = window ?? 0;
  for (const turn of requests) highest = Math.max(highest, sentOf(turn).tokens);
  const axis = axisFor(highest * 1.02);
  const max = axis.max;
  const y = (tokens) => PLOT_BOTTOM - (PLOT_BOTTOM - PLOT_TOP) * tokens / max;
  const step = (RIGHT - LEFT) / requests.length;
  const width = Math.max(step * 0.78, 0.6);
  let bars = "";
  requests.forEach((turn, index) => {
    const sent = sentOf(turn);
    const x = LEFT + step * index + (step - width) / 2;
    const data = sent.estimated ? "" : ` data-sent="${sent.tokens}" data-cached="${sent.cached}"`;
    bars += `<g class="req" data-turn="${turn.turn}"${data}><title>${requestTitle(run.run, turn)}</title>`;
    const top = y(sent.tokens);
    bars += `<rect class="${sent.estimated ? "est" : "sent"}" x="${at(x)}" y="${at(top)}" width="${at(width)}" height="${at(PLOT_BOTTOM - top)}"/>`;
    if (sent.cached > 0) {
      const cachedTop = y(sent.cached);
      bars += `<rect class="cached" x="${at(x)}" y="${at(cachedTop)}" width="${at(width)}" height="${at(PLOT_BOTTOM - cachedTop)}"/>`;
    }
    for (const layer of firedLayers(turn)) {
      const lane = LANES_TOP + LANE * (LAYERS.indexOf(layer) + 0.5);
      bars += `<circle class="mark m-${layer}" data-layer="${layer}" cx="${at(x + width / 2)}" cy="${at(lane)}" r="${at(Math.min(4, Math.max(1.5, step / 2.5)))}"/>`;
    }
    bars += "</g>";
  });
  let lanes = "";
  LAYERS.forEach((layer, index) => {
    const lane = LANES_TOP + LANE * (index + 0.5);
    lanes += `<text class="tick" x="${LEFT - 6}" y="${at(lane + 3.5)}" text-anchor="end">${layer}</text>`;
    lanes += `<line class="lane" x1="${LEFT}" x2="${RIGHT}" y1="${at(lane)}" y2="${at(lane)}"/>`;
  });
  let levels = "";
  if (window !== void 0) levels += level("window", y(window), `window ${shortCount(window)}`);
  if (threshold !== void 0 && window !== void 0)
    levels += level(
      "threshold",
      y(threshold),
      `compacts at ${shortCount(threshold)} (${percent(threshold, window)})`
    );
  const label = `Tokens sent per request in run ${run.run}`;
  const svg = `<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${label}">` + lanes + yAxis(axis, shortCount, PLOT_TOP, PLOT_BOTTOM) + bars + levels + xLabels(requests, step, PLOT_BOTTOM) + `<text class="tick" x="${RIGHT + 6}" y="${PLOT_BOTTOM + 14}">turn</text></svg>`;
  const estimated = requests.some((turn) => sentOf(turn).estimated) ? '<ul class="legend"><li><i class="sw est"></i>estimated: the request has no answer recorded</li></ul>' : "";
  return `<figure class="figure"><figcaption>Context per request</figcaption>${svg}${LEGEND}${estimated}</figure>`;
}
var COST_HEIGHT = 150;
var COST_TOP = 12;
var COST_BOTTOM = COST_HEIGHT - 24;
function costChart(run) {
  const requests = requestsOf(run);
  let total = 0;
  const totals = requests.map((turn) => total += turn.cost ?? 0);
  if (requests.length === 0 || total <= 0) return "";
  const axis = axisFor(total * 1.02);
  const max = axis.max;
  const step = (RIGHT - LEFT) / requests.length;
  const point = (value, index) => `${at(LEFT + step * (index + 0.5))},${at(COST_BOTTOM - (COST_BOTTOM - COST_TOP) * value / max)}`;
  const points = totals.map(point).join(" ");
  const first = `${at(LEFT + step * 0.5)},${COST_BOTTOM}`;
  const last = `${at(LEFT + step * (requests.length - 0.5))},${COST_BOTTOM}`;
  const end = totals.length - 1;
  const [endX, endY] = point(total, end).split(",");
  const svg = `<svg class="chart cost-chart" viewBox="0 0 ${WIDTH} ${COST_HEIGHT}" role="img" aria-label="Cost so far in run ${run.run}">` + yAxis(axis, (value) => money(value, axis.step), COST_TOP, COST_BOTTOM) + `<polygon class="cost-area" points="${first} ${points} ${last}"/><polyline class="cost" points="${points}"/><circle class="cost-end" cx="${endX}" cy="${endY}" r="3"/><text class="lab" x="${RIGHT + 6}" y="${endY}">${dollars(total)}</text>` + xLabels(requests, step, COST_BOTTOM) + "</svg>";
  return `<figure class="figure"><figcaption>Cost so far</figcaption>${svg}</figure>`;
}

// src/report/diff.ts
function gitPath(line) {
  const rest = line.slice("diff --git ".length);
  const b = rest.lastIndexOf(" b/");
  return b === -1 ? rest : rest.slice(b + 3);
}
function hunkSize(line) {
  const match = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(line);
  if (match === null) return void 0;
  return { old: Number(match[1] ?? 1), new: Number(match[2] ?? 1) };
}
function hunkLine(file, line) {
  const left = file.left;
  if (left === void 0 || left.old <= 0 && left.new <= 0 || line.startsWith("diff --git "))
    return false;
  const sign = line[0];
  if (sign === "+") [file.added, left.new] = [file.added + 1, left.new - 1];
  else if (sign === "-") [file.removed, left.old] = [file.removed + 1, left.old - 1];
  else if (sign !== "\\") [left.old, left.new] = [left.old - 1, left.new - 1];
  return true;
}
function diffFiles(diff) {
  const files = [];
  let current;
  const close = (end) => {
    if (current === void 0) return;
    const { path, added, removed, binary, start } = current;
    files.push({ path, added, removed, binary, text: diff.slice(start, end) });
  };
  for (let from = 0; from < diff.length; ) {
    let to = diff.indexOf("\n", from);
    if (to === -1) to = diff.length;
    const line = diff.slice(from, to);
    if (current === void 0 || !hunkLine(current, line)) {
      const plain = line.startsWith("--- ") && diff.startsWith("+++ ", to + 1);
      if (line.startsWith("diff --git ") || plain && !(current?.git === true && !current.hunks)) {
        close(from);
        const path = plain ? line.slice(4).replace(/^a\//, "") : gitPath(line);
        current = {
          path,
          added: 0,
          removed: 0,
          text: "",
          binary: false,
          start: from,
          git: !plain,
          hunks: false
        };
      } else if (current !== void 0) {
        const size2 = hunkSize(line);
        if (size2 !== void 0) [current.left, current.hunks] = [size2, true];
        else if (line.startsWith("+++ ") && line !== "+++ /dev/null")
          current.path = line.slice(4).replace(/^b\//, "");
        else if (line.startsWith("Binary files ")) current.binary = true;
      }
    }
    from = to + 1;
  }
  close(diff.length);
  return files;
}
var COLOURED_LINES = 2e4;
var OPEN_LINES = 300;
function lineClass(line, inHunk) {
  if (!inHunk) return "dh";
  if (line.startsWith("@@")) return "dk";
  if (line.startsWith("+")) return "da";
  if (line.startsWith("-")) return "dd";
  return void 0;
}
function diffBody(text, budget) {
  let out = "";
  let inHunk = false;
  let from = 0;
  while (from < text.length) {
    let to = text.indexOf("\n", from);
    if (to === -1) to = text.length;
    const line = text.slice(from, to);
    if (line.startsWith("@@")) inHunk = true;
    if (budget.lines <= 0) {
      out += escapeHtml(text.slice(from));
      break;
    }
    budget.lines -= 1;
    const className = lineClass(line, inHunk);
    const escaped = escapeHtml(line);
    out += className === void 0 ? `${escaped}
` : `<span class="${className}">${escaped}</span>
`;
    from = to + 1;
  }
  return out;
}
function diffSection(diff) {
  const files = diffFiles(diff);
  if (diff.trim() === "") return "";
  let added = 0;
  let removed = 0;
  for (const file of files) [added, removed] = [added + file.added, removed + file.removed];
  const most = files.reduce((top, file) => Math.max(top, file.added + file.removed), 1);
  const rows = files.map((file, index) => {
    const share = (n) => Math.round(40 * n / most);
    const [plus, minus] = [share(file.added), share(file.removed)];
    const bar = `<svg class="bars" viewBox="0 0 40 8" width="80" height="8" aria-hidden="true"><rect class="ba" width="${plus}" height="8"/><rect class="bd" x="${plus}" width="${minus}" height="8"/></svg>`;
    const counts = file.binary ? '<td class="num" colspan="2">binary</td>' : `<td class="num add">+${grouped(file.added)}</td><td class="num del">\u2212${grouped(file.removed)}</td>`;
    return `<tr><td><a href="#diff-${index}">${escapeHtml(file.path)}</a></td>${counts}<td>${bar}</td></tr>`;
  }).join("");
  const summary = `${files.length === 1 ? "1 file" : `${grouped(files.length)} files`} changed, ${grouped(added)} ${added === 1 ? "insertion" : "insertions"}(+), ${grouped(removed)} ${removed === 1 ? "deletion" : "deletions"}(\u2212)`;
  const budget = { lines: COLOURED_LINES };
  const open = countLines(diff) <= OPEN_LINES ? " open" : "";
  const bodies = files.length === 0 ? `<pre class="diff">${diffBody(diff, budget)}</pre>` : files.map(
    (file, index) => `<details class="file" id="diff-${index}"${open}><summary><code>${escapeHtml(file.path)}</code> <span class="add">+${grouped(file.added)}</span> <span class="del">\u2212${grouped(file.removed)}</span></summary><pre class="diff">${diffBody(file.text, budget)}</pre></details>`
  ).join("");
  return `<p class="diffstat">${summary}</p>` + (files.length === 0 ? "" : `<table class="stat">${rows}</table>`) + bodies;
}

// src/report/timeline.ts
var SPILL = /^\[full output, [\d,]+ chars, [\d,]+ lines: \S+/;
var DENIALS = ["Read-only file system", "Permission denied", "Operation not permitted"];
var REFUSAL = "refused by the permission rules:";
function spillMarks(content) {
  const marks = [];
  const files = [];
  for (let at2 = content.indexOf("[full output, "); at2 !== -1; at2 = content.indexOf("[full output, ", at2 + 1)) {
    const end = content.indexOf("\n", at2);
    const line = content.slice(at2, end === -1 ? void 0 : end);
    const match = SPILL.exec(line);
    if (match === null) continue;
    const close = line.indexOf("]");
    marks.push({ from: at2, to: at2 + (close === -1 ? line.length : close + 1), className: "spill" });
    files.push(match[0].slice(match[0].lastIndexOf(" ") + 1));
  }
  return { marks, files };
}
function exitCode(content) {
  const match = /^exit code: (-?\d+)/.exec(content);
  return match === null ? void 0 : Number(match[1]);
}
function resultKind(result) {
  if (result.content.startsWith(REFUSAL)) return "refused";
  const code = exitCode(result.content);
  const failed = result.isError || code !== void 0 && code !== 0;
  if (failed && DENIALS.some((phrase) => result.content.includes(phrase))) return "denied";
  if (result.isError) return "error";
  return failed ? "exit" : "ok";
}
function denialMarks(content) {
  const marks = [];
  for (const phrase of DENIALS) {
    for (let at2 = content.indexOf(phrase); at2 !== -1 && marks.length < 200; ) {
      const line = lineAround(content, at2);
      marks.push({ ...line, className: "deny" });
      at2 = content.indexOf(phrase, line.to);
    }
  }
  marks.sort((a, b) => a.from - b.from);
  return marks.filter((mark, index) => index === 0 || mark.from >= marks[index - 1].to);
}
var BADGES = {
  ok: "",
  exit: "",
  error: '<span class="badge b-error">error</span>',
  refused: '<span class="badge b-refused">refused by the permission rules</span>',
  denied: '<span class="badge b-denied">denied by the sandbox</span>'
};
function argumentsPart(call, shown) {
  if (call.arguments.trim() === "") return "";
  const args = callArguments(call);
  if (args === null)
    return `<div class="arg"><span class="k">arguments (not a JSON object):</span></div>${foldedPre(call.arguments, "args")}`;
  let out = "";
  for (const [key, value] of Object.entries(args)) {
    if (value === shown) continue;
    const text = typeof value === "string" ? value : JSON.stringify(value, null, 1);
    const multi = text.includes("\n") || text.length > 160;
    out += multi ? `<div class="arg"><span class="k">${escapeHtml(key)}</span></div>${foldedPre(text, key === "command" ? "cmd" : "args")}` : `<div class="arg"><span class="k">${escapeHtml(key)}</span> <code>${escapeHtml(text)}</code></div>`;
  }
  return out;
}
function callPart(view) {
  const { call, result } = view;
  const subject = callSubject(call);
  const line = subject === null ? void 0 : firstLine(subject, 200);
  const kind = result === void 0 ? "ok" : resultKind(result);
  let badges = BADGES[kind];
  let body = "";
  if (result === void 0) {
    body = '<p class="meta">No result recorded.</p>';
  } else {
    const content = withoutAnsi(result.content);
    const code = exitCode(content);
    if (code !== void 0 && code !== 0)
      badges += `<span class="badge b-exit">exit ${code}</span>`;
    const spill = spillMarks(content);
    if (spill.files.length > 0)
      badges += `<span class="badge b-spill">output spilled to ${escapeHtml(spill.files.join(", "))}</span>`;
    const marks = kind === "denied" ? [...spill.marks, ...denialMarks(content)] : spill.marks;
    marks.sort((a, b) => a.from - b.from);
    body = content === "" ? '<p class="meta">(empty result)</p>' : foldedPre(content, "out", marks);
  }
  const took = view.durationMs === void 0 ? "" : `<span class="dur">${duration(view.durationMs)}</span>`;
  const head = `<div class="call-head"><span class="tool">${escapeHtml(call.name)}</span>` + (line === void 0 ? "" : `<code class="subject">${escapeHtml(line)}</code>`) + `${badges}${took}</div>`;
  return `<div class="call k-${kind}">${head}${argumentsPart(call, line)}${body}</div>`;
}
function entry(counter, className, title, body, meta = "") {
  const id = `e${counter.next += 1}`;
  return `<article class="entry ${className}" id="${id}" tabindex="-1"><h3><a href="#${id}">${title}</a>${meta}</h3>${body}</article>`;
}
function turnMeta(turn) {
  const parts = [];
  if (turn.usage !== void 0) {
    const { promptTokens, cachedTokens, completionTokens } = turn.usage;
    parts.push(`${grouped(promptTokens)} sent`, `${percent(cachedTokens, promptTokens)} cached`);
    parts.push(`${grouped(completionTokens)} out`);
  } else if (turn.context !== void 0) {
    parts.push(`about ${grouped(turn.context.tokens)} sent`);
  }
  if (turn.cost !== void 0) parts.push(dollars(turn.cost));
  const tools = turn.calls.reduce((sum, view) => sum + (view.durationMs ?? 0), 0);
  if (tools > 0) parts.push(`tools ${duration(tools)}`);
  const known = firedLayers(turn);
  const layers = known.map((layer) => `<span class="layer m-${layer}">${layer}</span>`).join("");
  const others = (turn.context?.fired ?? []).filter((name) => !known.includes(name));
  const other = others.length === 0 ? "" : `<span class="meta">also fired: ${escapeHtml(others.join(", "))}</span>`;
  return `<span class="meta">${parts.join(" \xB7 ")}</span>${layers}${other}`;
}
function turnPart(counter, turn) {
  let body = "";
  for (const said of turn.said) body += `<div class="who">user</div>${foldedPre(said, "text")}`;
  for (const reminder of turn.reminders)
    body += `<div class="who">reminder</div>${foldedPre(reminder, "reminder")}`;
  if (turn.text === void 0) body += '<p class="meta">No answer recorded for this request.</p>';
  else if (turn.text.trim() !== "")
    body += `<div class="who">model</div>${foldedPre(turn.text, "text")}`;
  for (const call of turn.calls) body += callPart(call);
  const worst = turn.calls.some((view) => view.result?.isError === true) ? " has-error" : "";
  return entry(counter, `turn${worst}`, `Turn ${turn.turn}`, body, turnMeta(turn));
}
function compactionPart(counter, turn) {
  const body = '<p class="meta">The older history was replaced by this handoff note:</p>' + foldedPre(turn.compaction ?? "", "text");
  return entry(counter, "compaction", `Compaction before turn ${turn.turn}`, body);
}
function openingPart(counter, run) {
  if (run.system.length === 0 && run.opening.length === 0) return "";
  let body = "";
  for (const system of run.system)
    body += `<details><summary>system prompt (${grouped(system.length)} chars)</summary><pre class="text">${escapeHtml(system)}</pre></details>`;
  run.opening.forEach((message, index) => {
    body += `<div class="who">${index === 0 ? "task" : "user"}</div>${foldedPre(message, "text")}`;
  });
  return entry(counter, "opening", "Start", body);
}
function runFacts(run) {
  const parts = [];
  if (run.start !== void 0) parts.push(`started ${when(run.start.at)}`);
  const ms = run.start && run.end ? between(run.start.at, run.end.at) : void 0;
  if (ms !== void 0) parts.push(`took ${duration(ms)}`);
  parts.push(
    `ended: ${run.end === void 0 ? stopWords(void 0) : stopWords(run.end.stopReason)}`
  );
  if (run.start !== void 0) {
    const threshold = thresholdOf(run.start);
    parts.push(
      `window ${grouped(run.start.window)} tokens` + (threshold === void 0 ? "" : `, compaction at ${grouped(threshold)}`)
    );
  }
  const cost = run.turns.reduce((sum, turn) => sum + (turn.cost ?? 0), 0);
  parts.push(`${grouped(run.turns.filter(isAnswered).length)} turns`, dollars(cost));
  return `<p class="run-facts">${escapeHtml(parts.join(" \xB7 "))}</p>`;
}
function runPart(counter, run, index) {
  let out = `<section class="run" id="run-${index + 1}"><h2>Run ${escapeHtml(String(run.run))}</h2>`;
  out += runFacts(run) + contextChart(run) + costChart(run) + openingPart(counter, run);
  for (const turn of run.turns) {
    if (turn.compaction !== void 0) out += compactionPart(counter, turn);
    out += turnPart(counter, turn);
  }
  return `${out}</section>`;
}
function notices(data) {
  let out = "";
  if (data.dropped > 0)
    out += `<p class="notice">The transcript was cut to its size cap: its ${grouped(data.dropped)} oldest lines are not in it, so the first turns (and their part of the totals) may be missing.</p>`;
  if (data.skipped > 0)
    out += `<p class="notice">${data.skipped === 1 ? "1 line" : `${grouped(data.skipped)} lines`} of the transcript could not be read and ${data.skipped === 1 ? "is" : "are"} left out.</p>`;
  if (data.runs.length === 0) out += '<p class="notice">The transcript holds no run.</p>';
  return out;
}
function endPart(counter, input) {
  let out = "";
  if (input.note !== void 0 && input.note.trim() !== "")
    out += entry(counter, "handoff", "Handoff note", foldedPre(input.note, "text"));
  if (input.diff !== void 0 && input.diff.trim() !== "")
    out += entry(counter, "final-diff", "Diff", diffSection(input.diff));
  return out === "" ? "" : `<section class="run" id="end"><h2>Where it ended</h2>${out}</section>`;
}

// src/report/render.ts
function cspHash(text) {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}
function contentSecurityPolicy() {
  return [
    "default-src 'none'",
    `script-src ${cspHash(SCRIPT)}`,
    `style-src ${cspHash(STYLE)}`,
    "img-src data:",
    "base-uri 'none'",
    "form-action 'none'"
  ].join("; ");
}
var BAR = '<nav class="bar" aria-label="Search and keys"><div><input id="q" type="search" placeholder="Search turns (press /)" aria-label="Search turns" autocomplete="off" spellcheck="false"><span id="count" aria-live="polite"></span><span class="keys"><kbd>j</kbd>/<kbd>k</kbd> next/previous entry (or <kbd>n</kbd>/<kbd>p</kbd>) \xB7 <kbd>/</kbd> search \xB7 <kbd>Enter</kbd> first match \xB7 <kbd>Esc</kbd> clear \xB7 <kbd>o</kbd> open/close outputs \xB7 <kbd>t</kbd> theme</span></div></nav>';
function renderReport(input) {
  const data = readTranscript(input.transcript);
  const summary = summarize(data, input);
  const counter = { next: 0 };
  const runs = data.runs.map((run, index) => runPart(counter, run, index)).join("");
  const title = summary.task === "" ? "pitcrew run report" : `pitcrew: ${firstLine(summary.task, 80)}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy()}"><meta name="referrer" content="no-referrer"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>` + header(summary, input) + BAR + `<main>${notices(data)}${runs}${endPart(counter, input)}</main><footer>Written by pitcrew. Everything quoted here came from the run and is shown as text.</footer><script>${SCRIPT}</script></body></html>
`;
}

export {
  readTranscript,
  requestsOf,
  axisFor,
  sentOf,
  renderReport
};
