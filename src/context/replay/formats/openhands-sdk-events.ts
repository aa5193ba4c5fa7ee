/**
 * OpenHands agent-SDK (1.x) event streams: the `history` of an evaluation record, events tagged
 * by `kind`. A system prompt event is the system message (its `tools` the file's tools); a message
 * event a user or assistant message; the action events of one model response (`llm_response_id`)
 * one assistant message with its tool calls and the first action's `thought` as text; an
 * observation (or an agent error, or a rejection) the result of the call its `tool_call_id`
 * names. Other events (state updates, pauses, condensations) are not messages and are dropped.
 * The SDK's evaluation records may leave the task out of `history`; it is then the record's
 * `instruction`, sent as the first user message as the evaluation harness sends it.
 */
import type { Message, ToolCall } from "../../../domain/messages.ts";
import type { ToolDefinition } from "../../../domain/tools.ts";
import type { Json } from "./common.ts";
import { HistoryBuilder, argumentsText, isObject, textOf, toolDefinitionOf } from "./common.ts";

const KINDS = new Set(["SystemPromptEvent", "MessageEvent", "ActionEvent", "ObservationEvent"]);
/** Events that answer a call the way an observation does, as an error. */
const REFUSALS = new Set(["AgentErrorEvent", "UserRejectObservation"]);

/** A list of SDK events, at least one of them a message, action or observation. */
export function isOpenHandsSdkEvents(values: readonly unknown[]): boolean {
  return (
    values.every((value) => isObject(value) && typeof value.kind === "string") &&
    values.some((value) => isObject(value) && KINDS.has(String(value.kind)))
  );
}

function callOf(event: Json, where: () => string): ToolCall {
  const call = isObject(event.tool_call) ? event.tool_call : {};
  const id = call.id ?? event.tool_call_id;
  const name = call.name ?? event.tool_name;
  if (typeof id !== "string" || id === "") throw new Error(`${where()} has no tool call id`);
  if (typeof name !== "string" || name === "") throw new Error(`${where()} has no tool name`);
  return { id, name, arguments: argumentsText(call.arguments) };
}

/** An observation's text: its `output`, its `content` parts, or its `message`. */
function observationText(observation: Json, where: () => string): string {
  if (typeof observation.output === "string") return observation.output;
  if (observation.content !== undefined) return textOf(observation.content, where);
  if (typeof observation.message === "string") return observation.message;
  throw new Error(`${where()} has an observation with no output, content or message`);
}

function observationFailed(observation: Json): boolean {
  if (typeof observation.error === "string" && observation.error !== "") return true;
  if (observation.error === true || observation.is_error === true) return true;
  const metadata = isObject(observation.metadata) ? observation.metadata : {};
  const code = observation.exit_code ?? metadata.exit_code;
  return typeof code === "number" && code > 0;
}

export function fromOpenHandsSdkEvents(
  values: readonly unknown[],
  instruction?: unknown,
): { history: Message[]; tools?: ToolDefinition[] } {
  const events = values as Json[];
  const built = new HistoryBuilder();
  let tools: ToolDefinition[] | undefined;
  let task =
    typeof instruction === "string" &&
    !events.some((event) => event.kind === "MessageEvent" && event.source === "user")
      ? instruction
      : undefined;
  const responses = new Map<unknown, ToolCall[]>();
  for (const [index, event] of events.entries()) {
    if (event.kind !== "ActionEvent") continue;
    const response = event.llm_response_id ?? event.id;
    const calls = responses.get(response) ?? [];
    calls.push(callOf(event, () => `event ${index + 1} (ActionEvent)`));
    responses.set(response, calls);
  }
  for (const [index, event] of events.entries()) {
    const at = (): string => `event ${index + 1} (${String(event.kind)})`;
    if (event.kind === "SystemPromptEvent") {
      const prompt = event.system_prompt;
      built.system(textOf(isObject(prompt) ? [prompt] : prompt, at), at);
      if (Array.isArray(event.tools))
        tools = event.tools.map((tool, n) =>
          toolDefinitionOf(tool, () => `${at()}, tool ${n + 1}`),
        );
      continue;
    }
    if (!KINDS.has(String(event.kind)) && !REFUSALS.has(String(event.kind))) continue;
    if (task !== undefined) {
      built.user(task, () => "the record's instruction");
      task = undefined;
    }
    switch (event.kind) {
      case "MessageEvent": {
        const message = isObject(event.llm_message) ? event.llm_message : {};
        const content = textOf(message.content, at);
        if (event.source === "user") built.user(content, at);
        else built.assistant(content, [], at);
        break;
      }
      case "ActionEvent": {
        const response = event.llm_response_id ?? event.id;
        const calls = responses.get(response);
        if (!calls) break; // already sent with the response's first action
        responses.delete(response);
        built.assistant(textOf(event.thought, at), calls, at);
        break;
      }
      case "ObservationEvent": {
        const observation = isObject(event.observation) ? event.observation : {};
        const id = String(event.tool_call_id);
        const content = observationText(observation, at);
        if (built.waits(id)) built.result(id, content, observationFailed(observation), at);
        else built.user(content, at);
        break;
      }
      default: {
        // An agent error or a rejection: the answer to the call it names, marked as an error.
        const text = [event.error, event.rejection_reason].find(
          (value) => typeof value === "string",
        );
        const id = String(event.tool_call_id);
        if (built.waits(id)) built.result(id, String(text ?? ""), true, at);
        else built.user(String(text ?? ""), at);
      }
    }
  }
  return { history: built.messages, ...(tools ? { tools } : {}) };
}
