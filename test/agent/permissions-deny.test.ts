/**
 * The repository's deny list means what it says: ways around a rule that issue 10 found, and more,
 * each refused with a reason that names the rule or what could not be checked; commands that only
 * look like a denied one still run; and without deny rules nothing new is refused.
 */
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { createPermissionChecker } from "../../src/agent/permissions.ts";
import type { CommandGate } from "../../src/agent/tools/tool.ts";

const WORKSPACE = "/home/runner/work/app/app";
const HOME = "/home/runner";
const DENY = ["npm publish", "curl", "make deploy", "git clean -f"];

let gate: CommandGate;
let open: CommandGate;
before(async () => {
  gate = await createPermissionChecker({ workspace: WORKSPACE, home: HOME, deny: DENY });
  open = await createPermissionChecker({ workspace: WORKSPACE, home: HOME });
});

/** Refused for certain by `rule`. */
const denied = (rule: string): RegExp =>
  new RegExp(`^\`${rule}\` is refused: this repository's pitcrew configuration denies it`);
/** Refused because an expansion could make `rule`. */
const could = (rule: string): RegExp =>
  new RegExp(
    `is only known when it runs, and it could make this \`${rule}\`, which this repository's pitcrew configuration denies`,
  );
/** Refused because `what` runs something that cannot be checked. */
const unseen = (what: string): RegExp =>
  new RegExp(
    `^\`${what.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\` is refused: .+, so it cannot be checked against this repository's pitcrew deny list`,
  );
const dynamic = (what: string): string => `\`${what}\` with an expansion in its script is refused`;
const NPM = denied("npm publish");
const CURL = denied("curl");

const SIDESTEPS: [string, RegExp | string][] = [
  // Options before the subcommand, words between: an ordered subsequence.
  ["npm --registry=x publish", NPM],
  ["npm -w pkg publish", NPM],
  ["npm --workspace pkg publish", NPM],
  ["npm publish --tag x", NPM],
  ["npm -ddd --loglevel silly publish --access public", NPM],
  ["npm -- publish", NPM],
  ['npm "publish"', NPM],
  ["npm pub", NPM],
  ["npm publ --dry-run", NPM],
  // The command name through paths, quotes, escapes and globs.
  ["/usr/bin/npm publish", NPM],
  ["./node_modules/.bin/npm publish", NPM],
  ["/usr/*/npm publish", NPM],
  ["/usr/bin/np? publish", NPM],
  ["/usr/bin/n[p]m publish", NPM],
  ["np* publish", NPM],
  ["\\npm publish", NPM],
  ["'npm' publish", NPM],
  ['n"p"m publish', NPM],
  ["$'\\x6epm' publish", NPM],
  ["npm publis?", NPM],
  ["npm pub*", NPM],
  ["/usr/bin/cur? https://example.com", CURL],
  ["c\\url https://example.com", CURL],
  ["np{m,x} publish", could("npm publish")],
  // Wrappers, seen through.
  ["env npm publish", NPM],
  ["env -i PATH=/usr/bin npm publish", NPM],
  ["env -u X -C . npm publish", NPM],
  ["command npm publish", NPM],
  ["command -p npm publish", NPM],
  ["exec npm publish", NPM],
  ["exec -a x npm publish", NPM],
  ["builtin exec npm publish", NPM],
  ["nice npm publish", NPM],
  ["nice -n 5 npm publish", NPM],
  ["timeout 60 npm publish", NPM],
  ["timeout -k 5 -s TERM 60 npm publish", NPM],
  ["nohup npm publish &", NPM],
  ["time npm publish", NPM],
  ["time -p npm publish", NPM],
  ["stdbuf -oL npm publish", NPM],
  ["setsid npm publish", NPM],
  ["setsid -w npm publish", NPM],
  ["ionice -c 3 npm publish", NPM],
  ["chrt -b 0 npm publish", NPM],
  ["taskset 1 npm publish", NPM],
  ["taskset -c 0 npm publish", NPM],
  ["unshare -r npm publish", NPM],
  ["unshare --map-root-user -n npm publish", NPM],
  ["nsenter -t 1 -m npm publish", NPM],
  ["setpriv --reuid=1000 npm publish", NPM],
  ["prlimit --nofile=1024 npm publish", NPM],
  ["strace -f -o /tmp/t npm publish", NPM],
  ["busybox env npm publish", NPM],
  ["flock /tmp/lock npm publish", NPM],
  ["flock -w 5 /tmp/lock -c 'npm publish'", NPM],
  ['flock /tmp/lock -c "$CMD"', unseen("flock -c")],
  ["watch npm publish", NPM],
  ["watch -n 5 'npm publish'", NPM],
  ["watch -x npm publish", NPM],
  ['watch "$CMD"', unseen("watch")],
  ["script -c 'npm publish' /dev/null", NPM],
  ["script -q /dev/null -c 'npm publish'", NPM],
  ['script -c "$X" /dev/null', unseen("script -c")],
  ["echo 'npm publish' | script -q /dev/null", unseen("script")],
  ["xargs npm publish < list", NPM],
  ["echo publish | xargs npm", could("npm publish")],
  ["echo publish | xargs -I{} npm {}", could("npm publish")],
  ["ls | xargs -n1 npm publish", NPM],
  ["parallel npm ::: publish", NPM],
  ["parallel 'npm {}' ::: publish", NPM],
  ["parallel -j2 npm publish ::: a", NPM],
  ["parallel npm :::: args.txt", could("npm publish")],
  ['parallel ::: "npm publish" "npm test"', NPM],
  ["echo 'npm publish' | parallel", unseen("parallel")],
  ["npx npm publish", NPM],
  ["npx -c 'npm publish'", NPM],
  ["find . -maxdepth 0 -exec npm publish \\;", NPM],
  ["env -S 'npm publish'", NPM],
  ["timeout 5 env nice npm publish", NPM],
  ["sudo npm publish", "`sudo` is refused"],
  // A string run as a script by a shell, `source` or `eval`.
  ["bash -c 'npm publish'", NPM],
  ['sh -c "npm publish --tag x"', NPM],
  ['bash -c "$X"', dynamic("bash -c")],
  ["bash <<< 'npm publish'", NPM],
  ["echo 'npm publish' | bash", unseen("bash")],
  ["printf 'npm publish' | sh -s", unseen("sh")],
  ["bash <(echo npm publish)", unseen("bash")],
  ["bash /dev/stdin <<< 'npm publish'", NPM],
  ["source /dev/stdin <<< 'npm publish'", NPM],
  ["echo 'npm publish' | source /dev/stdin", unseen("source /dev/stdin")],
  ["echo 'npm publish' | . /proc/self/fd/0", unseen(". /proc/self/fd/0")],
  [". <(echo npm publish)", unseen(".")],
  ["source <(printf 'npm publish')", unseen("source")],
  ['source "$F"', unseen("source")],
  [". /dev/fd/0 <<EOF\nnpm publish\nEOF", NPM],
  ["eval 'npm publish'", NPM],
  ["eval npm publish", NPM],
  ['eval "$X"', dynamic("eval")],
  ["bash < <(echo npm publish)", unseen("bash")],
  ['sh < "$F"', unseen("sh")],
  ["fish -c 'npm publish'", NPM],
  ["coproc x { npm publish; }", NPM],
  ["coproc npm publish", NPM],
  ["a[$(npm publish)]=1", NPM],
  // Functions and aliases that wrap a command.
  ['f(){ "$@"; }; f npm publish', could("npm publish")],
  ['f(){ npm "$@"; }; f publish', could("npm publish")],
  ["function p { npm publish; }; p", NPM],
  ["alias p='npm publish'", NPM],
  ["shopt -s expand_aliases; alias n=npm\nn publish", could("npm publish")],
  ['alias x="$Y"', unseen("alias")],
  // Commands built from variables and substitutions.
  ["$X publish", could("npm publish")],
  ['"$NPM" publish', could("npm publish")],
  ["$(echo npm) publish", could("npm publish")],
  ["`echo npm` publish", could("npm publish")],
  ["${NPM:-npm} publish", could("npm publish")],
  ["npm $SUB", could("npm publish")],
  ['npm "$(echo publish)"', could("npm publish")],
  ["X=npm; $X publish", could("npm publish")],
  ['"$@"', could("npm publish")],
  // Builtins and variables that run a string later.
  ["hash -p /usr/bin/npm x; x publish", unseen("hash -p")],
  ["X='$(npm publish)'; echo \"${X@P}\"", unseen("X=")],
  ['echo "${X@P}"', unseen("${X@P}")],
  ["X='a[$(npm publish)]'; echo $(( X ))", unseen("X=")],
  ["mapfile -C 'npm publish' -c 1 lines < /dev/null", NPM],
  ['mapfile -C "$CB" lines < f', unseen("mapfile -C")],
  ["readarray -C 'npm publish' lines < f", NPM],
  ["complete -C 'npm publish' x", NPM],
  ["compgen -C 'npm publish' x", NPM],
  ["bind -x '\"\\C-x\": npm publish'", NPM],
  ["trap 'npm publish' EXIT", NPM],
  ['trap "$X" EXIT', dynamic("trap")],
  ["PROMPT_COMMAND='npm publish'", NPM],
  ['export PROMPT_COMMAND="$X"', unseen("PROMPT_COMMAND=")],
  ["BASH_ENV=/dev/stdin bash -c true <<< 'npm publish'", unseen("BASH_ENV=")],
  ["env BASH_ENV=x.sh bash -c true", unseen("BASH_ENV=")],
  ["ENV=x.sh sh -i", unseen("ENV=")],
  ['export "BASH_ENV=x.sh"', unseen("BASH_ENV=")],
  ["declare -x ENV=x.sh", unseen("ENV=")],
  ["PS4='$(npm publish)' bash -xc true", unseen("PS4=")],
  ["BASH_ALIASES[p]='npm publish'", unseen("BASH_ALIASES=")],
  ["printf -v PROMPT_COMMAND 'npm publish'", unseen("printf PROMPT_COMMAND")],
  ["read -r BASH_ENV < f", unseen("read BASH_ENV")],
  ["declare -n r=PROMPT_COMMAND; r='npm publish'", unseen("r=PROMPT_COMMAND")],
  ["GIT_PAGER='npm publish' git log", NPM],
  ["GIT_SEQUENCE_EDITOR='npm publish' git rebase -i HEAD~2", NPM],
  [
    "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0='!npm publish' git x",
    unseen("GIT_CONFIG_COUNT="),
  ],
  // make.
  ["make deploy", denied("make deploy")],
  ["make -C sub deploy", denied("make deploy")],
  ["make -j4 deploy", denied("make deploy")],
  ["printf 'all:\\n\\tnpm publish\\n' | make -f -", unseen("make -f -")],
  ["make -f /dev/stdin <<EOF\nall:\n\tnpm publish\nEOF", unseen("make -f /dev/stdin")],
  ["make -f <(echo x) all", could("make deploy")],
  ["make -f <(echo x)", could("make deploy")],
  ["make --eval='x: ; npm publish' x", unseen("make --eval")],
  // git: options with values, abbreviations, configuration that runs commands.
  ["git --config-env=alias.x=CMD x", unseen("git --config-env")],
  ["git --config-env alias.x=CMD x", unseen("git --config-env")],
  ['git -c "$X" x', unseen("git -c")],
  ["git -c 'alias.p=!npm publish' p", NPM],
  ["git -c 'alias.p=!f(){ npm publish; }; f' p", NPM],
  ["git -c core.pager='npm publish' log", NPM],
  ["git -c core.editor='npm publish' rebase -i HEAD~2", NPM],
  ["git -c include.path=/tmp/x x", unseen("git -c include.path")],
  ["git -c help.autocorrect=1 psuh", unseen("git -c help.autocorrect")],
  ["git reset --har", "`git reset --hard` is refused"],
  ["git reset --ha HEAD~1", "`git reset --hard` is refused"],
  ["git -C push reset --hard", "`git reset --hard` is refused"],
  ["git clean -fdx", denied("git clean -f")],
  ["git -C sub clean -xf", denied("git clean -f")],
  ["git --git-dir .git --work-tree=. clean -f -d", denied("git clean -f")],
];

describe("ways around the deny list are refused, with the reason", () => {
  for (const [command, reason] of SIDESTEPS) {
    test(JSON.stringify(command), () => {
      const verdict = gate.check(command);
      assert.equal(verdict.allowed, false, `expected refused: ${command}`);
      if (verdict.allowed) return;
      if (typeof reason === "string") assert.ok(verdict.reason.includes(reason), verdict.reason);
      else assert.match(verdict.reason, reason);
    });
  }

  test("the table holds more than a hundred of them", () => {
    assert.ok(SIDESTEPS.length >= 110, `${SIDESTEPS.length} cases`);
  });
});

describe("commands that only look like a denied one still run", () => {
  const commands = [
    "npm test",
    "npm run build",
    "npm run publish-docs",
    "npmx publish",
    "echo npm publish",
    "grep -rn 'npm publish' docs/",
    "curling --version",
    "make test",
    "git -C push status",
    "git log --grep push --oneline",
    "git reset --soft HEAD~1",
    "git clean -n",
    "git clean -nd",
    "git -c core.pager=cat log -3",
    "GIT_PAGER=cat git log",
    "PAGER='less -R' git diff",
    "rm -rf $DIR",
    'for f in $(ls); do echo "$f"; done',
    'f(){ echo "$@"; }; f a b',
    "alias ll='ls -l'",
    "watch -n 1 ls",
    "xargs -n1 echo < files.txt",
    "parallel gzip ::: a.txt b.txt",
    "flock /tmp/lock make test",
    "timeout 5 npm test",
    "script -q -c 'npm test' /dev/null",
    "source .venv/bin/activate",
    ". ./env.sh",
    "bash scripts/test.sh",
    "mapfile -t lines < files.txt",
    "read -r line < files.txt",
    'printf "%s\\n" PAGER',
    "cat < <(ls)",
    "trap 'rm -f /tmp/x' EXIT",
    'export PATH="$PATH:/opt/bin"',
    "cat <<'EOF' | python3 -\nprint(1)\nEOF",
    "python3 -c 'import sys; print(sys.argv)' publish",
  ];
  for (const command of commands) {
    test(JSON.stringify(command), () => assert.deepEqual(gate.check(command), { allowed: true }));
  }
});

describe("without deny rules, what cannot be seen is left to the sandbox as before", () => {
  const commands = [
    "$X publish",
    '"$GIT" push',
    "source <(echo x)",
    "echo x | bash",
    "PROMPT_COMMAND=x",
    "export BASH_ENV=x.sh",
    "git --config-env=alias.x=Y x",
    "make -f - < Makefile.in",
    'f(){ "$@"; }; f ls',
    'npm test -- "$@"',
  ];
  for (const command of commands) {
    test(JSON.stringify(command), () => assert.deepEqual(open.check(command), { allowed: true }));
  }

  test("the built-in rules still see through the new wrappers", () => {
    assert.equal(open.check("watch -n 5 'git push'").allowed, false);
    assert.equal(open.check("flock /tmp/l git push").allowed, false);
    assert.equal(open.check("git reset --har").allowed, false);
    assert.equal(open.check("/usr/bin/su?o ls").allowed, false);
  });
});
