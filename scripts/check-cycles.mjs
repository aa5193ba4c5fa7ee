// Fails when the sources import in a circle: a folder cycle (folder = the first path segment
// under the root, e.g. src/agent/ → "agent"; a file at the root is its own folder) or a file
// cycle. Each cycle is named with the imports that make it, so the fix is clear.
//
//   node scripts/check-cycles.mjs [ROOT]              cruise ROOT (default src) with dependency-cruiser
//   node scripts/check-cycles.mjs --graph FILE [ROOT] read a dependency-cruiser JSON result instead
//
// Type-only imports count: a layer that needs another's types depends on it all the same.
import { readFileSync } from "node:fs";
import { posix } from "node:path";

/** The imports between files under `root`, as [from, to] pairs, from a dependency-cruiser result. */
function fileEdges(result, root) {
  const prefix = `${posix.normalize(root).replace(/\/$/, "")}/`;
  const edges = new Map();
  for (const module of result.modules ?? []) {
    if (!module.source.startsWith(prefix)) continue;
    for (const dependency of module.dependencies ?? []) {
      const to = dependency.resolved;
      if (typeof to !== "string" || !to.startsWith(prefix) || to === module.source) continue;
      edges.set(`${module.source}\0${to}`, [module.source, to]);
    }
  }
  return [...edges.values()];
}

function folderOf(file, root) {
  return posix.relative(posix.normalize(root), file).split("/")[0];
}

/** The strongly connected groups of more than one node (Tarjan), each sorted, sorted by first. */
function circularGroups(edges) {
  const next = new Map();
  for (const [from, to] of edges) {
    if (!next.has(from)) next.set(from, []);
    if (!next.has(to)) next.set(to, []);
    next.get(from).push(to);
  }
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  let counter = 0;
  // Iterative, so a long import chain cannot overflow the call stack.
  for (const start of [...next.keys()].sort()) {
    if (index.has(start)) continue;
    const work = [[start, 0]];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, at] = frame;
      const targets = next.get(node);
      if (at < targets.length) {
        frame[1] += 1;
        const target = targets[at];
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push([target, 0]);
        } else if (onStack.has(target)) {
          low.set(node, Math.min(low.get(node), index.get(target)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === index.get(node)) {
        const group = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          group.push(member);
        } while (member !== node);
        if (group.length > 1) groups.push(group.sort());
      }
    }
  }
  return groups.sort((a, b) => a[0].localeCompare(b[0]));
}

/** One shortest way round a group, from its first member back to it: [a, b, …, a]. */
function loopThrough(group, edges) {
  const members = new Set(group);
  const start = group[0];
  const cameFrom = new Map();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const [from, to] of edges) {
      if (from !== node || !members.has(to)) continue;
      if (to === start) {
        const path = [];
        for (let at = node; at !== start; at = cameFrom.get(at)) path.unshift(at);
        return [start, ...path, start];
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, node);
        queue.push(to);
      }
    }
  }
  throw new Error(`check-cycles: ${group.join(", ")} is not a circle`);
}

/**
 * The folder cycles and the file cycles in a dependency-cruiser result. A folder cycle carries
 * the file imports behind each of its steps.
 */
function findCycles(result, root = "src") {
  const files = fileEdges(result, root);
  const byFolders = new Map();
  for (const [from, to] of files) {
    const a = folderOf(from, root);
    const b = folderOf(to, root);
    if (a === b) continue;
    const key = `${a}\0${b}`;
    if (!byFolders.has(key)) byFolders.set(key, { edge: [a, b], imports: [] });
    byFolders.get(key).imports.push(`${from} → ${to}`);
  }
  const folderEdges = [...byFolders.values()].map(({ edge }) => edge);
  const folders = circularGroups(folderEdges).map((group) => {
    const loop = loopThrough(group, folderEdges);
    const steps = loop.slice(1).map((to, at) => ({
      from: loop[at],
      to,
      imports: byFolders.get(`${loop[at]}\0${to}`).imports,
    }));
    return { members: group, loop, steps };
  });
  const fileCycles = circularGroups(files).map((group) => ({
    members: group,
    loop: loopThrough(group, files),
  }));
  return { folders, files: fileCycles };
}

/** The report a person reads: every cycle with what to look at; "" when there is none. */
function describeCycles({ folders, files }) {
  const lines = [];
  for (const cycle of folders) {
    lines.push(`folder cycle: ${cycle.loop.join(" → ")}`);
    for (const step of cycle.steps) {
      lines.push(`  ${step.from} → ${step.to}:`);
      for (const line of step.imports) lines.push(`    ${line}`);
    }
    if (cycle.members.length > cycle.loop.length - 1)
      lines.push(`  (the whole circle: ${cycle.members.join(", ")})`);
  }
  for (const cycle of files) {
    lines.push(`file cycle: ${cycle.loop.join(" → ")}`);
    if (cycle.members.length > cycle.loop.length - 1)
      lines.push(`  (the whole circle: ${cycle.members.join(", ")})`);
  }
  return lines.join("\n");
}

async function cruiseRoot(root) {
  const { cruise } = await import("dependency-cruiser");
  const { output } = await cruise([root], {
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
  });
  return output;
}

async function main(args) {
  const at = args.indexOf("--graph");
  const graphFile = at === -1 ? undefined : args[at + 1];
  if (at !== -1 && graphFile === undefined) {
    console.error("check-cycles: --graph needs a file (a dependency-cruiser JSON result).");
    return 2;
  }
  const rest = args.filter((_, index) => at === -1 || (index !== at && index !== at + 1));
  const root = rest[0] ?? "src";
  const result =
    graphFile === undefined ? await cruiseRoot(root) : JSON.parse(readFileSync(graphFile, "utf8"));
  const cycles = findCycles(result, root);
  const report = describeCycles(cycles);
  if (report !== "") {
    console.error(report);
    console.error(
      `check-cycles: ${cycles.folders.length} folder cycle(s) and ${cycles.files.length} file cycle(s) under ${root}/. ` +
        "Move the shared words down (src/domain/) or hand the dependency in, so imports point one way.",
    );
    return 1;
  }
  const count = fileEdges(result, root).length;
  console.log(
    `check-cycles: no folder or file cycle under ${root}/ (${count} imports between files).`,
  );
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
