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

export function explainPolicy(policy: Policy, prepared: Prepared): string {
  const list = (items: readonly string[]): string =>
    items.length === 0 ? "  (none)" : items.map((item) => `  ${item}`).join("\n");
  return [
    `backend: ${policy.backend}`,
    `workspace (writable): ${policy.workspace}`,
    "read-only inside the workspace:",
    list(policy.readOnly.map(({ path }) => path)),
    "pinned (cannot be renamed or replaced; contents stay writable):",
    list(policy.pinned.map(({ path }) => path)),
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
