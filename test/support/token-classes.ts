/**
 * Samples of the content classes a CI agent's context holds, for checking the token estimate
 * (src/context/tokens.ts) class by class: each is at least 48,000 code points, so at least 24
 * chunks of 2,000. Some are committed text from somewhere real (test/fixtures/token-classes,
 * written once by its make.ts; see its README); the rest are made here from a seeded generator,
 * the same text on every run. Used by test/context/tokens.test.ts and bench/token-classes.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { seeded } from "./random.ts";

export interface TokenClass {
  /** Short name, as the tests and the benchmark print it. */
  name: string;
  /** Where the text comes from. */
  source: string;
  text: string;
}

const FIXTURES = fileURLToPath(new URL("../fixtures/token-classes/", import.meta.url));
/** Code points per generated sample, at least (24 chunks of 2,000). */
const SIZE = 48_000;
/** Code points per chunk the estimate is checked on. */
export const CHUNK = 2000;

/**
 * The text in chunks of `size` code points (a surrogate pair is never split); a rest shorter than
 * `size` is left out.
 */
export function chunks(text: string, size = CHUNK): string[] {
  const out: string[] = [];
  let start = 0;
  let points = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code < 0xdc00 && i + 1 < text.length) i++;
    if (++points === size) {
      out.push(text.slice(start, i + 1));
      start = i + 1;
      points = 0;
    }
  }
  return out;
}

type Rng = () => number;
const int = (rng: Rng, low: number, high: number): number =>
  low + Math.floor(rng() * (high - low + 1));
function pick<T>(rng: Rng, list: readonly T[]): T {
  return list[Math.floor(rng() * list.length)] as T;
}
const hex = (rng: Rng, digits: number): string => {
  let out = "";
  for (let i = 0; i < digits; i++) out += "0123456789abcdef"[Math.floor(rng() * 16)];
  return out;
};
const bytes = (rng: Rng, count: number): Buffer => {
  const out = Buffer.alloc(count);
  for (let i = 0; i < count; i++) out[i] = Math.floor(rng() * 256);
  return out;
};
const uuid = (rng: Rng): string =>
  `${hex(rng, 8)}-${hex(rng, 4)}-4${hex(rng, 3)}-${pick(rng, ["8", "9", "a", "b"])}${hex(rng, 3)}-${hex(rng, 12)}`;

/** Lines from `line` until the text holds SIZE code points. */
function lines(seed: number, line: (rng: Rng, index: number) => string): string {
  const rng = seeded(seed);
  const out: string[] = [];
  let points = 0;
  for (let i = 0; points < SIZE; i++) {
    const next = line(rng, i);
    out.push(next);
    points += [...next].length + 1;
  }
  return out.join("\n") + "\n";
}

const fixture = (file: string): string => readFileSync(join(FIXTURES, file), "utf8");

/** The paths of the find listing, without `./` (the parts of the path-like generators). */
function paths(): string[] {
  return fixture("find-paths.txt")
    .split("\n")
    .filter(Boolean)
    .map((line) => line.replace(/^\.\//, ""));
}

const WORDS =
  "the agent reads repository runs tests writes short summary what changed why when command fails error before trying anything else build release version update config cache worker request response status".split(
    " ",
  );

/** Printable ASCII (0x21–0x7E) and spaces, uniformly random: nothing natural looks like it. */
function randomAscii(): string {
  return lines(1, (rng, index) => {
    // Every other line without spaces (a generated key), the others with one in eight.
    const spaces = index % 2 === 0 ? 0 : 0.125;
    let line = "";
    const length = int(rng, 40, 140);
    for (let i = 0; i < length; i++) {
      line += rng() < spaces ? " " : String.fromCharCode(int(rng, 0x21, 0x7e));
    }
    return line;
  });
}

function uuids(): string {
  return lines(2, (rng, i) => {
    const id = uuid(rng);
    switch (i % 4) {
      case 0:
        return id;
      case 1:
        return `{"id":"${id}","parent":"${uuid(rng)}","attempt":${int(rng, 1, 5)}}`;
      case 2:
        return `  ${id.toUpperCase()}  ${pick(rng, ["running", "queued", "done"])}  ${int(rng, 1, 59)}m`;
      default:
        return `urn:uuid:${id}`;
    }
  });
}

/** `xxd` and `hexdump -C` of bytes that are partly random, partly text, partly zeros. */
function hexDump(): string {
  const rng = seeded(3);
  const parts: Buffer[] = [];
  let total = 0;
  while (total < 11_000) {
    const kind = int(rng, 0, 3);
    const part =
      kind === 0
        ? bytes(rng, int(rng, 16, 400))
        : kind === 1
          ? Buffer.from(Array.from({ length: int(rng, 4, 40) }, () => pick(rng, WORDS)).join(" "))
          : kind === 2
            ? Buffer.alloc(int(rng, 8, 96))
            : Buffer.from(
                Uint32Array.from({ length: int(rng, 4, 32) }, () => int(rng, 0, 4096)).buffer,
              );
    parts.push(part);
    total += part.length;
  }
  const data = Buffer.concat(parts);
  const out: string[] = [];
  const printable = (byte: number): string =>
    byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : ".";
  for (let offset = 0; offset + 16 <= data.length; offset += 16) {
    const row = [...data.subarray(offset, offset + 16)];
    const text = row.map(printable).join("");
    const at = offset.toString(16).padStart(8, "0");
    if ((offset >> 12) % 2 === 0) {
      const groups: string[] = [];
      for (let i = 0; i < 16; i += 2) groups.push(hexByte(row[i]) + hexByte(row[i + 1]));
      out.push(`${at}: ${groups.join(" ")}  ${text}`);
    } else {
      const half = (from: number): string =>
        row
          .slice(from, from + 8)
          .map(hexByte)
          .join(" ");
      out.push(`${at}  ${half(0)}  ${half(8)}  |${text}|`);
    }
  }
  return out.join("\n") + "\n";
}
const hexByte = (byte: number | undefined): string => (byte ?? 0).toString(16).padStart(2, "0");

/** Long URLs: signed downloads, search and tracking parameters, encoded JSON, GitHub links. */
function urls(): string {
  const files = paths();
  return lines(4, (rng) => {
    const path = pick(rng, files);
    const date = `2026${String(int(rng, 1, 12)).padStart(2, "0")}${String(int(rng, 1, 28)).padStart(2, "0")}`;
    switch (int(rng, 0, 5)) {
      case 0:
        return `https://pitcrew-artifacts.s3.us-east-1.amazonaws.com/${path}?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA${hex(rng, 16).toUpperCase()}%2F${date}%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=${date}T${String(int(rng, 0, 235959)).padStart(6, "0")}Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature=${hex(rng, 64)}`;
      case 1:
        return `https://github.com/pitcrew-dev/pitcrew/blob/${hex(rng, 40)}/${path}#L${int(rng, 1, 400)}-L${int(rng, 401, 900)}`;
      case 2:
        return `https://www.google.com/search?q=${encodeURIComponent(`${pick(rng, WORDS)} ${pick(rng, WORDS)} ${path}`)}&oq=${pick(rng, WORDS)}&sourceid=chrome&ie=UTF-8&utm_source=${pick(rng, WORDS)}&utm_medium=email&utm_campaign=${pick(rng, WORDS)}_${date}&gclid=${Buffer.from(bytes(rng, 30)).toString("base64url")}`;
      case 3: {
        const state = JSON.stringify({
          path,
          run: int(rng, 1e9, 9e9),
          attempt: int(rng, 1, 3),
          tags: [pick(rng, WORDS), pick(rng, WORDS)],
        });
        return `https://api.example.com/v2/redirect?next=${encodeURIComponent(`https://app.example.com/${path}?ref=${hex(rng, 12)}`)}&state=${encodeURIComponent(state)}&nonce=${hex(rng, 32)}`;
      }
      case 4:
        return `https://github.com/pitcrew-dev/pitcrew/actions/runs/${int(rng, 1e10, 2e10)}/job/${int(rng, 1e10, 9e10)}?pr=${int(rng, 1, 999)}&check_suite_focus=true#step:${int(rng, 1, 12)}:${int(rng, 1, 3000)}`;
      default:
        return `https://registry.npmjs.org/${path.split("/")[1] ?? "x"}/-/${path.split("/")[1] ?? "x"}-${int(rng, 0, 9)}.${int(rng, 0, 30)}.${int(rng, 0, 99)}.tgz?cache=${Buffer.from(bytes(rng, 12)).toString("base64url")}&integrity=sha512-${Buffer.from(bytes(rng, 64)).toString("base64")}`;
    }
  });
}

/** Stack traces of Node, Python, Java, Go and Rust, over the find listing's paths. */
function stackTraces(): string {
  const files = paths().filter((path) => /\.(m?js|cjs|ts)$/.test(path));
  const fn = (rng: Rng): string =>
    pick(rng, [
      "Object.<anonymous>",
      "Module._compile",
      "processTicksAndRejections",
      "async Promise.all",
      `${pick(rng, WORDS)}${pick(rng, ["Handler", "Service", "Client", "Factory"])}.${pick(rng, WORDS)}`,
      "new Promise (<anonymous>)",
      "Array.map (<anonymous>)",
    ]);
  return lines(5, (rng) => {
    const frames = int(rng, 3, 10);
    const out: string[] = [];
    switch (int(rng, 0, 4)) {
      case 0:
        out.push(
          `${pick(rng, ["TypeError", "Error", "RangeError"])}: Cannot read properties of undefined (reading '${pick(rng, WORDS)}')`,
        );
        for (let i = 0; i < frames; i++) {
          out.push(
            `    at ${fn(rng)} (/home/runner/work/pitcrew/pitcrew/${pick(rng, files)}:${int(rng, 1, 9999)}:${int(rng, 1, 120)})`,
          );
        }
        break;
      case 1:
        out.push("Traceback (most recent call last):");
        for (let i = 0; i < frames; i++) {
          const module = pick(rng, files)
            .replace(/^node_modules\//, "")
            .replace(/\.\w+$/, "");
          out.push(
            `  File "/opt/hostedtoolcache/Python/3.12.${int(rng, 0, 9)}/x64/lib/python3.12/site-packages/${module.replace(/-/g, "_")}.py", line ${int(rng, 1, 3000)}, in ${pick(rng, WORDS)}_${pick(rng, WORDS)}`,
            `    ${pick(rng, WORDS)} = self._${pick(rng, WORDS)}(${pick(rng, WORDS)}, **kwargs)`,
          );
        }
        out.push(`KeyError: '${pick(rng, WORDS)}_${pick(rng, WORDS)}'`);
        break;
      case 2:
        out.push(`java.lang.IllegalStateException: ${pick(rng, WORDS)} ${pick(rng, WORDS)}`);
        for (let i = 0; i < frames; i++) {
          const parts = pick(rng, files)
            .split("/")
            .slice(1, -1)
            .map((part) => part.replace(/[^a-z]/gi, "").toLowerCase() || "x");
          const klass = pick(rng, ["Dispatcher", "FrameworkServlet", "TaskRunner", "Loader"]);
          out.push(
            `\tat org.${parts.join(".")}.${klass}.${pick(rng, WORDS)}(${klass}.java:${int(rng, 1, 2000)})`,
          );
        }
        break;
      case 3:
        out.push(`panic: runtime error: index out of range [${int(rng, 1, 99)}] with length 0`, "");
        out.push(`goroutine ${int(rng, 1, 300)} [running]:`);
        for (let i = 0; i < frames; i++) {
          const path = pick(rng, files).replace(/\.\w+$/, ".go");
          out.push(
            `github.com/pitcrew-dev/${path.split("/").slice(1, -1).join("/")}.(*${pick(rng, WORDS)})${pick(rng, WORDS)}(0xc000${hex(rng, 6)}, 0x${hex(rng, 2)})`,
            `\t/home/runner/go/pkg/mod/github.com/pitcrew-dev/${path}:${int(rng, 1, 900)} +0x${hex(rng, 3)}`,
          );
        }
        break;
      default:
        out.push(
          `thread 'main' panicked at src/${pick(rng, WORDS)}.rs:${int(rng, 1, 500)}:${int(rng, 1, 80)}:`,
        );
        for (let i = 0; i < frames; i++) {
          const crate =
            pick(rng, files)
              .split("/")[1]
              ?.replace(/[^a-z]/gi, "_") ?? "x";
          out.push(
            `  ${String(i).padStart(2)}: ${crate}::${pick(rng, WORDS)}::${pick(rng, WORDS)}::h${hex(rng, 16)}`,
            `             at /home/runner/.cargo/registry/src/index.crates.io-6f17d22bba15001f/${crate}-0.${int(rng, 1, 30)}.${int(rng, 0, 9)}/src/${pick(rng, WORDS)}.rs:${int(rng, 1, 900)}:${int(rng, 1, 60)}`,
          );
        }
    }
    return out.join("\n");
  });
}

function csvNumbers(): string {
  let header = false;
  return lines(6, (rng) => {
    if (!header) {
      header = true;
      return "timestamp,run_id,duration_ms,cpu_pct,rss_mib,loss,lr,tokens,ratio";
    }
    const day = String(int(rng, 1, 28)).padStart(2, "0");
    return [
      `2026-01-${day}T${String(int(rng, 0, 23)).padStart(2, "0")}:${String(int(rng, 0, 59)).padStart(2, "0")}:${String(int(rng, 0, 59)).padStart(2, "0")}Z`,
      int(rng, 1e6, 9e6),
      (rng() * 10000).toFixed(3),
      (rng() * 100).toFixed(1),
      int(rng, 40, 4000),
      (rng() * 3).toFixed(6),
      (rng() * 1e-3).toExponential(4),
      int(rng, 0, 2_000_000),
      (rng() * 2 - 1).toFixed(8),
    ].join(",");
  });
}

/** Random bytes as base64 wrapped at 76 (PEM, MIME), some with PEM armour. */
function base64Wrapped(): string {
  const rng = seeded(7);
  const out: string[] = [];
  let points = 0;
  while (points < SIZE) {
    const body = bytes(rng, int(rng, 200, 2400))
      .toString("base64")
      .replace(/(.{76})/g, "$1\n")
      .replace(/\n$/, "");
    const armoured = rng() < 0.4;
    const block = armoured
      ? `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----`
      : body;
    out.push(block);
    points += block.length + 1;
  }
  return out.join("\n") + "\n";
}

/** Paths as Windows writes them: `dir /s /b` on a runner, and in error messages and JSON. */
function windowsPaths(): string {
  const files = paths();
  return lines(8, (rng) => {
    const path = pick(rng, files).replace(/\//g, "\\");
    switch (int(rng, 0, 4)) {
      case 0:
      case 1:
        return `D:\\a\\pitcrew\\pitcrew\\${path}`;
      case 2:
        return `Error: ENOENT: no such file or directory, open 'C:\\Users\\runneradmin\\AppData\\Local\\Temp\\${hex(rng, 8)}\\${path}'`;
      case 3:
        return `{"file":"D:\\\\a\\\\pitcrew\\\\pitcrew\\\\${path.replace(/\\/g, "\\\\")}","line":${int(rng, 1, 999)}}`;
      default:
        return `C:\\Users\\runneradmin\\AppData\\Local\\npm-cache\\_cacache\\index-v5\\${hex(rng, 2)}\\${hex(rng, 2)}\\${hex(rng, 60)}`;
    }
  });
}

const EMOJI = {
  people: [
    "👍",
    "👋",
    "🙌",
    "👏",
    "🤝",
    "💪",
    "🧑‍💻",
    "👩‍💻",
    "👨‍💻",
    "🧑‍🔬",
    "👩‍🚀",
    "🧑‍🏫",
    "🙋",
    "🤷",
    "🤦",
  ],
  tones: ["🏻", "🏼", "🏽", "🏾", "🏿"],
  families: ["👨‍👩‍👧‍👦", "👩‍👩‍👦", "👨‍👨‍👧‍👧", "👪", "🧑‍🤝‍🧑", "💑", "👩‍❤️‍👨"],
  flags: ["🇯🇵", "🇺🇸", "🇩🇪", "🇧🇷", "🇮🇳", "🇫🇷", "🏳️‍🌈", "🏳️‍⚧️", "🏴‍☠️", "🏁"],
  other: [
    "🚀",
    "🎉",
    "✨",
    "🐛",
    "🔥",
    "✅",
    "❌",
    "⚠️",
    "❤️‍🔥",
    "❤️",
    "1️⃣",
    "#️⃣",
    "🏎️💨",
    "🧪",
    "📦",
    "🔁",
    "😂",
    "🥲",
    "🫠",
  ],
};

/** Emoji as people write them: skin tones, ZWJ sequences, flags, keycaps, among short words. */
function emojiZwj(): string {
  return lines(9, (rng) => {
    const out: string[] = [];
    const count = int(rng, 2, 14);
    for (let i = 0; i < count; i++) {
      const kind = int(rng, 0, 5);
      if (kind === 0) out.push(pick(rng, WORDS));
      else if (kind === 1) {
        const person = pick(rng, EMOJI.people);
        const tone = pick(rng, EMOJI.tones);
        // The tone goes after the first code point of a ZWJ sequence.
        const [first = "", ...rest] = [...person];
        out.push(first + tone + rest.join(""));
      } else if (kind === 2) out.push(pick(rng, EMOJI.families));
      else if (kind === 3) out.push(pick(rng, EMOJI.flags));
      else out.push(pick(rng, EMOJI.other).repeat(int(rng, 1, 3)));
    }
    return `${pick(rng, ["-", "*", ">", ""])} ${out.join(rng() < 0.5 ? " " : "")}`;
  });
}

const COMMON_CJK =
  "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战干接它许八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跟带花快条院变联言权往展该领传近留红治决周保达办运武半候七必城父强步完革深区即求品士转量空甚众技轻程告江语英基派满式李息写呢识极令黄德收脸钱党倒未持取设始版双历越史商千片容研像找友孩站广改议形委早房音火际则首单据导影失拿网香似斯专石若兵弟谁校读志飞观争究包组造落视济喜离虽坏兴医";
/** Astral CJK (Extensions B–G): names and dialect words in runs among common characters. */
function astralCjk(): string {
  const ranges: readonly (readonly [number, number])[] = [
    [0x20000, 0x2a6df], // Extension B
    [0x2a700, 0x2b739], // C
    [0x2b740, 0x2b81d], // D
    [0x2b820, 0x2cea1], // E
    [0x2ceb0, 0x2ebe0], // F
    [0x30000, 0x3134a], // G
  ];
  return lines(10, (rng) => {
    // From a few rare characters in ordinary text to whole lines of them (a character list).
    const density = pick(rng, [0.1, 0.3, 0.6, 1]);
    let line = "";
    const length = int(rng, 20, 80);
    for (let i = 0; i < length; i++) {
      if (rng() < density) {
        const [low, high] = rng() < 0.7 ? ranges[0]! : pick(rng, ranges);
        line += String.fromCodePoint(int(rng, low, high));
      } else {
        line += pick(rng, [...COMMON_CJK]);
      }
      if (rng() < 0.06) line += pick(rng, ["，", "。", "、", "：", " "]);
    }
    return line;
  });
}

/** Nerd Font icons (U+E000–U+F8FF) and planes 15–16 (Material icons, SF Symbols) in prompts and listings. */
function privateUse(): string {
  const bmp = (rng: Rng): string => String.fromCodePoint(int(rng, 0xe000, 0xf8ff));
  const plane15 = (rng: Rng): string => String.fromCodePoint(int(rng, 0xf0001, 0xf1af0));
  const plane16 = (rng: Rng): string => String.fromCodePoint(int(rng, 0x100000, 0x1019ff));
  const icon = (rng: Rng): string =>
    rng() < 0.5 ? bmp(rng) : rng() < 0.7 ? plane15(rng) : plane16(rng);
  const files = paths();
  return lines(11, (rng) => {
    switch (int(rng, 0, 3)) {
      case 0:
        // A powerline prompt.
        return `${icon(rng)} runner@ci ${bmp(rng)} ~/work/pitcrew ${bmp(rng)} ${icon(rng)} main ${icon(rng)}${int(rng, 0, 9)} ${icon(rng)} v24.${int(rng, 0, 9)}.0 ${bmp(rng)}${bmp(rng)}`;
      case 1: {
        // `eza --icons`: one icon per file.
        const out: string[] = [];
        for (let i = 0; i < int(rng, 2, 6); i++) {
          out.push(`${icon(rng)} ${(pick(rng, files).split("/").pop() ?? "").slice(0, 20)}`);
        }
        return out.join("  ");
      }
      case 2: {
        // A status bar: icons and short values.
        const out: string[] = [];
        for (let i = 0; i < int(rng, 4, 10); i++)
          out.push(`${icon(rng)}${icon(rng)} ${int(rng, 0, 99)}%`);
        return out.join(" ");
      }
      default: {
        // A glyph list: nothing but icons.
        let line = "";
        for (let i = 0; i < int(rng, 10, 60); i++) line += icon(rng);
        return line;
      }
    }
  });
}

const HEBREW = [
  "בְּרֵאשִׁית בָּרָא אֱלֹהִים אֵת הַשָּׁמַיִם וְאֵת הָאָרֶץ׃",
  "וְהָאָרֶץ הָיְתָה תֹהוּ וָבֹהוּ וְחֹשֶׁךְ עַל־פְּנֵי תְהוֹם וְרוּחַ אֱלֹהִים מְרַחֶפֶת עַל־פְּנֵי הַמָּיִם׃",
  "וַיֹּאמֶר אֱלֹהִים יְהִי אוֹר וַיְהִי־אוֹר׃",
];
const ARABIC = [
  "بِسْمِ اللَّهِ الرَّحْمَٰنِ الرَّحِيمِ",
  "الْحَمْدُ لِلَّهِ رَبِّ الْعَالَمِينَ",
  "يَقْرَأُ الْوَكِيلُ الْمُسْتَوْدَعَ، وَيُشَغِّلُ الِاخْتِبَارَاتِ، ثُمَّ يَكْتُبُ مُلَخَّصًا قَصِيرًا.",
];
const IPA = [
  "/ˌɪntərˈnæʃənəl/",
  "[ˈtʰæ̃ŋk juː]",
  "/t͡ʃɜːtʃ/",
  "[ˈd͡ʒʌd͡ʒ]",
  "/ˈbʌtə/ [ˈbʌɾɚ]",
  "[n̩] [l̩] [r̥] [t̪] [d̪]",
  "/kəmˈpjuːtə/",
  "[ʔəˈpʰɑːɹ̥tʰ]",
  "/ˈsɪstəm/",
  "[ɓ ɗ ʄ ɠ ʛ]",
];
/** Combining marks: Zalgo stacks, pointed Hebrew and vocalised Arabic, IPA with diacritics. */
function combiningMarks(): string {
  const mark = (rng: Rng): string => String.fromCodePoint(int(rng, 0x300, 0x36f));
  return lines(12, (rng) => {
    switch (int(rng, 0, 3)) {
      case 0: {
        // Zalgo: every letter under a stack of marks.
        let line = "";
        for (const word of Array.from({ length: int(rng, 2, 8) }, () => pick(rng, WORDS))) {
          for (const letter of word) {
            line += letter;
            for (let i = int(rng, 0, 8); i > 0; i--) line += mark(rng);
          }
          line += " ";
        }
        return line.trimEnd();
      }
      case 1: {
        // Pointed Hebrew, some words with cantillation marks (U+0591–U+05AF) too.
        return pick(rng, HEBREW)
          .split(" ")
          .map((word) => (rng() < 0.4 ? word + String.fromCodePoint(int(rng, 0x591, 0x5af)) : word))
          .join(" ");
      }
      case 2:
        return pick(rng, ARABIC);
      default:
        return Array.from({ length: int(rng, 3, 8) }, () => pick(rng, IPA)).join(" ");
    }
  });
}

/** Server logs: timestamps, levels, key=value fields, ids, paths and durations. */
function log(): string {
  const files = paths();
  return lines(13, (rng, i) => {
    const time = `2026-01-${String(1 + (i % 28)).padStart(2, "0")}T${String(i % 24).padStart(2, "0")}:${String((i * 7) % 60).padStart(2, "0")}:${String((i * 13) % 60).padStart(2, "0")}.${String(int(rng, 0, 999)).padStart(3, "0")}Z`;
    const level = pick(rng, ["INFO", "INFO", "INFO", "WARN", "ERROR", "DEBUG"]);
    switch (int(rng, 0, 2)) {
      case 0:
        return `${time} ${level} [worker-${int(rng, 0, 7)}] req=${hex(rng, 16)} method=${pick(rng, ["GET", "POST"])} path=/api/v1/${pick(rng, WORDS)}/${int(rng, 1, 99999)} status=${pick(rng, [200, 201, 304, 404, 500])} dur=${(rng() * 900).toFixed(1)}ms`;
      case 1:
        return `${time} ${level} ${pick(rng, WORDS)} ${pick(rng, WORDS)} ${pick(rng, WORDS)} ${pick(rng, files)} (${int(rng, 1, 500)} ms)`;
      default:
        return `{"ts":"${time}","level":"${level.toLowerCase()}","msg":"${pick(rng, WORDS)} ${pick(rng, WORDS)}","trace_id":"${hex(rng, 32)}","span_id":"${hex(rng, 16)}","attempt":${int(rng, 1, 4)}}`;
    }
  });
}

let cached: TokenClass[] | undefined;

/** Every class, in the order the tests and the benchmark list them. */
export function tokenClasses(): TokenClass[] {
  cached ??= [
    {
      name: "find-paths",
      source: "fixture: find ./node_modules -type f",
      text: fixture("find-paths.txt"),
    },
    {
      name: "minified-lodash",
      source: "fixture: lodash.min.js 4.18.1 (MIT)",
      text: fixture("minified-lodash.txt"),
    },
    {
      name: "minified-esbuild",
      source: "fixture: src/ minified by esbuild",
      text: fixture("minified-esbuild.txt"),
    },
    {
      name: "nfd-accents",
      source: "fixture: TypeScript's messages (fr, pt, es, it, pl, cs, tr) and Vietnamese, NFD",
      text: fixture("nfd-accents.txt"),
    },
    { name: "astral-cjk", source: "generated: Extensions B–G among common CJK", text: astralCjk() },
    {
      name: "private-use",
      source: "generated: Nerd Font and plane 15–16 icons",
      text: privateUse(),
    },
    {
      name: "combining-marks",
      source: "generated: Zalgo, pointed Hebrew, Arabic, IPA",
      text: combiningMarks(),
    },
    { name: "random-ascii", source: "generated: 0x21–0x7E and spaces", text: randomAscii() },
    { name: "hex-dump", source: "generated: xxd and hexdump -C", text: hexDump() },
    { name: "uuids", source: "generated: UUID lists and records", text: uuids() },
    { name: "urls", source: "generated: signed, tracking and GitHub URLs", text: urls() },
    {
      name: "diff-hunks",
      source: "fixture: git log -p -- src/context",
      text: fixture("diff-hunks.txt"),
    },
    {
      name: "stack-traces",
      source: "generated: Node, Python, Java, Go, Rust",
      text: stackTraces(),
    },
    { name: "csv-numbers", source: "generated: timestamps, ints, floats", text: csvNumbers() },
    { name: "base64-76", source: "generated: random bytes, wrapped at 76", text: base64Wrapped() },
    {
      name: "windows-paths",
      source: "generated: the find listing as Windows paths",
      text: windowsPaths(),
    },
    { name: "emoji-zwj", source: "generated: skin tones, ZWJ sequences, flags", text: emojiZwj() },
    { name: "thai", source: "fixture: CLDR names and dates, sentences", text: fixture("thai.txt") },
    {
      name: "devanagari",
      source: "fixture: CLDR names and dates, sentences (Hindi)",
      text: fixture("devanagari.txt"),
    },
    {
      name: "arabic",
      source: "fixture: CLDR names and dates, sentences",
      text: fixture("arabic.txt"),
    },
    { name: "english", source: "fixture: docs/*.md", text: fixture("english.txt") },
    { name: "typescript", source: "fixture: src/context/*.ts", text: fixture("typescript.txt") },
    { name: "json", source: "fixture: package-lock.json", text: fixture("json.txt") },
    { name: "log", source: "generated: server logs", text: log() },
  ];
  return cached;
}
