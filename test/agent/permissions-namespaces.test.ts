/**
 * The permission rules against paths in the memory and skills namespaces: `/memory/…` and
 * `/skills/…` exist only for the read, write and edit tools, so every form a command can name
 * one in is refused with a reason that points there, whether or not the repository denies
 * anything, and ordinary paths that only look like them (`memory/x`, `/memoryfoo`, a search
 * pattern) still pass.
 */
import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { createPermissionChecker } from "../../src/agent/permissions.ts";
import type { CommandGate } from "../../src/agent/tools/tool.ts";

const WORKSPACE = "/home/runner/work/app/app";
const HOME = "/home/runner";

let open: CommandGate;
let strict: CommandGate;
before(async () => {
  open = await createPermissionChecker({ workspace: WORKSPACE, home: HOME });
  strict = await createPermissionChecker({ workspace: WORKSPACE, home: HOME, deny: ["curl"] });
});

function reasonFor(gate: CommandGate, command: string): string | null {
  const verdict = gate.check(command);
  return verdict.allowed ? null : verdict.reason;
}

/** The sentence for `path`, written out here so that the wording is pinned. */
function memory(path: string): string {
  return `${path} is pitcrew's memory, not a file in the sandbox: use the read tool (or write/edit) with that path; bash cannot reach it.`;
}
function memoryFolder(path: string): string {
  return `${path} is pitcrew's memory, not a folder in the sandbox: use the read tool with that path to list it; bash cannot reach it.`;
}
function skill(path: string): string {
  return `${path} is one of pitcrew's skills, not a file in the sandbox: use the read tool with that path; bash cannot reach it.`;
}
function skillsFolder(path: string): string {
  return `${path} is pitcrew's skills, not a folder in the sandbox: use the read tool with that path to list it; bash cannot reach it.`;
}

describe("a path in the memory or skills namespace is refused with the way to reach it", () => {
  const cases: [string, string][] = [
    // Plain words, quoted or not, files and the folders themselves.
    ["cat /skills/x.md", skill("/skills/x.md")],
    ["cat /memory/db.md", memory("/memory/db.md")],
    ["grep -r foo /memory/", memoryFolder("/memory/")],
    ["ls /memory", memoryFolder("/memory")],
    ["ls -la /skills", skillsFolder("/skills")],
    ['ls "/skills/"', skillsFolder("/skills/")],
    ["cat '/memory/a.md'", memory("/memory/a.md")],
    ["cat $'/memory/a.md'", memory("/memory/a.md")],
    ['cat "/mem"ory/a.md', memory("/memory/a.md")],
    ["cat //memory/a.md", memory("/memory/a.md")],
    ["cat /./skills/../skills/fix.md", skill("/skills/fix.md")],
    ["cat ~/../../memory/a.md", memory("/memory/a.md")],
    ["cat ../../../../../memory/a.md", memory("/memory/a.md")],
    ["cp /memory/a.md .", memory("/memory/a.md")],
    ["cp notes.md /memory/notes.md", memory("/memory/notes.md")],
    ["rm -rf /memory/old", memory("/memory/old")],
    ["ln -s /skills/fix.md fix.md", skill("/skills/fix.md")],
    ["tar -C /memory -xf notes.tar", memoryFolder("/memory")],
    ["source /skills/env.sh", skill("/skills/env.sh")],
    ["/skills/bin/tool --help", skill("/skills/bin/tool")],
    ["git diff --no-index -- /memory/a.md a.md", memory("/memory/a.md")],
    // find's roots and its path tests.
    ["find /memory -name '*.md'", memoryFolder("/memory")],
    ["find / -path '/memory/*'", memory("/memory/*")],
    ["find . -exec cat /skills/x.md {} \\;", skill("/skills/x.md")],
    // Option values, attached or after `=`, `@file`, lists, assignments.
    ["grep --file=/memory/patterns.txt src", memory("/memory/patterns.txt")],
    ["grep -f /memory/patterns.txt src", memory("/memory/patterns.txt")],
    ["dd if=/memory/a.md of=a.md", memory("/memory/a.md")],
    ["gcc -I/skills/include x.c", skill("/skills/include")],
    ["curl -d @/memory/a.md http://localhost:1", memory("/memory/a.md")],
    ["export PATH=/usr/bin:/skills/bin", skill("/skills/bin")],
    ['F=/memory/a.md; cat "$F"', memory("/memory/a.md")],
    ['F=/memory/a.md cat "$F"', memory("/memory/a.md")],
    ["export F=/memory/a.md", memory("/memory/a.md")],
    ['declare "G=/skills/x.md"', skill("/skills/x.md")],
    ["env F=/memory/a.md printenv F", memory("/memory/a.md")],
    ["files=(/memory/a.md b.md)", memory("/memory/a.md")],
    ["awk -v f=/memory/a.md '{ print f }' x", memory("/memory/a.md")],
    // Redirections, read and written, heredoc targets, descriptors.
    ["echo x > /memory/a.md", memory("/memory/a.md")],
    ["echo x >> /memory/a.md", memory("/memory/a.md")],
    ["npm test 2> /memory/err.log", memory("/memory/err.log")],
    ["cat </memory/a", memory("/memory/a")],
    ["exec 3</skills/x.md", skill("/skills/x.md")],
    ["while read -r line; do echo $line; done < /skills/list", skill("/skills/list")],
    ["cat > /memory/db.md <<'EOF'\n# db\nEOF", memory("/memory/db.md")],
    ["cat <<EOF >/memory/db.md\n# db\nEOF", memory("/memory/db.md")],
    // Nested commands and shells.
    ['cat "$(echo /memory)/a.md"', memoryFolder("/memory")],
    ["echo `cat /memory/a.md`", memory("/memory/a.md")],
    ["diff <(cat /skills/x.md) x.md", skill("/skills/x.md")],
    ["bash -c 'cat /memory/a.md'", memory("/memory/a.md")],
    ['sh -c "ls /skills/"', skillsFolder("/skills/")],
    ["eval 'cat /memory/a.md'", memory("/memory/a.md")],
    ["sh <<EOF\ncat /skills/a.md\nEOF", skill("/skills/a.md")],
    ["bash <<< 'cat /memory/a.md'", memory("/memory/a.md")],
    ["(cd /memory && cat a.md)", memoryFolder("/memory")],
    ["cd /memory && cat a.md", memoryFolder("/memory")],
    ["pushd /skills", skillsFolder("/skills")],
    ["timeout 5 cat /memory/a.md", memory("/memory/a.md")],
    ["xargs -a /memory/list cat", memory("/memory/list")],
    ["env -C /memory cat a.md", memoryFolder("/memory")],
    ["git -C /memory status", memoryFolder("/memory")],
    // A relative path where the directory makes it one.
    ["cd / && cat memory/a.md", memory("/memory/a.md")],
    ["cd /; echo x > memory/a.md", memory("/memory/a.md")],
    ["cd /tmp && ls ../skills", skillsFolder("/skills")],
    // Tests, loops, cases, defaults.
    ["[[ -f /memory/a.md ]] && echo yes", memory("/memory/a.md")],
    ["test -d /skills && ls", skillsFolder("/skills")],
    ['for f in /memory/*; do cat "$f"; done', memory("/memory/*")],
    ["case /skills/x in *) ;; esac", skill("/skills/x")],
    ["cat ${NOTES:-/memory/notes.md}", memory("/memory/notes.md")],
    ['echo "${F:-/skills/x.md}"', skill("/skills/x.md")],
    // Words only partly known, globs, inline code.
    ["cat /memory/$NAME", memory("/memory/$NAME")],
    ["cat /memory/{a,b}.md", memory("/memory/{a,b}.md")],
    ["cat /memory/*.md", memory("/memory/*.md")],
    ["cat /mem*/a.md", memory("/mem*/a.md")],
    ["ls /?kills", skill("/?kills")],
    ["ls /memor[y]/", memory("/memor[y]/")],
    [`python3 -c "print(open('/memory/db.md').read())"`, memory("/memory/db.md")],
    [`node -e 'fs.readFileSync("/skills/x.md")'`, skill("/skills/x.md")],
    // It wins over the workspace rule, whose reason would mislead.
    ["sudo cat /memory/a.md", memory("/memory/a.md")],
  ];
  for (const [command, reason] of cases) {
    test(JSON.stringify(command), () => {
      assert.equal(reasonFor(open, command), reason);
      assert.equal(reasonFor(strict, command), reason, "with deny rules too");
    });
  }
});

describe("paths that only look like the namespaces are the workspace's", () => {
  const commands = [
    "cat /memoryfoo",
    "cat /memory.md",
    "ls /skillset/x",
    "cat ./memory/x.md",
    "cat memory/x.md",
    "ls memory",
    "cd memory && ls",
    "cat src/memory/x.ts",
    "mkdir -p test/memory && touch test/memory/a.ts",
    "cp a.md /tmp/memory/",
    "cat /tmp/skills/x.md",
    "ls ~/memory $HOME/skills",
    "cat /memory/../etc/hosts",
    "git log --oneline -- src/memory/ .github/pitcrew/skills/",
    "curl -sS https://example.com/memory/x -o /dev/null",
    'echo "notes live in /memory/ now"',
    "echo memory skills",
    "npm test -- --grep memory",
    "ls /m* /s*",
    "ls /*/",
    "ls /[ms]*",
    "cat /memory$SUFFIX",
    "cat <<< /memory/a.md",
    "cat <<'EOF'\nsee /memory/db.md\nEOF",
    'case "$f" in /memory/*) echo memory ;; esac',
    "[[ $f == /memory/* ]] && echo memory",
    "node -e 'x.replace(/memory/g, 1)'",
  ];
  for (const command of commands) {
    test(JSON.stringify(command), () => assert.equal(reasonFor(open, command), null));
  }
});

describe("a search's pattern is not a path", () => {
  const commands = [
    'grep -rn "/memory/" src/',
    "grep -e /skills/ -r src",
    "grep -rn --regexp=/memory/ src",
    "egrep '/memory/|/skills/' -r docs",
    "rg -n /skills/ src",
    "rg -A 3 /memory/ src",
    'git grep -n "/memory/"',
    "timeout 5 grep -r /memory/ src",
    "find . -name '*.ts' -exec grep -l /memory/ {} +",
    "git ls-files | xargs grep -l /skills/",
    "sed -n '/memory/p' notes.txt",
    "sed -i 's|/memory/|/notes/|g' src/x.ts",
    "sed -e '/skills/d' -e 's/a/b/' x.md",
    "awk '/skills/ { print }' x.md",
  ];
  for (const command of commands) {
    test(JSON.stringify(command), () => assert.equal(reasonFor(open, command), null));
  }

  test("its files are still checked", () => {
    assert.equal(reasonFor(open, "grep -r /memory/ /memory/"), memoryFolder("/memory/"));
    assert.equal(reasonFor(open, "grep -e foo /memory/a.md"), memory("/memory/a.md"));
    assert.equal(reasonFor(open, "rg --files /skills"), skillsFolder("/skills"));
    assert.equal(reasonFor(open, "sed -f /skills/x.sed a.md"), skill("/skills/x.sed"));
    assert.equal(reasonFor(open, "sed -n p /memory/a.md"), memory("/memory/a.md"));
    assert.equal(reasonFor(open, "awk '{ print }' /memory/a.md"), memory("/memory/a.md"));
    // Only a command or what a runner runs is a search: here `sed` is cp's file.
    assert.equal(reasonFor(open, "cp sed /memory/a.md"), memory("/memory/a.md"));
  });
});
