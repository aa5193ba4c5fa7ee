import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);

// src/context/cap.ts
var INLINE_MAX_CHARS = 1e4;
var KEEP_CHARS = 4e3;
var LINE_SNAP = 1e3;
function isLowSurrogate(code) {
  return code >= 56320 && code <= 57343;
}
function onCharBoundary(text, index) {
  return index > 0 && index < text.length && isLowSurrogate(text.charCodeAt(index)) ? index - 1 : index;
}
function countLines(text) {
  let lines = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) lines++;
  return text.length > 0 && !text.endsWith("\n") ? lines + 1 : lines;
}
function spillNotice(whole, path) {
  return `[full output, ${whole.length} chars, ${countLines(whole)} lines: ${path} \u2014 page it with head, tail, sed -n 'A,Bp' or grep]`;
}
function cutAround(text, notice) {
  return text.length <= INLINE_MAX_CHARS ? text : keepEnds(text, KEEP_CHARS, notice);
}
function keepEnds(text, keep, notice) {
  if (text.length <= 2 * keep) return text;
  const snap = Math.min(LINE_SNAP, Math.floor(keep / 4));
  let headEnd = onCharBoundary(text, keep);
  const headBreak = text.lastIndexOf("\n", headEnd - 1);
  if (headBreak !== -1 && headEnd - headBreak <= snap) headEnd = headBreak + 1;
  let tailStart = onCharBoundary(text, text.length - keep);
  const tailBreak = text.indexOf("\n", tailStart);
  if (tailBreak !== -1 && tailBreak - tailStart < snap) tailStart = tailBreak + 1;
  const head = text.slice(0, headEnd);
  const lines = notice.join("\n");
  return keep === 0 ? lines : `${head}${head.endsWith("\n") ? "" : "\n"}${lines}
${text.slice(tailStart)}`;
}
function toSpill(text) {
  return text.length <= INLINE_MAX_CHARS ? null : `${text}
`;
}
function capped(text, spilled, cut) {
  const whole = `${text}
`;
  const notice = "path" in spilled ? [spillNotice(whole, spilled.path)] : [
    `[output cut to its head and tail (${whole.length} chars, ${countLines(whole)} lines in all) and not saved; ${spilled.notSaved}]`
  ];
  for (const stream of cut) {
    notice.push(
      `[the sandbox's output ceiling had already dropped the middle of ${stream.label} (${stream.bytes} bytes written); that part is lost. To keep everything, redirect it to a file under /tmp and search that in the same command]`
    );
  }
  return cutAround(text, notice);
}

export {
  INLINE_MAX_CHARS,
  keepEnds,
  toSpill,
  capped
};
