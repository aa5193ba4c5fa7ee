/**
 * `pitcrew sandbox --explain`: the resolved policy and the exact command line a request becomes,
 * in words a person can check. Pure.
 */
import type { Policy } from "./policy.ts";
import type { Prepared } from "./sandbox.ts";

function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

function spillLine({ spill }: Policy): string {
  if (spill === null) return "(none)";
  return spill.target === spill.source ? spill.target : `${spill.target} (from ${spill.source})`;
}

/**
 * A protected path as a line: a folder the sandbox made because the checkout has none (a
 * repository without workflows) says so, so no line names a path that is not really there.
 */
function shown(policy: Policy, path: string, made: string): string {
  return policy.createdDirs.includes(path) ? `${path} (${made})` : path;
}

const CREATED_READ_ONLY =
  "not in the checkout: created empty and protected for the session, so nothing can be added there; removed at the end";
const CREATED_WRITABLE =
  "not in the checkout: created empty for the session; removed at the end if still empty";

export function explainPolicy(policy: Policy, prepared: Prepared): string {
  const list = (items: readonly string[]): string =>
    items.length === 0 ? "  (none)" : items.map((item) => `  ${item}`).join("\n");
  const paths = (items: readonly { path: string }[], made: string): string[] =>
    items.map(({ path }) => shown(policy, path, made));
  return [
    `backend: ${policy.backend}`,
    `workspace (writable): ${policy.workspace}`,
    "read-only inside the workspace:",
    list(paths(policy.readOnly, CREATED_READ_ONLY)),
    "writable again inside a read-only folder (pitcrew's own):",
    list(paths(policy.writable, CREATED_WRITABLE)),
    "pinned (cannot be renamed or replaced; writable inside unless read-only above):",
    list(paths(policy.pinned, "created for the session, as above")),
    "git config replaced by a sanitised copy:",
    list(policy.overlays.map(({ target }) => target)),
    `home (hidden, private tmpfs): ${policy.home}`,
    "bound back read-only from home:",
    list(policy.homeReadOnly),
    "hidden (empty, read-only):",
    list(policy.hidden),
    `long outputs (read-only): ${spillLine(policy)}`,
    "network: none",
    `environment: ${Object.keys(policy.env).sort().join(" ")}`,
    `timeout: ${policy.timeoutMs} ms per command`,
    `limits: ${policy.processCeiling} processes for this uid, files up to ${policy.limits.fileSizeBytes} bytes, address space ${policy.limits.addressSpaceBytes || "unlimited"}, output kept ${policy.limits.outputBytes} bytes per stream`,
    "",
    "command line:",
    prepared.argv.map(quote).join(" "),
    "",
  ].join("\n");
}
