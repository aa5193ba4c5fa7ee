/**
 * The seal on a thread's notes: an HMAC-SHA256 over the note, the state and the transcript, with a
 * key derived from a secret of the workflow (`notes-key`, else `api-key`). Runs triggered from a
 * fork never receive the workflow's secrets, so whatever they upload under a notes name carries no
 * valid seal. Pure: the artifact store writes and checks the seal file.
 */
import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import type { NotesText } from "./notes.ts";

/** The seal's file, beside note.md, state.json and transcript.jsonl. */
export const SEAL_FILE = "notes.mac";
/** `hmac-sha256:` and 64 hex digits, with room to spare; a bigger file is no seal. */
export const SEAL_CAP = 256;

const SCHEME = "hmac-sha256:";
const SEALED = /^hmac-sha256:([0-9a-f]{64})$/;
/** Binds the key and the MAC to this use: the same secret keys nothing else pitcrew signs. */
const KEY_INFO = "pitcrew notes seal v1";
const MAC_DOMAIN = "pitcrew-notes-seal-v1";

/** The seal's key: HKDF-SHA256 of the secret, so the secret itself never keys a MAC. */
export function sealKey(secret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "pitcrew", KEY_INFO, 32));
}

/**
 * Each part is named and length-prefixed, so no two different sets of files hash the same input
 * (moving text from the note into the transcript changes the seal).
 */
function mac(key: Buffer, text: NotesText): Buffer {
  const hmac = createHmac("sha256", key);
  hmac.update(`${MAC_DOMAIN}\0`);
  for (const [name, value] of [
    ["note", text.note],
    ["state", text.state],
    ["transcript", text.transcript],
  ] as const) {
    const bytes = Buffer.from(value, "utf8");
    const length = Buffer.alloc(8);
    length.writeBigUInt64BE(BigInt(bytes.length));
    hmac.update(`${name}\0`);
    hmac.update(length);
    hmac.update(bytes);
  }
  return hmac.digest();
}

/** The seal file's content for these files. */
export function seal(key: Buffer, text: NotesText): string {
  return `${SCHEME}${mac(key, text).toString("hex")}\n`;
}

/** Whether `sealed` (a seal file's content) is this key's seal of exactly these files. */
export function sealMatches(key: Buffer, text: NotesText, sealed: string): boolean {
  const hex = SEALED.exec(sealed.trim())?.[1];
  if (hex === undefined) return false;
  return timingSafeEqual(Buffer.from(hex, "hex"), mac(key, text));
}
