/**
 * What the recorded-session parsers share: JSON shape checks, message text, and the builder that
 * keeps every tool result right after the call it answers (the pairing a request needs). Pure;
 * nothing here knows a file format.
 */
import type { Message, ToolCall } from "../../../domain/messages.ts";
import type { ToolDefinition } from "../../../domain/tools.ts";

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Message content as text: a string, null, or an array of text parts. */
export function textOf(value: unknown, where: () => string): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (Array.isArray(value)) {
    return value
      .map((part: unknown) => {
        if (isObject(part) && part.type === "text" && typeof part.text === "string")
          return part.text;
        const kind = isObject(part) && typeof part.type === "string" ? part.type : typeof part;
        throw new Error(`${where()} has a content part of type '${kind}'; only text is replayed`);
      })
      .join("");
  }
  throw new Error(`${where()} has content that is neither text nor a list of text parts`);
}

/** A tool call's arguments as the JSON text a provider carries them in. */
export function argumentsText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value ?? {});
}

/** An OpenAI tool call (`{id, function: {name, arguments}}`) or pitcrew's (`{id, name, arguments}`). */
export function toolCallOf(value: unknown, where: () => string): ToolCall {
  if (!isObject(value)) throw new Error(`${where()} has a tool call that is not an object`);
  const fn = isObject(value.function) ? value.function : value;
  const name = fn.name;
  if (typeof value.id !== "string" || value.id === "")
    throw new Error(`${where()} has a tool call without an id`);
  if (typeof name !== "string" || name === "")
    throw new Error(`${where()} has a tool call without a function name`);
  return { id: value.id, name, arguments: argumentsText(fn.arguments) };
}

/** An OpenAI function tool (`{type: "function", function: {...}}`) or a bare one, as pitcrew's. */
export function toolDefinitionOf(value: unknown, where: () => string): ToolDefinition {
  const fn = isObject(value) && isObject(value.function) ? value.function : value;
  if (!isObject(fn) || typeof fn.name !== "string")
    throw new Error(`${where()} is not a function tool with a name`);
  return {
    name: fn.name,
    description: typeof fn.description === "string" ? fn.description : "",
    parameters: isObject(fn.parameters) ? fn.parameters : {},
  };
}

/**
 * A history built in order, with the pairing rule the replay holds every view to: the results of
 * an assistant message's calls come right after it, one per call, before any other message. A
 * result for a call that is not waiting, or a message while calls still wait, is an error naming
 * the place (`where`). Calls still waiting when the recording ends are allowed: the run stopped
 * there.
 */
export class HistoryBuilder {
  readonly messages: Message[] = [];
  private waiting = new Map<string, ToolCall>();

  /** The ids of the calls still waiting for a result. */
  get open(): string[] {
    return [...this.waiting.keys()];
  }

  system(content: string, where: () => string): void {
    this.push({ role: "system", content }, where);
  }

  user(content: string, where: () => string): void {
    this.push({ role: "user", content }, where);
  }

  assistant(content: string, toolCalls: ToolCall[], where: () => string): void {
    this.push({ role: "assistant", content, toolCalls }, where);
    for (const call of toolCalls) {
      if (this.waiting.has(call.id))
        throw new Error(`${where()} makes tool call '${call.id}' twice`);
      this.waiting.set(call.id, call);
    }
  }

  /** Whether a result for `id` would be taken now. */
  waits(id: string): boolean {
    return this.waiting.has(id);
  }

  result(id: string, content: string, isError: boolean, where: () => string): void {
    const call = this.waiting.get(id);
    if (!call) throw new Error(`${where()} answers tool call '${id}', which is not waiting`);
    this.waiting.delete(id);
    this.messages.push({ role: "tool", toolCallId: id, name: call.name, content, isError });
  }

  private push(message: Message, where: () => string): void {
    if (this.waiting.size > 0) {
      throw new Error(
        `${where()} comes before tool call(s) ${this.open.join(", ")} got their results`,
      );
    }
    this.messages.push(message);
  }
}
