/**
 * OpenHands (0.x) event streams: a trajectory export (a JSON list of events) or an evaluation
 * record's `history`, and OpenDevin's older `history` of [action, observation] pairs. Agent actions
 * become assistant messages. With function calling (`tool_call_metadata`), the message is the
 * model's response as recorded there — its text and every tool call it made, once however many
 * events it produced — and an observation carrying a tool call id is that call's result. Older
 * actions without it (CodeAct's `<execute_…>` text) are recovered from the action: a call named
 * after it with its arguments, answered by the observation whose `cause` is its id; an action no
 * observation answers is the assistant's text. Observations that answer no call (a parse error, a
 * recall) stay user messages; environment bookkeeping (agent state, empty observations) is dropped.
 */
import type { Message, ToolCall } from "../../../domain/messages.ts";
import type { ToolDefinition } from "../../../domain/tools.ts";
import type { Json } from "./common.ts";
import { HistoryBuilder, isObject, textOf, toolCallOf, toolDefinitionOf } from "./common.ts";

/** Action arguments that are OpenHands' bookkeeping, not what the model wrote. */
const BOOKKEEPING = new Set([
  "thought",
  "kernel_init_code",
  "is_confirmed",
  "confirmation_state",
  "security_risk",
  "action_risk",
  "keep_prompt",
  "blocking",
  "hidden",
  "is_static",
  "cwd",
  "impl_source",
]);

/** Observations that tell the model nothing (the agent's state, an empty placeholder). */
const SILENT = new Set(["null", "agent_state_changed"]);

function isEvent(value: unknown): boolean {
  return (
    isObject(value) &&
    typeof value.source === "string" &&
    (typeof value.action === "string" || typeof value.observation === "string")
  );
}

/** A list of events, or of OpenDevin's [action, observation] pairs (an empty one has no source). */
export function isOpenHandsEvents(values: readonly unknown[]): boolean {
  return (
    values.length > 0 &&
    values.every(
      (value) =>
        isEvent(value) ||
        (Array.isArray(value) &&
          value.length === 2 &&
          isEvent(value[0]) &&
          isObject(value[1]) &&
          typeof value[1].observation === "string"),
    )
  );
}

function where(index: number, event: Json): () => string {
  const id =
    typeof event.id === "number" || typeof event.id === "string" ? ` (id ${event.id})` : "";
  return () => `event ${index + 1}${id}`;
}

function failed(event: Json): boolean {
  if (event.observation === "error") return true;
  const extras = isObject(event.extras) ? event.extras : {};
  const metadata = isObject(extras.metadata) ? extras.metadata : {};
  const code = metadata.exit_code ?? extras.exit_code;
  return typeof code === "number" && code > 0;
}

function legacyCall(event: Json, args: Json): ToolCall {
  const kept = Object.fromEntries(Object.entries(args).filter(([key]) => !BOOKKEEPING.has(key)));
  return {
    id: `call_${String(event.id)}`,
    name: String(event.action),
    arguments: JSON.stringify(kept),
  };
}

export function fromOpenHandsEvents(values: readonly unknown[]): {
  history: Message[];
  tools?: ToolDefinition[];
} {
  const events = values.flatMap((value): unknown[] =>
    Array.isArray(value) ? (value as unknown[]) : [value],
  ) as Json[];
  const answered = new Set(
    events
      .filter((event) => typeof event.observation === "string" && !SILENT.has(event.observation))
      .map((event) => event.cause),
  );
  const built = new HistoryBuilder();
  let tools: ToolDefinition[] | undefined;
  let response: unknown;
  for (const [index, event] of events.entries()) {
    const at = where(index, event);
    const args = isObject(event.args) ? event.args : {};
    if (typeof event.action === "string") {
      if (event.action === "system") {
        built.system(textOf(args.content, at), at);
        if (Array.isArray(args.tools))
          tools = args.tools.map((tool, n) =>
            toolDefinitionOf(tool, () => `${at()}, tool ${n + 1}`),
          );
        continue;
      }
      if (event.source !== "agent") {
        if (event.action === "message") built.user(textOf(args.content ?? event.message, at), at);
        continue;
      }
      const metadata = isObject(event.tool_call_metadata) ? event.tool_call_metadata : undefined;
      const recorded =
        metadata && isObject(metadata.model_response) ? metadata.model_response : undefined;
      if (recorded) {
        if (recorded.id !== undefined && recorded.id === response) continue;
        response = recorded.id;
        const choice: unknown = Array.isArray(recorded.choices) ? recorded.choices[0] : undefined;
        const message = isObject(choice) && isObject(choice.message) ? choice.message : {};
        const raw: unknown = message.tool_calls ?? [];
        if (!Array.isArray(raw)) throw new Error(`${at()} has tool_calls that is not a list`);
        built.assistant(
          textOf(message.content, at),
          raw.map((call) => toolCallOf(call, at)),
          at,
        );
      } else if (event.action === "message") {
        built.assistant(textOf(args.content ?? event.message, at), [], at);
      } else {
        const thought = typeof args.thought === "string" ? args.thought : "";
        built.assistant(thought, answered.has(event.id) ? [legacyCall(event, args)] : [], at);
      }
      continue;
    }
    const observation = String(event.observation);
    if (SILENT.has(observation)) continue;
    const content = textOf(event.content ?? event.message, at);
    const metadata = isObject(event.tool_call_metadata) ? event.tool_call_metadata : {};
    const id =
      typeof metadata.tool_call_id === "string"
        ? metadata.tool_call_id
        : `call_${String(event.cause)}`;
    if (built.waits(id)) built.result(id, content, failed(event), at);
    else built.user(content, at);
  }
  return { history: built.messages, ...(tools ? { tools } : {}) };
}
