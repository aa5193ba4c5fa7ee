/**
 * The hard window guarantee, as a property over generated histories: for every window from 8k to
 * 1M, whatever the history holds — huge assistant messages (a model looping on repeated text),
 * huge user messages (a pasted log), a huge system prompt or tool definitions, a single tool
 * result bigger than the window, a long handoff note — every request the policy makes, the
 * handoff note's own included, is within the window less the answer's room: by the policy's own
 * estimate and by an exact o200k count (fed back to the policy as the API reports it). When the
 * tool definitions alone leave no room, nothing is sent and the failure is named. The views stay
 * sendable (every tool call answered).
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { layeredPolicy } from "../../src/context/policy.ts";
import { outputReserve, requestLimit } from "../../src/context/manager.ts";
import type { ReminderFacts } from "../../src/context/reminder.ts";
import { TokenCounter, pairingProblem } from "../../src/context/replay/replay.ts";
import type { Segment } from "../../src/context/replay/replay.ts";
import { estimateText } from "../../src/context/tokens.ts";
import type { Message } from "../../src/domain/messages.ts";
import type { ToolDefinition } from "../../src/domain/tools.ts";
import { ZERO_USAGE } from "../../src/domain/usage.ts";
import { PitcrewError } from "../../src/errors.ts";
import { seeded } from "../support/random.ts";

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)] as T;
/** Log-uniform between `low` and `high`. */
const sized = (random: Random, low: number, high: number): number =>
  Math.round(Math.exp(Math.log(low) + random() * (Math.log(high) - Math.log(low))));

const WORDS = [
  "the",
  "parser",
  "fails",
  "on",
  "empty",
  "input",
  "when",
  "called",
  "twice",
  "return",
];
const COMMON_HANZI =
  "的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长";
const CLASSES = {
  english: (random: Random) => `${pick(random, WORDS)} `,
  code: (random: Random) =>
    `  const ${pick(random, WORDS)}_${Math.floor(random() * 99)} = ${pick(random, WORDS)}(x);\n`,
  paths: (random: Random) =>
    `./node_modules/${pick(random, WORDS)}/lib/${pick(random, WORDS)}-${Math.floor(random() * 999)}.js\n`,
  base64: (random: Random) => {
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    return Array.from({ length: 76 }, () => pick(random, [...alphabet])).join("") + "\n";
  },
  // Common characters, as Chinese text has them (random rare ones are the estimator's class
  // tests' business, test/context/tokens.test.ts).
  // A clause at a time: a run without punctuation is one piece to o200k, and exact counting of
  // a long piece is quadratic.
  cjk: (random: Random) =>
    Array.from({ length: 12 }, () => pick(random, [...COMMON_HANZI])).join("") +
    pick(random, ["，", "。\n"]),
  emoji: (random: Random) => String.fromCodePoint(0x1f600 + Math.floor(random() * 60)),
  looping: () => "I will now check the file again. ",
};

/** Classes o200k counts slowly (a few MB/s): kept to texts of ordinary size. */
const SLOW = new Set<(random: Random) => string>([CLASSES.cjk, CLASSES.emoji]);

/** About `chars` characters of one content class. */
function text(random: Random, chars: number): string {
  const classes = Object.values(CLASSES).filter((make) => chars < 50_000 || !SLOW.has(make));
  const make = pick(random, classes);
  const parts: string[] = [];
  let length = 0;
  while (length < chars) {
    const part = make(random);
    parts.push(part);
    length += part.length;
  }
  return parts.join("");
}

interface Case {
  window: number;
  seed: number;
  tools: ToolDefinition[];
  history: Message[];
  /** The handoff notes the model writes when asked, in order (some far too long). */
  notes: string[];
}

/** A history whose sizes are drawn against the window: mostly ordinary, now and then absurd. */
function generate(window: number, seed: number): Case {
  const random = seeded(seed);
  // Characters for a share of the window (about 4 per token for ASCII, fewer for the rest).
  const share = (low: number, high: number): number =>
    sized(random, Math.max(10, low * window * 3), Math.max(20, high * window * 3));
  const huge = (): boolean => random() < 0.12;
  const tools: ToolDefinition[] = [
    {
      name: "bash",
      description: huge() ? text(random, share(0.1, 0.6)) : "Run a command.",
      parameters: { type: "object", properties: { command: { type: "string" } } },
    },
  ];
  const history: Message[] = [
    { role: "system", content: huge() ? text(random, share(0.3, 1.5)) : text(random, 3_000) },
    { role: "user", content: huge() ? text(random, share(0.3, 1.5)) : text(random, 800) },
  ];
  const rounds = sized(random, 2, 50);
  for (let round = 0; round < rounds; round++) {
    if (random() < 0.05) {
      history.push({ role: "user", content: text(random, huge() ? share(0.3, 1.5) : 400) });
    }
    const calls = random() < 0.1 ? 0 : sized(random, 1, 4);
    const content = huge() ? text(random, share(0.3, 1.5)) : text(random, sized(random, 0, 1500));
    const toolCalls = Array.from({ length: calls }, (_, n) => ({
      id: `call_${round}_${n}`,
      name: "bash",
      arguments: JSON.stringify({
        command: huge() ? text(random, share(0.2, 1.5)) : `cat file${n}.txt`,
      }),
    }));
    history.push({ role: "assistant", content, toolCalls });
    for (const call of toolCalls) {
      const size = huge() ? share(0.3, 1.5) : sized(random, 20, Math.min(10_000, window));
      history.push({
        role: "tool",
        toolCallId: call.id,
        name: "bash",
        content: `exit code: 0\n${text(random, size)}`,
        isError: false,
      });
    }
  }
  history.push({ role: "assistant", content: "Done.", toolCalls: [] });
  const notes = Array.from({ length: 20 }, () =>
    huge() ? text(random, share(0.3, 1.5)) : text(random, 4_000),
  );
  return { window, seed, tools, history, notes };
}

function facts(random: Random, window: number): () => Promise<ReminderFacts> {
  let request = 0;
  return () => {
    request++;
    const many = random() < 0.05 ? Math.min(200, Math.floor(window / 100)) : 0;
    return Promise.resolve({
      now: new Date(Date.UTC(2026, 0, 15, 9, request)),
      branch: "pitcrew/issue-1",
      todos: [{ content: "fix it", status: "in_progress" }],
      changedFiles: Array.from({ length: many }, (_, n) => `src/generated/file-${n}.ts`),
    });
  };
}

/** Exact o200k tokens of a request: the tools in front of the messages, each with its framing. */
function exact(
  counter: TokenCounter,
  tools: readonly ToolDefinition[],
  messages: Message[],
): number {
  const segments: Segment[] = [...counter.tools(tools), ...messages.map((m) => counter.segment(m))];
  return segments.reduce((sum, segment) => sum + segment.tokens, 0);
}

interface Outcome {
  requests: number;
  summaries: number;
  named?: PitcrewError;
  worst: number;
}

async function replay(made: Case, counter: TokenCounter): Promise<Outcome> {
  const { window, tools, history } = made;
  const settings = { window };
  const limit = requestLimit({ window, compactAt: 0.85, keepAfterCompaction: 0.35 });
  const random = seeded(made.seed ^ 0x5eed);
  const policy = layeredPolicy({
    settings,
    fixedTokens: estimateText(JSON.stringify(tools)),
    reminder: facts(random, window),
  });
  const label = `window ${window}, seed ${made.seed}`;
  let notes = 0;
  const outcome: Outcome = { requests: 0, summaries: 0, worst: 0 };
  const check = (messages: Message[], what: string): number => {
    const tokens = exact(counter, tools, messages);
    outcome.worst = Math.max(outcome.worst, tokens / limit);
    assert.ok(tokens <= limit, `${label}, ${what}: ${tokens} o200k tokens > ${limit}`);
    assert.equal(pairingProblem(messages), undefined, `${label}, ${what}: not sendable`);
    return tokens;
  };
  const summarize = (messages: Message[]): Promise<string> => {
    outcome.summaries++;
    check(messages, `handoff request ${outcome.summaries}`);
    return Promise.resolve(made.notes[notes++ % made.notes.length] ?? "");
  };
  for (const [index, message] of history.entries()) {
    if (message.role !== "assistant") continue;
    let view;
    try {
      view = await policy.view(history.slice(0, index), summarize);
    } catch (error) {
      if (error instanceof PitcrewError && error.code === "context-window-too-small") {
        outcome.named = error;
        return outcome;
      }
      throw error;
    }
    outcome.requests++;
    assert.ok(
      view.tokens <= limit,
      `${label}, request ${outcome.requests}: estimate ${view.tokens}`,
    );
    const tokens = check(view.messages, `request ${outcome.requests}`);
    policy.record({ ...ZERO_USAGE, promptTokens: tokens });
  }
  return outcome;
}

/** Windows and how many generated sessions each (fewer where exact counting of huge texts is slow). */
const WINDOWS: [number, number][] = [
  [8_000, 8],
  [12_000, 6],
  [16_000, 6],
  [32_000, 6],
  [64_000, 6],
  [128_000, 6],
  [200_000, 3],
  [400_000, 3],
  [1_000_000, 2],
];

describe("the hard window guarantee", () => {
  const counter = new TokenCounter();
  for (const [window, sessions] of WINDOWS) {
    test(`window ${window}: every request within the window less the answer's room, or a named refusal`, async (t) => {
      let requests = 0;
      let summaries = 0;
      let worst = 0;
      for (let seed = 1; seed <= sessions; seed++) {
        const made = generate(window, seed * 7919 + window);
        const outcome = await replay(made, counter);
        requests += outcome.requests;
        summaries += outcome.summaries;
        worst = Math.max(worst, outcome.worst);
        const tools = exact(counter, made.tools, []);
        const limit =
          window - outputReserve({ window, compactAt: 0.85, keepAfterCompaction: 0.35 });
        if (outcome.named) {
          // Refused only when the tool definitions leave no room for the messages.
          assert.ok(tools > limit * 0.3, `seed ${seed}: refused with tools of ${tools} tokens`);
          assert.match(
            outcome.named.message,
            /Set the context window to the model's real window if it is larger \(the action's context-window input, pitcrew run's --context-window\)/,
          );
        } else if (tools < limit * 0.3) {
          assert.ok(outcome.requests > 0);
        }
      }
      t.diagnostic(
        `${requests} requests, ${summaries} handoff requests, largest ${(worst * 100).toFixed(1)}% of the limit`,
      );
      assert.ok(requests > 0, "the property was exercised");
    });
  }
});
