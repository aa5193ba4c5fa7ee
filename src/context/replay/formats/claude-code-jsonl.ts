/**
 * Claude Code session transcripts (`~/.claude/projects/…/<session>.jsonl`, a subagent's
 * `agent-….jsonl`, or the `--output-format stream-json` stream): one JSON object a line, the
 * conversation in its `user` and `assistant` lines. Claude Code writes one model response over
 * several lines, a content block each, with tool results arriving between them; the lines of one
 * response (`message.id`) are one assistant message — its text blocks the content, its `tool_use`
 * blocks the calls — and each `tool_result` block in a user line the result of the call it names.
 * Thinking blocks are not replayed (the API drops them from earlier turns). Lines that are no
 * message (progress, snapshots, system notes) and lines shown only in the transcript are dropped;
 * in a file that also has the main conversation, so are the subagents' side-chain lines.
 */
import type { Message, ToolCall } from "../../../domain/messages.ts";
import type { Json } from "./common.ts";
import { HistoryBuilder, argumentsText, isObject, textOf } from "./common.ts";

/** The provider usage summed over the responses, when every response has it. */
export interface ClaudeCodeUsage {
  calls: number;
  promptTokens: number;
  cachedTokens: number;
}

function isMessageLine(value: unknown): value is Json & { message: Json } {
  return (
    isObject(value) &&
    (value.type === "user" || value.type === "assistant") &&
    isObject(value.message)
  );
}

/** Every line a typed object without a chat `role`, and some line a user or assistant message. */
export function isClaudeCodeJsonl(values: readonly unknown[]): boolean {
  return (
    values.every(
      (value) => isObject(value) && typeof value.type === "string" && value.role === undefined,
    ) && values.some(isMessageLine)
  );
}

function blocksOf(message: Json): unknown[] {
  const content = message.content;
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? content : [];
}

function usageOf(message: Json): { prompt: number; cached: number } | undefined {
  const usage = isObject(message.usage) ? message.usage : undefined;
  if (!usage || typeof usage.input_tokens !== "number") return undefined;
  const count = (key: string): number => (typeof usage[key] === "number" ? usage[key] : 0);
  return {
    prompt:
      usage.input_tokens + count("cache_creation_input_tokens") + count("cache_read_input_tokens"),
    cached: count("cache_read_input_tokens"),
  };
}

export function fromClaudeCodeJsonl(
  values: readonly unknown[],
  lineOf: readonly number[],
): { history: Message[]; reported?: ClaudeCodeUsage } {
  const main = values.some((value) => isObject(value) && value.isSidechain === false);
  const lines = values.flatMap((value, index) =>
    isMessageLine(value) &&
    value.isVisibleInTranscriptOnly !== true &&
    !(main && value.isSidechain === true)
      ? [{ value, at: () => `line ${lineOf[index] ?? index + 1}` }]
      : [],
  );
  // The blocks of each response, gathered over its lines; it is sent where its first line is.
  const responses = new Map<unknown, { value: Json; blocks: unknown[] }>();
  for (const { value } of lines) {
    if (value.type !== "assistant") continue;
    const key = value.message.id ?? value.uuid;
    const response = responses.get(key) ?? { value: value.message, blocks: [] };
    response.blocks.push(...blocksOf(value.message));
    responses.set(key, response);
  }
  const built = new HistoryBuilder();
  let usage: ClaudeCodeUsage | undefined = { calls: 0, promptTokens: 0, cachedTokens: 0 };
  for (const { value, at } of lines) {
    if (value.type === "assistant") {
      const key = value.message.id ?? value.uuid;
      const response = responses.get(key);
      if (!response) continue; // sent with the response's first line
      responses.delete(key);
      const text: string[] = [];
      const calls: ToolCall[] = [];
      for (const block of response.blocks) {
        if (!isObject(block)) throw new Error(`${at()} has a content block that is not an object`);
        if (block.type === "text") text.push(textOf([block], at));
        else if (block.type === "tool_use") {
          if (typeof block.id !== "string" || typeof block.name !== "string")
            throw new Error(`${at()} has a tool_use block without an id or a name`);
          calls.push({ id: block.id, name: block.name, arguments: argumentsText(block.input) });
        }
      }
      built.assistant(text.join("\n"), calls, at);
      if (response.value.model !== "<synthetic>" && usage) {
        const counted = usageOf(response.value);
        if (counted) {
          usage.calls++;
          usage.promptTokens += counted.prompt;
          usage.cachedTokens += counted.cached;
        } else usage = undefined;
      }
      continue;
    }
    const text: string[] = [];
    for (const block of blocksOf(value.message)) {
      if (isObject(block) && block.type === "tool_result") {
        if (typeof block.tool_use_id !== "string")
          throw new Error(`${at()} has a tool_result block without a tool_use_id`);
        built.result(block.tool_use_id, textOf(block.content, at), block.is_error === true, at);
      } else text.push(textOf([block], at));
    }
    if (text.length > 0) built.user(text.join("\n"), at);
  }
  return { history: built.messages, ...(usage && usage.calls > 0 ? { reported: usage } : {}) };
}
