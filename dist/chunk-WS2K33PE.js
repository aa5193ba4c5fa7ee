import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);
import {
  PitcrewError
} from "./chunk-QPB5RBCF.js";
import "./chunk-RBSLSBJN.js";

// src/context/replay/formats/common.ts
function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function textOf(value, where2) {
  if (value === void 0 || value === null) return "";
  if (typeof value === "string") return value;
  if (Array.isArray(value)) {
    return value.map((part) => {
      if (isObject(part) && part.type === "text" && typeof part.text === "string")
        return part.text;
      const kind = isObject(part) && typeof part.type === "string" ? part.type : typeof part;
      throw new Error(`${where2()} has a content part of type '${kind}'; only text is replayed`);
    }).join("");
  }
  throw new Error(`${where2()} has content that is neither text nor a list of text parts`);
}
function argumentsText(value) {
  return typeof value === "string" ? value : JSON.stringify(value ?? {});
}
function toolCallOf(value, where2) {
  if (!isObject(value)) throw new Error(`${where2()} has a tool call that is not an object`);
  const fn = isObject(value.function) ? value.function : value;
  const name = fn.name;
  if (typeof value.id !== "string" || value.id === "")
    throw new Error(`${where2()} has a tool call without an id`);
  if (typeof name !== "string" || name === "")
    throw new Error(`${where2()} has a tool call without a function name`);
  return { id: value.id, name, arguments: argumentsText(fn.arguments) };
}
function toolDefinitionOf(value, where2) {
  const fn = isObject(value) && isObject(value.function) ? value.function : value;
  if (!isObject(fn) || typeof fn.name !== "string")
    throw new Error(`${where2()} is not a function tool with a name`);
  return {
    name: fn.name,
    description: typeof fn.description === "string" ? fn.description : "",
    parameters: isObject(fn.parameters) ? fn.parameters : {}
  };
}
var HistoryBuilder = class {
  messages = [];
  waiting = /* @__PURE__ */ new Map();
  /** The ids of the calls still waiting for a result. */
  get open() {
    return [...this.waiting.keys()];
  }
  system(content, where2) {
    this.push({ role: "system", content }, where2);
  }
  user(content, where2) {
    this.push({ role: "user", content }, where2);
  }
  assistant(content, toolCalls, where2) {
    this.push({ role: "assistant", content, toolCalls }, where2);
    for (const call of toolCalls) {
      if (this.waiting.has(call.id))
        throw new Error(`${where2()} makes tool call '${call.id}' twice`);
      this.waiting.set(call.id, call);
    }
  }
  /** Whether a result for `id` would be taken now. */
  waits(id) {
    return this.waiting.has(id);
  }
  result(id, content, isError, where2) {
    const call = this.waiting.get(id);
    if (!call) throw new Error(`${where2()} answers tool call '${id}', which is not waiting`);
    this.waiting.delete(id);
    this.messages.push({ role: "tool", toolCallId: id, name: call.name, content, isError });
  }
  push(message, where2) {
    if (this.waiting.size > 0) {
      throw new Error(
        `${where2()} comes before tool call(s) ${this.open.join(", ")} got their results`
      );
    }
    this.messages.push(message);
  }
};

// src/context/replay/formats/claude-code-jsonl.ts
function isMessageLine(value) {
  return isObject(value) && (value.type === "user" || value.type === "assistant") && isObject(value.message);
}
function isClaudeCodeJsonl(values) {
  return values.every(
    (value) => isObject(value) && typeof value.type === "string" && value.role === void 0
  ) && values.some(isMessageLine);
}
function blocksOf(message) {
  const content = message.content;
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? content : [];
}
function usageOf(message) {
  const usage = isObject(message.usage) ? message.usage : void 0;
  if (!usage || typeof usage.input_tokens !== "number") return void 0;
  const count = (key) => typeof usage[key] === "number" ? usage[key] : 0;
  return {
    prompt: usage.input_tokens + count("cache_creation_input_tokens") + count("cache_read_input_tokens"),
    cached: count("cache_read_input_tokens")
  };
}
function fromClaudeCodeJsonl(values, lineOf) {
  const main = values.some((value) => isObject(value) && value.isSidechain === false);
  const lines = values.flatMap(
    (value, index) => isMessageLine(value) && value.isVisibleInTranscriptOnly !== true && !(main && value.isSidechain === true) ? [{ value, at: () => `line ${lineOf[index] ?? index + 1}` }] : []
  );
  const responses = /* @__PURE__ */ new Map();
  for (const { value } of lines) {
    if (value.type !== "assistant") continue;
    const key = value.message.id ?? value.uuid;
    const response = responses.get(key) ?? { value: value.message, blocks: [] };
    response.blocks.push(...blocksOf(value.message));
    responses.set(key, response);
  }
  const built = new HistoryBuilder();
  let usage = { calls: 0, promptTokens: 0, cachedTokens: 0 };
  for (const { value, at } of lines) {
    if (value.type === "assistant") {
      const key = value.message.id ?? value.uuid;
      const response = responses.get(key);
      if (!response) continue;
      responses.delete(key);
      const text2 = [];
      const calls = [];
      for (const block of response.blocks) {
        if (!isObject(block)) throw new Error(`${at()} has a content block that is not an object`);
        if (block.type === "text") text2.push(textOf([block], at));
        else if (block.type === "tool_use") {
          if (typeof block.id !== "string" || typeof block.name !== "string")
            throw new Error(`${at()} has a tool_use block without an id or a name`);
          calls.push({ id: block.id, name: block.name, arguments: argumentsText(block.input) });
        }
      }
      built.assistant(text2.join("\n"), calls, at);
      if (response.value.model !== "<synthetic>" && usage) {
        const counted = usageOf(response.value);
        if (counted) {
          usage.calls++;
          usage.promptTokens += counted.prompt;
          usage.cachedTokens += counted.cached;
        } else usage = void 0;
      }
      continue;
    }
    const text = [];
    for (const block of blocksOf(value.message)) {
      if (isObject(block) && block.type === "tool_result") {
        if (typeof block.tool_use_id !== "string")
          throw new Error(`${at()} has a tool_result block without a tool_use_id`);
        built.result(block.tool_use_id, textOf(block.content, at), block.is_error === true, at);
      } else text.push(textOf([block], at));
    }
    if (text.length > 0) built.user(text.join("\n"), at);
  }
  return { history: built.messages, ...usage && usage.calls > 0 ? { reported: usage } : {} };
}

// src/context/replay/formats/openhands-events.ts
var BOOKKEEPING = /* @__PURE__ */ new Set([
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
  "impl_source"
]);
var SILENT = /* @__PURE__ */ new Set(["null", "agent_state_changed"]);
function isEvent(value) {
  return isObject(value) && typeof value.source === "string" && (typeof value.action === "string" || typeof value.observation === "string");
}
function isOpenHandsEvents(values) {
  return values.length > 0 && values.every(
    (value) => isEvent(value) || Array.isArray(value) && value.length === 2 && isEvent(value[0]) && isObject(value[1]) && typeof value[1].observation === "string"
  );
}
function where(index, event) {
  const id = typeof event.id === "number" || typeof event.id === "string" ? ` (id ${event.id})` : "";
  return () => `event ${index + 1}${id}`;
}
function failed(event) {
  if (event.observation === "error") return true;
  const extras = isObject(event.extras) ? event.extras : {};
  const metadata = isObject(extras.metadata) ? extras.metadata : {};
  const code = metadata.exit_code ?? extras.exit_code;
  return typeof code === "number" && code > 0;
}
function legacyCall(event, args) {
  const kept = Object.fromEntries(Object.entries(args).filter(([key]) => !BOOKKEEPING.has(key)));
  return {
    id: `call_${String(event.id)}`,
    name: String(event.action),
    arguments: JSON.stringify(kept)
  };
}
function fromOpenHandsEvents(values) {
  const events = values.flatMap(
    (value) => Array.isArray(value) ? value : [value]
  );
  const answered = new Set(
    events.filter((event) => typeof event.observation === "string" && !SILENT.has(event.observation)).map((event) => event.cause)
  );
  const built = new HistoryBuilder();
  let tools;
  let response;
  for (const [index, event] of events.entries()) {
    const at = where(index, event);
    const args = isObject(event.args) ? event.args : {};
    if (typeof event.action === "string") {
      if (event.action === "system") {
        built.system(textOf(args.content, at), at);
        if (Array.isArray(args.tools))
          tools = args.tools.map(
            (tool, n) => toolDefinitionOf(tool, () => `${at()}, tool ${n + 1}`)
          );
        continue;
      }
      if (event.source !== "agent") {
        if (event.action === "message") built.user(textOf(args.content ?? event.message, at), at);
        continue;
      }
      const metadata2 = isObject(event.tool_call_metadata) ? event.tool_call_metadata : void 0;
      const recorded = metadata2 && isObject(metadata2.model_response) ? metadata2.model_response : void 0;
      if (recorded) {
        if (recorded.id !== void 0 && recorded.id === response) continue;
        response = recorded.id;
        const choice = Array.isArray(recorded.choices) ? recorded.choices[0] : void 0;
        const message = isObject(choice) && isObject(choice.message) ? choice.message : {};
        const raw = message.tool_calls ?? [];
        if (!Array.isArray(raw)) throw new Error(`${at()} has tool_calls that is not a list`);
        built.assistant(
          textOf(message.content, at),
          raw.map((call) => toolCallOf(call, at)),
          at
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
    const id = typeof metadata.tool_call_id === "string" ? metadata.tool_call_id : `call_${String(event.cause)}`;
    if (built.waits(id)) built.result(id, content, failed(event), at);
    else built.user(content, at);
  }
  return { history: built.messages, ...tools ? { tools } : {} };
}

// src/context/replay/formats/openhands-sdk-events.ts
var KINDS = /* @__PURE__ */ new Set(["SystemPromptEvent", "MessageEvent", "ActionEvent", "ObservationEvent"]);
var REFUSALS = /* @__PURE__ */ new Set(["AgentErrorEvent", "UserRejectObservation"]);
function isOpenHandsSdkEvents(values) {
  return values.every((value) => isObject(value) && typeof value.kind === "string") && values.some((value) => isObject(value) && KINDS.has(String(value.kind)));
}
function callOf(event, where2) {
  const call = isObject(event.tool_call) ? event.tool_call : {};
  const id = call.id ?? event.tool_call_id;
  const name = call.name ?? event.tool_name;
  if (typeof id !== "string" || id === "") throw new Error(`${where2()} has no tool call id`);
  if (typeof name !== "string" || name === "") throw new Error(`${where2()} has no tool name`);
  return { id, name, arguments: argumentsText(call.arguments) };
}
function observationText(observation, where2) {
  if (typeof observation.output === "string") return observation.output;
  if (observation.content !== void 0) return textOf(observation.content, where2);
  if (typeof observation.message === "string") return observation.message;
  throw new Error(`${where2()} has an observation with no output, content or message`);
}
function observationFailed(observation) {
  if (typeof observation.error === "string" && observation.error !== "") return true;
  if (observation.error === true || observation.is_error === true) return true;
  const metadata = isObject(observation.metadata) ? observation.metadata : {};
  const code = observation.exit_code ?? metadata.exit_code;
  return typeof code === "number" && code > 0;
}
function fromOpenHandsSdkEvents(values, instruction) {
  const events = values;
  const built = new HistoryBuilder();
  let tools;
  let task = typeof instruction === "string" && !events.some((event) => event.kind === "MessageEvent" && event.source === "user") ? instruction : void 0;
  const responses = /* @__PURE__ */ new Map();
  for (const [index, event] of events.entries()) {
    if (event.kind !== "ActionEvent") continue;
    const response = event.llm_response_id ?? event.id;
    const calls = responses.get(response) ?? [];
    calls.push(callOf(event, () => `event ${index + 1} (ActionEvent)`));
    responses.set(response, calls);
  }
  for (const [index, event] of events.entries()) {
    const at = () => `event ${index + 1} (${String(event.kind)})`;
    if (event.kind === "SystemPromptEvent") {
      const prompt = event.system_prompt;
      built.system(textOf(isObject(prompt) ? [prompt] : prompt, at), at);
      if (Array.isArray(event.tools))
        tools = event.tools.map(
          (tool, n) => toolDefinitionOf(tool, () => `${at()}, tool ${n + 1}`)
        );
      continue;
    }
    if (!KINDS.has(String(event.kind)) && !REFUSALS.has(String(event.kind))) continue;
    if (task !== void 0) {
      built.user(task, () => "the record's instruction");
      task = void 0;
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
        if (!calls) break;
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
        const text = [event.error, event.rejection_reason].find(
          (value) => typeof value === "string"
        );
        const id = String(event.tool_call_id);
        if (built.waits(id)) built.result(id, String(text ?? ""), true, at);
        else built.user(String(text ?? ""), at);
      }
    }
  }
  return { history: built.messages, ...tools ? { tools } : {} };
}

// src/context/replay/formats/swe-agent-traj.ts
function isSweAgentTrajectory(value) {
  const history = value.history;
  return Array.isArray(history) && history.length > 0 && history.every((entry) => isObject(entry) && typeof entry.role === "string");
}
function fromSweAgentTrajectory(history) {
  const built = new HistoryBuilder();
  let textCall;
  let textCalls = 0;
  for (const [index, entry] of history.entries()) {
    const where2 = () => `history entry ${index + 1}`;
    if (!isObject(entry)) throw new Error(`${where2()} is not an object`);
    const content = textOf(entry.content, where2);
    const demo = entry.is_demo === true;
    switch (entry.role) {
      case "system":
        built.system(content, where2);
        break;
      case "user":
        if (textCall && !demo) built.result(textCall.id, content, false, where2);
        else built.user(content, where2);
        textCall = void 0;
        break;
      case "tool": {
        const ids = Array.isArray(entry.tool_call_ids) ? entry.tool_call_ids : [entry.tool_call_id];
        const [id] = ids;
        if (ids.length !== 1 || typeof id !== "string")
          throw new Error(`${where2()} is a tool result without exactly one tool_call_ids entry`);
        built.result(id, content, false, where2);
        break;
      }
      case "assistant": {
        const raw = entry.tool_calls ?? [];
        if (!Array.isArray(raw)) throw new Error(`${where2()} has tool_calls that is not a list`);
        const action = typeof entry.action === "string" ? entry.action.trim() : "";
        if (raw.length > 0) {
          built.assistant(
            content,
            raw.map((call) => toolCallOf(call, where2)),
            where2
          );
        } else if (action !== "" && !demo) {
          textCalls++;
          textCall = {
            id: `call_${textCalls}`,
            name: "bash",
            arguments: JSON.stringify({ command: action })
          };
          const thought = typeof entry.thought === "string" ? entry.thought : content;
          built.assistant(thought.trim(), [textCall], where2);
        } else {
          built.assistant(content, [], where2);
        }
        break;
      }
      default:
        throw new Error(`${where2()} has role ${JSON.stringify(entry.role)}`);
    }
  }
  return built.messages;
}

// src/context/replay/parse.ts
function bad(file, sentence) {
  return new PitcrewError("replay-bad-file", `${file}: ${sentence}`);
}
function fromOpenAIMessages(values) {
  const calls = /* @__PURE__ */ new Map();
  return values.map((value, index) => {
    const where2 = () => `message ${index + 1}`;
    if (!isObject(value)) throw new Error(`${where2()} is not an object`);
    const role = value.role;
    const content = () => textOf(value.content, where2);
    switch (role) {
      case "system":
      case "developer":
        return { role: "system", content: content() };
      case "user":
        return { role: "user", content: content() };
      case "assistant": {
        const raw = value.tool_calls ?? value.toolCalls ?? [];
        if (!Array.isArray(raw)) throw new Error(`${where2()} has tool_calls that is not a list`);
        const toolCalls = raw.map((call) => toolCallOf(call, where2));
        for (const call of toolCalls) calls.set(call.id, call);
        return { role: "assistant", content: content(), toolCalls };
      }
      case "tool": {
        const id = value.tool_call_id ?? value.toolCallId;
        if (typeof id !== "string")
          throw new Error(`${where2()} is a tool result without tool_call_id`);
        const call = calls.get(id);
        if (!call)
          throw new Error(`${where2()} answers tool call '${id}', which no earlier message made`);
        return {
          role: "tool",
          toolCallId: id,
          name: call.name,
          content: content(),
          isError: value.isError === true
        };
      }
      default:
        throw new Error(
          `${where2()} has role ${JSON.stringify(role)}; expected system, developer, user, assistant or tool`
        );
    }
  });
}
var BASH_BLOCK = /```(?:bash|mswea_bash_command)\s*\n([\s\S]*?)\n```/g;
var RETURN_CODE = /^<returncode>(-?\d+)<\/returncode>/;
var TIMED_OUT = /^The last command <command>[\s\S]*?<\/command> timed out/;
function fromMiniSweAgent(values) {
  const history = [];
  let pending;
  let calls = 0;
  for (const [index, value] of values.entries()) {
    const where2 = () => `message ${index + 1}`;
    if (!isObject(value)) throw new Error(`${where2()} is not an object`);
    const content = textOf(value.content, where2);
    if (value.role === "system") {
      history.push({ role: "system", content });
    } else if (value.role === "assistant") {
      if (pending) throw new Error(`${where2()} follows a bash call that got no observation`);
      const blocks = [...content.matchAll(BASH_BLOCK)];
      const block = blocks[0];
      if (blocks.length !== 1 || block === void 0) {
        history.push({ role: "assistant", content, toolCalls: [] });
        continue;
      }
      calls++;
      pending = {
        id: `call_${calls}`,
        name: "bash",
        arguments: JSON.stringify({ command: (block[1] ?? "").trim() })
      };
      const start = block.index;
      const text = `${content.slice(0, start).trimEnd()}

${content.slice(start + block[0].length).trim()}`;
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
        isError: code !== void 0 && code !== "0" || TIMED_OUT.test(content)
      });
      pending = void 0;
    } else {
      throw new Error(`${where2()} has role ${JSON.stringify(value.role)}`);
    }
  }
  return history;
}
function reportedUsage(values) {
  let calls = 0;
  let promptTokens = 0;
  let cachedTokens = 0;
  for (const value of values) {
    if (!isObject(value) || value.role !== "assistant") continue;
    const extra = isObject(value.extra) ? value.extra : {};
    const response = isObject(extra.response) ? extra.response : {};
    const usage = isObject(response.usage) ? response.usage : void 0;
    if (!usage || typeof usage.prompt_tokens !== "number") return void 0;
    const details = isObject(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
    calls++;
    promptTokens += usage.prompt_tokens;
    cachedTokens += typeof details.cached_tokens === "number" ? details.cached_tokens : 0;
  }
  return calls > 0 ? { calls, promptTokens, cachedTokens } : void 0;
}
function knownTools(history, known) {
  const used = new Set(
    history.flatMap(
      (message) => message.role === "assistant" ? message.toolCalls.map((call) => call.name) : []
    )
  );
  return known.filter((tool) => used.has(tool.name));
}
function fromOpenHands(events, known, instruction) {
  const sdk = isOpenHandsSdkEvents(events);
  if (!sdk && !isOpenHandsEvents(events)) return void 0;
  const { history, tools } = sdk ? fromOpenHandsSdkEvents(events, instruction) : fromOpenHandsEvents(events);
  return {
    format: sdk ? "openhands-sdk-events" : "openhands-events",
    history,
    tools: tools ?? knownTools(history, known)
  };
}
function fromJson(value, known) {
  if (Array.isArray(value)) {
    const events = fromOpenHands(value, known);
    if (events) return events;
    const history = fromOpenAIMessages(value);
    return { format: "openai-messages", history, tools: knownTools(history, known) };
  }
  if (!isObject(value)) throw new Error("the JSON is neither a list of messages nor an object");
  if (value.trajectory_format !== void 0) {
    const format = value.trajectory_format;
    if (format !== "mini-swe-agent-1" && format !== "mini-swe-agent-1.1") {
      throw new Error(
        `trajectory_format ${JSON.stringify(format)} is not supported (only mini-swe-agent-1 and mini-swe-agent-1.1)`
      );
    }
    if (!Array.isArray(value.messages)) throw new Error("the trajectory has no messages list");
    const sent = value.messages.filter((message) => !isObject(message) || message.role !== "exit");
    const toolCalling = sent.some(
      (message) => isObject(message) && (message.role === "tool" || Array.isArray(message.tool_calls) && message.tool_calls.length > 0)
    );
    const history = toolCalling ? fromOpenAIMessages(sent) : fromMiniSweAgent(sent);
    const reported = reportedUsage(value.messages);
    return {
      format,
      history,
      tools: knownTools(history, known),
      ...reported ? { reported } : {}
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
        "the `history` is neither SWE-agent's messages (each with a `role`) nor OpenHands events"
      );
  }
  if (Array.isArray(value.messages)) {
    const history = fromOpenAIMessages(value.messages);
    const tools = Array.isArray(value.tools) ? value.tools.map((tool, index) => toolDefinitionOf(tool, () => `tool ${index + 1}`)) : knownTools(history, known);
    return { format: "openai-messages", history, tools };
  }
  throw new Error(
    "the JSON object has neither `messages` (a chat request), `trajectory_format` (a trajectory) nor `history` (a SWE-agent or OpenHands run)"
  );
}
function parseSession(text, file, known) {
  let whole;
  let jsonError;
  try {
    whole = JSON.parse(text);
  } catch (error) {
    jsonError = error instanceof Error ? error.message : String(error);
  }
  try {
    if (jsonError === void 0) return { file, ...fromJson(whole, known) };
  } catch (error) {
    throw bad(file, error instanceof Error ? error.message : String(error));
  }
  const lines = text.split("\n");
  const values = [];
  const lineOf = [];
  for (const [index, line] of lines.entries()) {
    if (line.trim() === "") continue;
    try {
      values.push(JSON.parse(line));
      lineOf.push(index + 1);
    } catch {
      const what = values.length === 0 && lines.filter((l) => l.trim() !== "").length <= 1 ? `not JSON (${jsonError})` : `neither one JSON value (${jsonError}) nor JSONL: line ${index + 1} is not JSON`;
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
        ...reported ? { reported } : {}
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
      reason.replace(/^message (\d+)/, (_, n) => `line ${lineOf[Number(n) - 1]}`)
    );
  }
}
export {
  fromMiniSweAgent,
  fromOpenAIMessages,
  parseSession
};
