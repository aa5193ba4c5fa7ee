/**
 * The report page's one stylesheet and one script, constant text: the Content-Security-Policy
 * allows exactly these two by their hashes (render.ts computes them), so no data may ever be put
 * into either. The script reads the page's DOM only: keyboard moves between entries, the search
 * box filters and highlights them, `t` switches the theme.
 */

/** Light and dark follow `prefers-color-scheme` (light-dark()); `t` pins one with a class. */
export const STYLE = `
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
details.has-hit>summary::after{content:" · matches inside";color:var(--fg);background:var(--hit)}
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

/** Keys: j/n next entry, k/p previous, / search, Enter first match, Esc clear, o fold, t theme. */
export const SCRIPT = `
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
