/**
 * Which shell parser the permission rules (src/agent/permissions.ts) stand on, measured rather
 * than guessed: tree-sitter-bash through web-tree-sitter (WebAssembly) against mvdan-sh (the Go
 * parser behind shfmt, compiled to JavaScript by GopherJS). Each candidate's parse entry is
 * bundled with esbuild exactly as scripts/build.mjs bundles the action (wasm files copied beside
 * the bundle), then fresh Node processes load that bundle and measure: bundle and wasm bytes,
 * cold init (import + parser ready), µs per command over CORPUS (parse only, and parse plus a
 * walk of every node), which hard constructs parse and which broken inputs are caught. Last, the
 * real checker's `check()` over the same corpus, and how many real commands it refuses, by source
 * (command-corpus.ts), with no deny rules and with the deny rules the docs give as examples: what
 * a deny list costs ordinary work. It does not judge the rules themselves; the tests do that.
 */
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { createPermissionChecker } from "../src/agent/permissions.ts";
import { commandSources } from "./command-corpus.ts";
import type { BenchOptions } from "./run.ts";
import { stats } from "./rounds.ts";
import type { Stats } from "./rounds.ts";

export const name = "permissions-parse";
export const description =
  "shell parsers for the permission rules: bundle size, cold init, µs per command (tree-sitter-bash vs mvdan-sh)";

const DEFAULT_RUNS = 50;
const DEFAULT_WARMUP = 5;
/** Fresh processes for the cold-init figure. */
const COLD_RUNS = 10;
const REPO = fileURLToPath(new URL("..", import.meta.url));
/** Where a candidate that is not a dependency (the one not chosen) is installed for comparison. */
const CACHE = join(REPO, "node_modules", ".cache", "pitcrew-bench");

/**
 * About 200 commands of the kind an agent runs in CI: test runners, builds, search, edits,
 * pipelines, redirections, heredocs, loops, subshells, substitutions, wrappers. Every one is
 * valid bash and should be allowed by the permission rules.
 */
export const CORPUS: readonly string[] = [
  "npm test",
  "npm ci",
  "npm run build",
  "npm run lint -- --fix",
  'npm test -- --grep "parses heredocs"',
  "npx tsc --noEmit",
  "npx eslint src/ --ext .ts",
  "npx prettier --check .",
  "npx vitest run src/utils.test.ts",
  "npx jest --runInBand tests/api.test.js 2>&1 | tail -50",
  "node --test test/agent/loop.test.ts",
  `node -e 'console.log(require("./package.json").version)'`,
  "yarn install --frozen-lockfile",
  "pnpm -r test",
  "pytest -x",
  "pytest -x -q tests/test_parser.py::test_heredoc",
  'python -m pytest -k "not slow" --maxfail=1 -q',
  "python3 -m pip install -e '.[dev]'",
  "python3 -c 'import sys; print(sys.version)'",
  "python -m mypy src/",
  "ruff check . --fix",
  "black --check src tests",
  "tox -e py312",
  "cargo test",
  "cargo test --workspace -- --nocapture",
  "cargo build --release 2>&1 | grep -E '^(error|warning)' | head -20",
  "cargo clippy --all-targets -- -D warnings",
  "cargo fmt --all -- --check",
  "go test ./...",
  "go test -run TestParse -v ./internal/parser/",
  "go vet ./... && gofmt -l .",
  "make",
  "make -j4 test",
  "make -C build check",
  "cmake -S . -B build && cmake --build build -j",
  "ctest --test-dir build --output-on-failure",
  "./gradlew test --tests 'com.example.ParserTest'",
  "mvn -q -DskipTests package",
  "bundle exec rspec spec/models/user_spec.rb",
  "bundle exec rake test TEST=test/unit/parser_test.rb",
  "mix test test/parser_test.exs:42",
  "dotnet test --filter Category=Unit",
  "deno test -A",
  "git status",
  "git status --short",
  "git diff",
  "git diff --stat HEAD~1",
  "git diff -- src/parser.ts",
  "git log --oneline -20",
  "git log -p -3 -- src/agent/loop.ts",
  "git show HEAD:src/index.ts | head -40",
  "git blame -L 10,30 src/main.ts",
  "git add -A",
  "git add src/parser.ts test/parser.test.ts",
  "git stash list",
  "git branch -a",
  "git rev-parse --abbrev-ref HEAD",
  "git ls-files '*.ts' | wc -l",
  "git grep -n \"TODO\" -- '*.py'",
  "git checkout -- src/broken.ts",
  "git restore --staged package-lock.json",
  "ls",
  "ls -la",
  "ls -la src/ test/",
  "tree -L 2 -I node_modules",
  "pwd",
  "cat package.json",
  "cat -n src/main.ts | sed -n '40,80p'",
  "head -n 50 README.md",
  "tail -n 100 logs/test.log",
  "wc -l src/**/*.ts",
  'grep -rn "parseConfig" src/',
  "grep -rn --include='*.py' \"def test_\" tests/ | wc -l",
  'grep -RIl "deprecated" --exclude-dir=node_modules .',
  "grep -n 'TODO\\|FIXME' -r src | head -30",
  'rg -n "fn parse" --type rust',
  `rg -l 'import .* from "lodash"' src`,
  "rg --files | rg '\\.test\\.ts$'",
  "find . -name '*.test.ts' -not -path './node_modules/*'",
  "find . -type f -name '*.pyc' -delete",
  "find src -name '*.ts' -exec grep -l \"any\" {} \\;",
  "find . -name '*.orig' -exec rm {} +",
  "find tests -type d -name __pycache__ -prune -exec rm -rf {} +",
  "find . -newer package.json -type f | head",
  "fd -e ts -x wc -l",
  "sed -n '1,120p' src/agent/loop.ts",
  "sed -i 's/oldName/newName/g' src/parser.ts",
  "sed -i.bak -e 's/^version = .*/version = \"1.2.3\"/' pyproject.toml",
  "sed -i '/^import unused/d' src/a.py src/b.py",
  "sed -E 's/([0-9]+)/<\\1>/g' input.txt > output.txt",
  "awk '{print $1}' access.log | sort | uniq -c | sort -rn | head",
  "awk -F: '$3 >= 1000 {print $1}' data.txt",
  "perl -pi -e 's/\\bfoo\\b/bar/g' lib/*.pm",
  "jq '.dependencies | keys' package.json",
  "jq -r '.scripts.test' package.json",
  "cat coverage/coverage-summary.json | jq '.total.lines.pct'",
  "diff -u expected.txt actual.txt",
  "diff <(sort a.txt) <(sort b.txt)",
  "comm -13 <(sort old.txt) <(sort new.txt)",
  "cmp -s a.bin b.bin && echo same || echo different",
  "sort -u names.txt -o names.txt",
  "cut -d, -f2 data.csv | sort | uniq -c",
  "tr -d '\\r' < windows.txt > unix.txt",
  "xargs -n1 echo < files.txt",
  "git ls-files -z '*.py' | xargs -0 ruff format",
  "find . -name '*.ts' | xargs grep -l 'console.log' | head",
  "ls src/*.c | xargs -I{} gcc -c {} -o {}.o",
  'echo "$PATH"',
  "echo $HOME",
  'printf \'%s\\n\' "a" "b" "c"',
  "env | sort",
  "env NODE_ENV=test npm test",
  "NODE_ENV=production node dist/cli.js --help",
  "CI=1 FORCE_COLOR=0 npm test 2>&1 | tail -30",
  "RUST_BACKTRACE=1 cargo test failing_test",
  "PYTHONPATH=src python -m mypkg.cli --version",
  'export PATH="$PWD/node_modules/.bin:$PATH"',
  "which node python3 cargo",
  'command -v rg || echo "no ripgrep"',
  "type -a python",
  "node --version && npm --version",
  "uname -a",
  "nproc",
  "df -h .",
  "du -sh node_modules",
  "mkdir -p src/agent/shell",
  "mkdir -p build && cd build && cmake .. && make",
  "cd packages/core && npm test",
  "touch src/__init__.py",
  "cp src/config.example.json src/config.json",
  "cp -r fixtures/ tests/fixtures/",
  "mv src/old.ts src/new.ts",
  "rm -rf node_modules dist",
  "rm -f test/tmp/*.log",
  "rm -rf build/ .pytest_cache/ .mypy_cache/",
  "rmdir empty-dir",
  "ln -s ../shared/config.json config.json",
  "chmod +x scripts/build.sh",
  "./scripts/build.sh",
  "bash scripts/test.sh --quick",
  "sh -c 'cd packages/api && npm test'",
  'bash -c "npm run build && npm test"',
  "timeout 60 npm test",
  "timeout 300 pytest -x tests/slow/",
  "nice -n 10 make -j",
  "nohup ./server.sh > server.log 2>&1 &",
  "time npm run build",
  "echo \"export const VERSION = '1.0.0';\" > src/version.ts",
  'echo "node_modules/" >> .gitignore',
  "printf 'line1\\nline2\\n' > tests/fixtures/two-lines.txt",
  "npm test > /tmp/test-output.txt 2>&1; tail -40 /tmp/test-output.txt",
  "npm test 2>&1 | tee /tmp/npm-test.log | tail -20",
  'pytest -x 2>/dev/null || echo "tests failed"',
  "make test &> build.log",
  [
    "cat > src/util.ts <<'EOF'",
    "export function clamp(value: number, low: number, high: number): number {",
    "  return Math.min(high, Math.max(low, value));",
    "}",
    "EOF",
  ].join("\n"),
  ["cat <<EOF > config.yml", "name: $PROJECT", "version: 1", "EOF"].join("\n"),
  [
    "python3 - <<'PY'",
    "import json",
    'with open("package.json") as f:',
    '    print(json.load(f)["name"])',
    "PY",
  ].join("\n"),
  ["cat >> CHANGELOG.md << 'END'", "## Unreleased", "- Fix the parser.", "END"].join("\n"),
  ["tee src/new.ts > /dev/null <<'EOF'", "export const x = 1;", "EOF"].join("\n"),
  ["cat <<-EOF | sort", "\tb", "\ta", "\tEOF"].join("\n"),
  "git diff --name-only | grep '\\.ts$' | xargs npx prettier --write",
  'for f in src/*.ts; do echo "== $f"; head -3 "$f"; done',
  "for i in 1 2 3; do npm test && break; done",
  'for i in $(seq 1 5); do pytest tests/test_flaky.py -x -q || echo "run $i failed"; done',
  "for ((i = 0; i < 10; i++)); do node bench.js; done",
  'while read -r line; do echo "${line%%:*}"; done < errors.txt',
  "while ! nc -z localhost 5432; do sleep 1; done",
  'if [ -f package.json ]; then npm test; else echo "no package.json"; fi',
  "if [[ -d .venv ]]; then source .venv/bin/activate; fi",
  'if ! grep -q "strict" tsconfig.json; then echo missing; fi',
  "[ -d node_modules ] || npm ci",
  "test -f Cargo.lock && cargo test --locked",
  'case "$(uname -s)" in Linux) echo linux ;; Darwin) echo mac ;; *) echo other ;; esac',
  "case $1 in -h|--help) usage; exit 0;; esac",
  'run_tests() { npm test -- "$@"; }; run_tests --grep parser',
  'function cleanup { rm -rf "$TMPDIR/work"; }; trap cleanup EXIT',
  "(cd frontend && npm ci && npm run build)",
  "(cd /tmp && ls)",
  '{ echo "start"; npm test; echo "end"; } > run.log 2>&1',
  'echo "Found $(grep -c TODO src/*.ts) TODOs"',
  'COUNT=$(git ls-files | wc -l); echo "$COUNT files"',
  'echo "Today is `date +%F`"',
  "echo $(( 3 * (4 + 5) ))",
  "x=$((RANDOM % 10)); echo $x",
  "(( n = 5 * 2 )); echo $n",
  'let "i += 1"',
  'arr=(one two three); echo "${arr[1]}" "${#arr[@]}"',
  'name=${1:-default}; echo "${name^^}"',
  'file=src/main.ts; echo "${file%.ts}.js" "${file##*/}"',
  "echo {1..5}",
  "cp config.{json,json.bak}",
  "mkdir -p test/{unit,integration,e2e}",
  "echo $'tab\\there'",
  "cat <(git show HEAD:package.json) | jq .version",
  "paste <(cut -f1 a.tsv) <(cut -f2 b.tsv)",
  "tee >(wc -l) < input.txt > /dev/null",
  "exec 3< input.txt; read -r first <&3; exec 3<&-",
  "set -euo pipefail; npm ci; npm test",
  "set -x && make test",
  "trap 'echo interrupted' INT",
  "curl -sS http://localhost:3000/health || true",
  "python3 -m http.server 8000 &",
  "sleep 2 && kill %1",
  'kill -9 $(pgrep -f "node server.js") 2>/dev/null',
  "ps aux | grep -v grep | grep node",
  "wait",
  "git log --format='%h %s' | grep -i fix | head -5",
  "git diff HEAD --stat | tail -1",
  'git log --since="2 weeks ago" --author="$(git config user.name)" --oneline',
  "git stash && npm test; git stash pop",
  "gzip -dc logs/archive.gz | grep ERROR | tail",
  "tar -xzf fixtures.tar.gz -C tests/fixtures",
  "unzip -o data.zip -d data/",
  "base64 -d encoded.txt > decoded.bin",
  "sha256sum dist/*.js",
  "stat -c '%s %n' dist/*",
  'basename "$PWD"',
  "dirname src/agent/loop.ts",
  "realpath ../sibling",
  "readlink -f node_modules/.bin/tsc",
  "date -u +%Y-%m-%dT%H:%M:%SZ",
  "seq 1 10 | paste -sd+ | bc",
  "yes | head -3",
  "true",
  ":",
  'echo "done" && exit 0',
];

/** Constructs a parser must handle without failing: `[label, source]`. */
const CONSTRUCTS: readonly (readonly [string, string])[] = [
  ["heredoc", "cat <<EOF > out.txt\nhello $(whoami)\nEOF"],
  ["quoted heredoc, <<-", "cat <<-'EOF' | sh\n\techo hi\n\tEOF"],
  ["here-string", 'grep x <<< "$(cat a.txt)"'],
  ["arithmetic", "echo $(( (1 + 2) * 3 )); (( i++ )); let x=1+2"],
  ["c-style for", "for ((i = 0; i < 3; i++)); do echo $i; done"],
  ["case", "case $x in a|b) echo ab ;; c) echo c ;& *) echo other ;; esac"],
  ["function", "f() { echo hi; }; function g { f; }; g"],
  ["process substitution", "diff <(sort a) <(sort b) > >(tee log)"],
  ["test brackets", "[[ -f x && $y =~ ^a.*$ ]] && [ -d z ]"],
  ["arrays", 'a=(1 2 3); a+=(4); echo "${a[@]}" "${#a[*]}"'],
  ["parameter expansion", 'echo "${x:-d}" "${x#*/}" "${x//a/b}" "${!p}"'],
  ["ansi-c string", "echo $'a\\tb\\n'"],
  ["brace expansion", "echo {a,b}{1..3}"],
  ["backticks", "echo `date` `git rev-parse HEAD`"],
  ["subshell and group", "(cd x && make) && { echo ok; }"],
  ["coproc / select", "select x in a b; do break; done"],
  ["background and negation", "! grep -q x file & wait"],
  ["comment", "ls # rm -rf /"],
];

/** Inputs bash itself rejects: a parser should report each as a syntax error. */
const BROKEN: readonly string[] = [
  'echo "unterminated',
  "echo 'unterminated",
  "echo $(ls",
  "echo `ls",
  "if true; then echo",
  "for x in a; do echo",
  "case x in",
  "f() {",
  "a &&",
  "| grep x",
  "echo ${",
  "cat <<EOF\nno end",
  "echo >",
  "(( 1 +",
  "fi",
  "done",
  "a ;; b",
];

interface Candidate {
  label: string;
  /** npm specs, for installing into the bench cache when not a dependency. */
  packages: readonly string[];
  /** Files copied beside the bundle: [package-relative path, file name]. */
  assets: readonly (readonly [string, string])[];
  /** The bundled entry: exports `init()` resolving to a `ParseProbe`. */
  entry: string;
}

const TREE_SITTER: Candidate = {
  label: "tree-sitter-bash (web-tree-sitter)",
  packages: ["web-tree-sitter", "tree-sitter-bash"],
  assets: [
    ["web-tree-sitter/web-tree-sitter.wasm", "web-tree-sitter.wasm"],
    ["tree-sitter-bash/tree-sitter-bash.wasm", "tree-sitter-bash.wasm"],
  ],
  entry: `
import { readFileSync } from "node:fs";
import { Language, Parser } from "web-tree-sitter";
export async function init() {
  await Parser.init({ wasmBinary: readFileSync(new URL("./web-tree-sitter.wasm", import.meta.url)) });
  const bash = await Language.load(readFileSync(new URL("./tree-sitter-bash.wasm", import.meta.url)));
  const parser = new Parser();
  parser.setLanguage(bash);
  return {
    parse(source) {
      const tree = parser.parse(source);
      const error = tree === null ? "no tree" : tree.rootNode.hasError ? "syntax error" : null;
      tree?.delete();
      return error;
    },
    walk(source) {
      const tree = parser.parse(source);
      const cursor = tree.walk();
      let nodes = 0;
      for (;;) {
        nodes++;
        cursor.nodeType;
        if (cursor.gotoFirstChild()) continue;
        if (cursor.gotoNextSibling()) continue;
        let up = true;
        while (up) {
          if (!cursor.gotoParent()) { up = false; break; }
          if (cursor.gotoNextSibling()) break;
        }
        if (!up) break;
      }
      cursor.delete();
      tree.delete();
      return nodes;
    },
  };
}
`,
};

const MVDAN_SH: Candidate = {
  label: "mvdan-sh (GopherJS)",
  packages: ["mvdan-sh"],
  assets: [],
  entry: `
import sh from "mvdan-sh";
export async function init() {
  const { syntax } = sh;
  const parser = syntax.NewParser();
  return {
    parse(source) {
      try { parser.Parse(source, ""); return null; }
      catch (error) { return String(error && error.Error ? error.Error() : error); }
    },
    walk(source) {
      const file = parser.Parse(source, "");
      let nodes = 0;
      syntax.Walk(file, (node) => { if (node) { nodes++; syntax.NodeType(node); } return true; });
      return nodes;
    },
  };
}
`,
};

/** Loads the bundle in a fresh process and reports what it measured as one line of JSON. */
const DRIVER = `
const started = performance.now();
const { init } = await import("./parser.mjs");
const probe = await init();
const initMs = performance.now() - started;
const rssMiB = process.memoryUsage().rss / 1048576;
const input = JSON.parse(await (await import("node:fs/promises")).readFile(process.argv[2], "utf8"));
const out = { initMs, rssMiB };
if (input.measure) {
  const timeAll = (fn) => {
    const samples = input.corpus.map(() => []);
    for (let round = 0; round < input.warmup + input.runs; round++) {
      for (let i = 0; i < input.corpus.length; i++) {
        const t = performance.now();
        fn(input.corpus[i]);
        const dt = performance.now() - t;
        if (round >= input.warmup) samples[i].push(dt * 1000);
      }
    }
    return samples;
  };
  out.rejected = input.corpus.map((c) => [c, probe.parse(c)]).filter(([, e]) => e !== null);
  out.parse = timeAll((c) => probe.parse(c));
  out.walk = timeAll((c) => probe.walk(c));
  out.nodes = input.corpus.reduce((n, c) => n + probe.walk(c), 0);
  out.constructs = input.constructs.map(([label, source]) => {
    try { return [label, probe.parse(source)]; } catch (e) { return [label, "threw: " + e]; }
  });
  out.broken = input.broken.map((source) => {
    try { return [source, probe.parse(source)]; } catch (e) { return [source, "threw: " + e]; }
  });
}
process.stdout.write(JSON.stringify(out));
`;

interface DriverOutput {
  initMs: number;
  rssMiB: number;
  rejected?: [string, string][];
  parse?: number[][];
  walk?: number[][];
  nodes?: number;
  constructs?: [string, string | null][];
  broken?: [string, string | null][];
}

interface Measured {
  candidate: Candidate;
  versions: string;
  installedBytes: number;
  bundleBytes: number;
  wasmBytes: number;
  init: Stats;
  rssMiB: number;
  parse: Stats;
  walk: Stats;
  parseMax: number;
  walkMax: number;
  parseTotalMs: number;
  walkTotalMs: number;
  nodes: number;
  rejected: [string, string][];
  constructsFailed: string[];
  brokenMissed: string[];
}

function folderBytes(path: string): number {
  const info = statSync(path);
  if (!info.isDirectory()) return info.size;
  let bytes = 0;
  for (const entry of readdirSync(path)) bytes += folderBytes(join(path, entry));
  return bytes;
}

/** The node_modules folder holding every package of `candidate`, installing it if need be. */
function modulesFor(candidate: Candidate): { modules: string; note: string } {
  const repoModules = join(REPO, "node_modules");
  if (candidate.packages.every((pkg) => existsSync(join(repoModules, pkg, "package.json")))) {
    return { modules: repoModules, note: "dependency" };
  }
  const prefix = join(CACHE, candidate.packages.join("+"));
  const modules = join(prefix, "node_modules");
  if (!candidate.packages.every((pkg) => existsSync(join(modules, pkg, "package.json")))) {
    mkdirSync(prefix, { recursive: true });
    writeFileSync(join(prefix, "package.json"), '{ "private": true }\n');
    const npm = spawnSync(
      "npm",
      [
        "install",
        "--no-save",
        "--no-package-lock",
        "--ignore-scripts",
        "--no-audit",
        "--no-fund",
        "--prefix",
        prefix,
        ...candidate.packages,
      ],
      { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
    );
    if (npm.status !== 0) {
      throw new Error(
        `${candidate.label} is not installed and \`npm install\` into ${prefix} failed: ${npm.stderr.trim().split("\n").slice(-3).join(" ")}`,
      );
    }
  }
  return { modules, note: `not a dependency; installed for comparison in ${prefix}` };
}

function versionOf(modules: string, pkg: string): string {
  const require = createRequire(join(modules, "noop.js"));
  const manifest = require(join(modules, pkg, "package.json")) as { version: string };
  return `${pkg}@${manifest.version}`;
}

async function measureCandidate(
  candidate: Candidate,
  work: string,
  runs: number,
  warmup: number,
): Promise<Measured> {
  const { modules, note } = modulesFor(candidate);
  const dir = join(work, candidate.packages[0] ?? "candidate");
  mkdirSync(dir, { recursive: true });
  await build({
    stdin: { contents: candidate.entry, resolveDir: dir, sourcefile: "entry.mjs", loader: "js" },
    outfile: join(dir, "parser.mjs"),
    nodePaths: [modules],
    bundle: true,
    platform: "node",
    target: "node24",
    format: "esm",
    minify: true,
    legalComments: "none",
    banner: {
      js: "import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);",
    },
    logLevel: "error",
  });
  let wasmBytes = 0;
  for (const [from, to] of candidate.assets) {
    copyFileSync(join(modules, from), join(dir, to));
    wasmBytes += statSync(join(dir, to)).size;
  }
  writeFileSync(join(dir, "driver.mjs"), DRIVER);
  const inputFile = join(dir, "input.json");
  const spawnDriver = (measure: boolean): DriverOutput => {
    writeFileSync(
      inputFile,
      JSON.stringify({
        measure,
        corpus: CORPUS,
        constructs: CONSTRUCTS,
        broken: BROKEN,
        runs,
        warmup,
      }),
    );
    const child = spawnSync(process.execPath, [join(dir, "driver.mjs"), inputFile], {
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
    });
    if (child.status !== 0) {
      throw new Error(`${candidate.label}: driver exited ${child.status}: ${child.stderr.trim()}`);
    }
    return JSON.parse(child.stdout) as DriverOutput;
  };

  const coldInit: number[] = [];
  const coldRss: number[] = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    const result = spawnDriver(false);
    coldInit.push(result.initMs);
    coldRss.push(result.rssMiB);
  }
  const measured = spawnDriver(true);
  const perCommand = (samples: number[][] | undefined): number[] =>
    (samples ?? []).map((s) => stats(s).median);
  const parseMedians = perCommand(measured.parse);
  const walkMedians = perCommand(measured.walk);
  const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0);
  return {
    candidate,
    versions: `${candidate.packages.map((pkg) => versionOf(modules, pkg)).join(" + ")} (${note})`,
    installedBytes: sum(candidate.packages.map((pkg) => folderBytes(join(modules, pkg)))),
    bundleBytes: statSync(join(dir, "parser.mjs")).size,
    wasmBytes,
    init: stats(coldInit),
    rssMiB: stats(coldRss).median,
    parse: stats(parseMedians),
    walk: stats(walkMedians),
    parseMax: Math.max(...parseMedians),
    walkMax: Math.max(...walkMedians),
    parseTotalMs: sum(parseMedians) / 1000,
    walkTotalMs: sum(walkMedians) / 1000,
    nodes: measured.nodes ?? 0,
    rejected: measured.rejected ?? [],
    constructsFailed: (measured.constructs ?? [])
      .filter(([, error]) => error !== null)
      .map(([label, error]) => `${label} (${error})`),
    brokenMissed: (measured.broken ?? [])
      .filter(([, error]) => error === null)
      .map(([source]) => JSON.stringify(source)),
  };
}

const LABEL = 44;
const COLUMN = 24;

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(0)} KiB`;
}

function oneLine(source: string): string {
  const flat = source.replace(/\n/g, "⏎");
  return flat.length > 70 ? `${flat.slice(0, 67)}...` : flat;
}

/** The deny rules docs/agent.md and docs/action.md give as examples. */
const EXAMPLE_DENY = ["npm publish", "git push", "curl"];
/** Commands refused only because of the deny rules, listed per source at most. */
const LISTED = 10;

/**
 * How many real commands the checker refuses, per source: with no deny rules (parse errors and
 * the built-in rules) and with EXAMPLE_DENY; of the commands only the deny rules refuse, those
 * that run a denied command and those refused because they could (`$X publish`, `… | bash`):
 * the last column is what failing closed costs ordinary work.
 */
export async function falseRefusals(out: (line?: string) => void): Promise<void> {
  const open = await createPermissionChecker({ workspace: "/repo" });
  const denying = await createPermissionChecker({ workspace: "/repo", deny: EXAMPLE_DENY });
  const percent = (count: number, of: number): string =>
    `${count} (${((100 * count) / Math.max(of, 1)).toFixed(2)}%)`;
  const columns = ["commands", "no deny rules", "with them", "denied", "could be"];
  out();
  out(`  refusals of real commands, by source (deny rules: ${EXAMPLE_DENY.join(", ")}):`);
  out(`    ${"source".padEnd(54)}${columns.map((column) => column.padStart(15)).join("")}`);
  const listed: [string, string, string][] = [];
  for (const source of commandSources(CORPUS)) {
    const counts = { open: 0, denying: 0, denied: 0, could: 0 };
    for (const command of source.commands) {
      const before = open.check(command);
      const after = denying.check(command);
      if (!before.allowed) counts.open++;
      if (after.allowed) continue;
      counts.denying++;
      if (!before.allowed) continue;
      if (after.reason.includes("pitcrew configuration denies it;")) counts.denied++;
      else counts.could++;
      if (listed.filter(([label]) => label === source.label).length < LISTED) {
        listed.push([source.label, command, after.reason]);
      }
    }
    const total = source.commands.length;
    const cells = [
      String(total),
      percent(counts.open, total),
      percent(counts.denying, total),
      percent(counts.denied, total),
      percent(counts.could, total),
    ];
    out(`    ${source.label.padEnd(54)}${cells.map((cell) => cell.padStart(15)).join("")}`);
  }
  for (const [label, command, reason] of listed) {
    out(`      ${label}: ${oneLine(command)}: ${reason}`);
  }
}

export async function run(options: BenchOptions): Promise<void> {
  const runs = options.runs ?? DEFAULT_RUNS;
  const warmup = options.warmup ?? DEFAULT_WARMUP;
  const out = (line = ""): void => void process.stdout.write(`${line}\n`);
  const work = mkdtempSync(join(tmpdir(), "pitcrew-parse-bench-"));
  try {
    out(`${name}: ${description}`);
    out(
      `  corpus: ${CORPUS.length} agent commands (${CORPUS.filter((c) => c.includes("\n")).length} with heredocs); node ${process.version}`,
    );
    out(
      `  method: each entry bundled with esbuild (esm, minified, node24) beside its wasm; cold init = import + ready in a fresh process, median of ${COLD_RUNS}; µs per command = median of ${runs} runs after ${warmup} warm-up, per command, then min/p10/median/p90 over the corpus`,
    );
    const results: Measured[] = [];
    for (const candidate of [TREE_SITTER, MVDAN_SH]) {
      try {
        results.push(await measureCandidate(candidate, work, runs, warmup));
      } catch (error) {
        out(
          `  ${candidate.label}: not measured: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    out();
    const row = (label: string, cell: (m: Measured) => string): void =>
      out(`  ${label.padEnd(LABEL)}${results.map((m) => cell(m).padStart(COLUMN)).join("")}`);
    row("", (m) => m.candidate.label.split(" ")[0] ?? m.candidate.label);
    row("bundle, minified JS", (m) => kib(m.bundleBytes));
    row("wasm files beside it", (m) => kib(m.wasmBytes));
    row("total for one bundle", (m) => kib(m.bundleBytes + m.wasmBytes));
    // dist/ holds two bundles (index.js, cli.js); the JS is in each, the wasm files once.
    row("dist/ growth (two bundles, wasm shared)", (m) => kib(2 * m.bundleBytes + m.wasmBytes));
    row("packages on disk (node_modules)", (m) => kib(m.installedBytes));
    row(
      "cold init, median ms (p10..p90)",
      (m) => `${m.init.median.toFixed(1)} (${m.init.p10.toFixed(0)}..${m.init.p90.toFixed(0)})`,
    );
    row("RSS after init, MiB", (m) => m.rssMiB.toFixed(0));
    row("parse, µs/command median", (m) => m.parse.median.toFixed(1));
    row(
      "parse, µs/command p90 / max",
      (m) => `${m.parse.p90.toFixed(1)} / ${m.parseMax.toFixed(1)}`,
    );
    row("parse + walk all nodes, µs/command median", (m) => m.walk.median.toFixed(1));
    row(
      "parse + walk, µs/command p90 / max",
      (m) => `${m.walk.p90.toFixed(1)} / ${m.walkMax.toFixed(1)}`,
    );
    row(
      "whole corpus, parse / parse + walk, ms",
      (m) => `${m.parseTotalMs.toFixed(2)} / ${m.walkTotalMs.toFixed(2)}`,
    );
    row("nodes visited over the corpus", (m) => String(m.nodes));
    row("corpus commands rejected", (m) => String(m.rejected.length));
    row(`hard constructs parsed (of ${CONSTRUCTS.length})`, (m) =>
      String(CONSTRUCTS.length - m.constructsFailed.length),
    );
    row(`broken inputs caught (of ${BROKEN.length})`, (m) =>
      String(BROKEN.length - m.brokenMissed.length),
    );
    for (const m of results) {
      out();
      out(`  ${m.candidate.label}: ${m.versions}`);
      for (const [source, error] of m.rejected) out(`    rejected ${oneLine(source)}: ${error}`);
      for (const failed of m.constructsFailed) out(`    construct failed: ${failed}`);
      for (const missed of m.brokenMissed) out(`    broken input accepted: ${missed}`);
    }

    // The checker as shipped: chosen parser + rules, in this process, from source.
    const started = performance.now();
    const checker = await createPermissionChecker({ workspace: "/repo" });
    const initMs = performance.now() - started;
    const samples = CORPUS.map(() => [] as number[]);
    for (let round = 0; round < warmup + runs; round++) {
      for (const [index, command] of CORPUS.entries()) {
        const t = performance.now();
        checker.check(command);
        const dt = (performance.now() - t) * 1000;
        if (round >= warmup) samples[index]?.push(dt);
      }
    }
    const medians = stats(samples.map((s) => stats(s).median));
    const refused = CORPUS.map((command) => [command, checker.check(command)] as const).filter(
      ([, verdict]) => !verdict.allowed,
    );
    out();
    out(`  the checker (src/agent/permissions.ts, workspace /repo), in this process:`);
    out(`    createPermissionChecker: ${initMs.toFixed(1)} ms`);
    out(
      `    check(), µs/command: min ${medians.min.toFixed(1)}, median ${medians.median.toFixed(1)}, p90 ${medians.p90.toFixed(1)}`,
    );
    out(`    corpus commands refused: ${refused.length}`);
    for (const [command, verdict] of refused) {
      if (!verdict.allowed) out(`      ${oneLine(command)}: ${verdict.reason}`);
    }
    await falseRefusals(out);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
