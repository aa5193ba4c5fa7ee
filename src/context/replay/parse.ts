/**
 * Recorded sessions parsed into pitcrew's own history for replay: OpenAI chat-completions message
 * arrays (a JSON array, a request body with `messages`, or JSONL with one message a line; pitcrew's
 * own Message shape is accepted too), and mini-swe-agent-1 trajectories, whose fenced bash blocks
 * become `bash` tool calls. Other agents' recordings are read by their parsers in formats/ (SWE-agent
 * trajectories, OpenHands event streams, Claude Code transcripts); this file tells the formats apart.
 * Pure: the command reads the file (commands/context.ts) and hands its text here. Nothing here
 * counts tokens or judges a policy. pitcrew's own tool definitions are handed in by the caller
 * (`known`): this layer does not reach into the agent for them.
 */
import type { Message, ToolCall } from "../../domain/messages.ts";
import type { ToolDefinition } from "../../domain/tools.ts";
import { PitcrewError } from "../../errors.ts";
import { fromClaudeCodeJsonl, isClaudeCodeJsonl } from "./formats/claude-code-jsonl.ts";
import { isObject, textOf, toolCallOf, toolDefinitionOf } from "./formats/common.ts";
import { fromOpenHandsEvents, isOpenHandsEvents } from "./formats/openhands-events.ts";
import { fromOpenHandsSdkEvents, isOpenHandsSdkEvents } from "./formats/openhands-sdk-events.ts";
import { fromSweAgentTrajectory, isSweAgentTrajectory } from "./formats/swe-agent-traj.ts";

export type SessionFormat =
  | "openai-messages"
  | "openai-jsonl"
  | "mini-swe-agent-1"
  | "mini-swe-agent-1.1"
  | "swe-agent-traj"
  | "openhands-events"
  | "openhands-sdk-events"
  | "claude-code-jsonl";

export interface RecordedSession {
  /** The file as the caller named it. */
  file: string;
  format: SessionFormat;
  /** The whole recorded conversation, in order. */
  history: Message[];
  /**
   * The tool definitions every request sends in front of the messages: the file's own (a request
   * body's `tools`), else pitcrew's definitions of the tools the history calls. A tool pitcrew
   * does not know and the file does not define adds nothing.
   */
  tools: ToolDefinition[];
  /** What the provider reported for the recorded calls, when the file keeps it (trajectories). */
  reported?: { calls: number; promptTokens: number; cachedTokens: number };
}

function bad(file: string, sentence: string): PitcrewError {
  return new PitcrewError("replay-bad-file", `${file}: ${sentence}`);
}

/**
 * OpenAI chat messages (or pitcrew's own) as pitcrew messages. Tool results must answer a call
 * made earlier; their tool name comes from that call. Throws with the message's number.
 */
export function fromOpenAIMessages(values: readonly unknown[]): Message[] {
  const calls = new Map<string, ToolCall>();
  return values.map((value, index): Message => {
    const where = (): string => `message ${index + 1}`;
    if (!isObject(value)) throw new Error(`${where()} is not an object`);
    const role = value.role;
    const content = (): string => textOf(value.content, where);
    switch (role) {
      case "system":
      case "developer":
        return { role: "system", content: content() };
      case "user":
        return { role: "user", content: content() };
      case "assistant": {
        const raw = value.tool_calls ?? value.toolCalls ?? [];
        if (!Array.isArray(raw)) throw new Error(`${where()} has tool_calls that is not a list`);
        const toolCalls = raw.map((call) => toolCallOf(call, where));
        for (const call of toolCalls) calls.set(call.id, call);
        return { role: "assistant", content: content(), toolCalls };
      }
      case "tool": {
        const id = value.tool_call_id ?? value.toolCallId;
        if (typeof id !== "string")
          throw new Error(`${where()} is a tool result without tool_call_id`);
        const call = calls.get(id);
        if (!call)
          throw new Error(`${where()} answers tool call '${id}', which no earlier message made`);
        return {
          role: "tool",
          toolCallId: id,
          name: call.name,
          content: content(),
          isError: value.isError === true,
        };
      }
      default:
        throw new Error(
          `${where()} has role ${JSON.stringify(role)}; expected system, developer, user, assistant or tool`,
        );
    }
  });
}

/** A command block: ```bash (mini-swe-agent 1) or ```mswea_bash_command (2.x's text mode). */
const BASH_BLOCK = /```(?:bash|mswea_bash_command)\s*\n([\s\S]*?)\n```/g;
const RETURN_CODE = /^<returncode>(-?\d+)<\/returncode>/;
const TIMED_OUT = /^The last command <command>[\s\S]*?<\/command> timed out/;

/**
 * A mini-swe-agent trajectory as tool calls, as its README maps it. An assistant message with
 * exactly one ```bash (or, in 2.x, ```mswea_bash_command) block is one `bash` call `{command}` (the text around the block stays as
 * content) and the user message after it is that call's result, an error when the return code is
 * not 0 or the command timed out. An assistant message with no block or several is plain text
 * (mini-swe-agent answered it with a format error, which stays a user message). The system
 * prompt and the task stay as they are.
 */
export function fromMiniSweAgent(values: readonly unknown[]): Message[] {
  const history: Message[] = [];
  let pending: ToolCall | undefined;
  let calls = 0;
  for (const [index, value] of values.entries()) {
    const where = (): string => `message ${index + 1}`;
    if (!isObject(value)) throw new Error(`${where()} is not an object`);
    const content = textOf(value.content, where);
    if (value.role === "system") {
      history.push({ role: "system", content });
    } else if (value.role === "assistant") {
      if (pending) throw new Error(`${where()} follows a bash call that got no observation`);
      const blocks = [...content.matchAll(BASH_BLOCK)];
      const block = blocks[0];
      if (blocks.length !== 1 || block === undefined) {
        history.push({ role: "assistant", content, toolCalls: [] });
        continue;
      }
      calls++;
      pending = {
        id: `call_${calls}`,
        name: "bash",
        arguments: JSON.stringify({ command: (block[1] ?? "").trim() }),
      };
      const start = block.index;
      const text = `${content.slice(0, start).trimEnd()}\n\n${content.slice(start + block[0].length).trim()}`;
      history.push({ role: "assistant", content: text.trim(), toolCalls: [pending] });
    } else if (value.role === "user") {
      if (!pending) {
        history.push({ role: "user", content });
        continue;
      }
      const code = RETURN_CODE.exec(content)?.[1];
      history.push({
        role: "tool",
        toolCallId: pending.id,
        name: pending.name,
        content,
        isError: (code !== undefined && code !== "0") || TIMED_OUT.test(content),
      });
      pending = undefined;
    } else {
      throw new Error(`${where()} has role ${JSON.stringify(value.role)}`);
    }
  }
  return history;
}

/** Provider usage summed over a trajectory's recorded calls, when every call has it. */
function reportedUsage(values: readonly unknown[]): RecordedSession["reported"] {
  let calls = 0;
  let promptTokens = 0;
  let cachedTokens = 0;
  for (const value of values) {
    if (!isObject(value) || value.role !== "assistant") continue;
    const extra = isObject(value.extra) ? value.extra : {};
    const response = isObject(extra.response) ? extra.response : {};
    const usage = isObject(response.usage) ? response.usage : undefined;
    if (!usage || typeof usage.prompt_tokens !== "number") return undefined;
    const details = isObject(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
    calls++;
    promptTokens += usage.prompt_tokens;
    cachedTokens += typeof details.cached_tokens === "number" ? details.cached_tokens : 0;
  }
  return calls > 0 ? { calls, promptTokens, cachedTokens } : undefined;
}

/** pitcrew's definitions (`known`) of the tools the history calls, in pitcrew's order. */
function knownTools(
  history: readonly Message[],
  known: readonly ToolDefinition[],
): ToolDefinition[] {
  const used = new Set(
    history.flatMap((message) =>
      message.role === "assistant" ? message.toolCalls.map((call) => call.name) : [],
    ),
  );
  return known.filter((tool) => used.has(tool.name));
}

/** An OpenHands event stream (0.x events or SDK events): its history, and its tools if it has them. */
function fromOpenHands(
  events: readonly unknown[],
  known: readonly ToolDefinition[],
  instruction?: unknown,
): Omit<RecordedSession, "file"> | undefined {
  const sdk = isOpenHandsSdkEvents(events);
  if (!sdk && !isOpenHandsEvents(events)) return undefined;
  const { history, tools } = sdk
    ? fromOpenHandsSdkEvents(events, instruction)
    : fromOpenHandsEvents(events);
  return {
    format: sdk ? "openhands-sdk-events" : "openhands-events",
    history,
    tools: tools ?? knownTools(history, known),
  };
}

function fromJson(value: unknown, known: readonly ToolDefinition[]): Omit<RecordedSession, "file"> {
  if (Array.isArray(value)) {
    const events = fromOpenHands(value, known);
    if (events) return events;
    const history = fromOpenAIMessages(value);
    return { format: "openai-messages", history, tools: knownTools(history, known) };
  }
  if (!isObject(value)) throw new Error("the JSON is neither a list of messages nor an object");
  if (value.trajectory_format !== undefined) {
    const format = value.trajectory_format;
    if (format !== "mini-swe-agent-1" && format !== "mini-swe-agent-1.1") {
      throw new Error(
        `trajectory_format ${JSON.stringify(format)} is not supported (only mini-swe-agent-1 and mini-swe-agent-1.1)`,
      );
    }
    if (!Array.isArray(value.messages)) throw new Error("the trajectory has no messages list");
    // mini-swe-agent 2.x (1.1) ends with an `exit` message the model never saw, and with a
    // tool-calling model records OpenAI tool calls and results; in its text mode, and in 1.x,
    // the command is a fenced block in the answer.
    const sent = value.messages.filter((message) => !isObject(message) || message.role !== "exit");
    const toolCalling = sent.some(
      (message) =>
        isObject(message) &&
        (message.role === "tool" ||
          (Array.isArray(message.tool_calls) && message.tool_calls.length > 0)),
    );
    const history = toolCalling ? fromOpenAIMessages(sent) : fromMiniSweAgent(sent);
    const reported = reportedUsage(value.messages);
    return {
      format,
      history,
      tools: knownTools(history, known),
      ...(reported ? { reported } : {}),
    };
  }
  if (Array.isArray(value.history)) {
    if (isSweAgentTrajectory(value)) {
      const history = fromSweAgentTrajectory(value.history);
      return { format: "swe-agent-traj", history, tools: knownTools(history, known) };
    }
    const events = fromOpenHands(value.history, known, value.instruction);
    if (events) return events;
    if (!Array.isArray(value.messages))
      throw new Error(
        "the `history` is neither SWE-agent's messages (each with a `role`) nor OpenHands events",
      );
  }
  if (Array.isArray(value.messages)) {
    const history = fromOpenAIMessages(value.messages);
    const tools = Array.isArray(value.tools)
      ? value.tools.map((tool, index) => toolDefinitionOf(tool, () => `tool ${index + 1}`))
      : knownTools(history, known);
    return { format: "openai-messages", history, tools };
  }
  throw new Error(
    "the JSON object has neither `messages` (a chat request), `trajectory_format` (a trajectory) nor `history` (a SWE-agent or OpenHands run)",
  );
}

/**
 * A recorded session from a file's text. JSON first (a list of messages, a chat request body, a
 * trajectory, an event stream); if the text is not one JSON value, JSONL: a Claude Code
 * transcript, else one message a line. Errors name the file and the message or line.
 */
export function parseSession(
  text: string,
  file: string,
  known: readonly ToolDefinition[],
): RecordedSession {
  let whole: unknown;
  let jsonError: string | undefined;
  try {
    whole = JSON.parse(text);
  } catch (error) {
    jsonError = error instanceof Error ? error.message : String(error);
  }
  try {
    if (jsonError === undefined) return { file, ...fromJson(whole, known) };
  } catch (error) {
    throw bad(file, error instanceof Error ? error.message : String(error));
  }
  const lines = text.split("\n");
  const values: unknown[] = [];
  const lineOf: number[] = [];
  for (const [index, line] of lines.entries()) {
    if (line.trim() === "") continue;
    try {
      values.push(JSON.parse(line));
      lineOf.push(index + 1);
    } catch {
      const what =
        values.length === 0 && lines.filter((l) => l.trim() !== "").length <= 1
          ? `not JSON (${jsonError})`
          : `neither one JSON value (${jsonError}) nor JSONL: line ${index + 1} is not JSON`;
      throw bad(file, what);
    }
  }
  if (values.length === 0) throw bad(file, "the file is empty");
  if (isClaudeCodeJsonl(values)) {
    try {
      const { history, reported } = fromClaudeCodeJsonl(values, lineOf);
      const tools = knownTools(history, known);
      return {
        file,
        format: "claude-code-jsonl",
        history,
        tools,
        ...(reported ? { reported } : {}),
      };
    } catch (error) {
      throw bad(file, error instanceof Error ? error.message : String(error));
    }
  }
  try {
    const history = fromOpenAIMessages(values);
    return { file, format: "openai-jsonl", history, tools: knownTools(history, known) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw bad(
      file,
      reason.replace(/^message (\d+)/, (_, n: string) => `line ${lineOf[Number(n) - 1]}`),
    );
  }
}
