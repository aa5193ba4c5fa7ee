/**
 * Turns one tool call, as the model sent it, into an outcome: finds the tool, parses and checks
 * the arguments, runs it, and converts every failure — unknown tool, broken JSON, a missing or
 * mistyped argument, an error thrown while running — into an error result that names the problem
 * and what to do. Never throws.
 */
import { describeError } from "../errors.ts";
import type { ToolCall } from "../domain/messages.ts";
import type { AnyTool, ToolContext } from "./tools/tool.ts";
import type { ToolOutcome } from "../domain/tools.ts";
import { failure } from "./tools/tool.ts";

function parseArguments(
  raw: string,
): { ok: true; value: unknown } | { ok: false; message: string } {
  if (raw.trim() === "") return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

export async function runToolCall(
  call: ToolCall,
  tools: readonly AnyTool[],
  context: ToolContext,
): Promise<ToolOutcome> {
  const tool = tools.find((candidate) => candidate.name === call.name);
  if (tool === undefined) {
    const names = tools.map(({ name }) => name).join(", ");
    return failure(`There is no tool named "${call.name}". The tools are: ${names}.`);
  }
  const parsed = parseArguments(call.arguments);
  if (!parsed.ok) {
    return failure(
      `The arguments for ${call.name} are not valid JSON (${parsed.message}). Send them again as one JSON object.`,
    );
  }
  const checked = tool.schema.safeParse(parsed.value);
  if (!checked.success) {
    const problems = checked.error.issues
      .map(
        (issue) =>
          `${issue.path.length > 0 ? issue.path.join(".") : "arguments"}: ${issue.message}`,
      )
      .join("; ");
    return failure(
      `The arguments for ${call.name} do not fit its parameters: ${problems}. Call it again with corrected arguments.`,
    );
  }
  try {
    return await tool.run(checked.data, { ...context, callId: call.id });
  } catch (error) {
    return failure(`${call.name} failed: ${describeError(error)}`);
  }
}
