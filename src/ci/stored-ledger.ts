/**
 * A ledger kept in a notes state's `ledgers` record (a CI repair's failures, a triage's flakes),
 * read back with its owner's schema. The notes store keeps each ledger as it found it
 * (store/notes.ts: `z.unknown()`, the shape is the owner's), so this is where it is checked:
 * refused as the store refuses, `notes-invalid` with the bad field's path in state.json.
 */
import type { z } from "zod";
import { PitcrewError } from "../errors.ts";

/** The ledger `name` in `ledgers`, `empty` when there is none yet; a malformed one throws. */
export function storedLedger<T>(
  ledgers: Record<string, unknown>,
  name: string,
  schema: z.ZodType<T>,
  empty: T,
): T {
  const stored = ledgers[name];
  if (stored === undefined) return empty;
  const checked = schema.safeParse(stored);
  if (checked.success) return checked.data;
  const issue = checked.error.issues[0];
  const unknownKey = issue?.code === "unrecognized_keys" ? issue.keys[0] : undefined;
  const path = ["ledgers", name, ...(issue?.path ?? []).map(String)];
  if (unknownKey !== undefined) path.push(unknownKey);
  // A record key's own message (`expected a failure key`) is under zod's "Invalid key in record".
  const message = issue?.code === "invalid_key" ? issue.issues[0]?.message : issue?.message;
  const what = unknownKey === undefined ? (message ?? "invalid") : "not a known field";
  throw new PitcrewError("notes-invalid", `state.json: ${path.join(".")}: ${what}`);
}
