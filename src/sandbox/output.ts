/**
 * Collects a child's output stream under a byte ceiling: the first half of the ceiling is kept
 * from the start, the second half as a rolling tail, and everything between is counted and
 * dropped. A command that floods gigabytes costs the harness at most `ceiling` bytes per stream.
 */

export interface CapturedOutput {
  /** The kept text; when truncated, head and tail joined by a line naming what was dropped. */
  text: string;
  /** Bytes the command wrote in total. */
  bytes: number;
  truncated: boolean;
}

export class OutputCapture {
  readonly #headLimit: number;
  readonly #tailLimit: number;
  readonly #head: Buffer[] = [];
  #headBytes = 0;
  #tail: Buffer[] = [];
  #tailBytes = 0;
  #total = 0;

  constructor(ceiling: number) {
    this.#headLimit = Math.ceil(ceiling / 2);
    this.#tailLimit = Math.floor(ceiling / 2);
  }

  push(chunk: Buffer): void {
    this.#total += chunk.length;
    let rest = chunk;
    if (this.#headBytes < this.#headLimit) {
      const take = Math.min(rest.length, this.#headLimit - this.#headBytes);
      this.#head.push(rest.subarray(0, take));
      this.#headBytes += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0 || this.#tailLimit === 0) return;
    this.#tail.push(rest);
    this.#tailBytes += rest.length;
    while (this.#tailBytes - (this.#tail[0]?.length ?? 0) >= this.#tailLimit) {
      this.#tailBytes -= this.#tail.shift()?.length ?? 0;
    }
  }

  result(): CapturedOutput {
    const head = Buffer.concat(this.#head);
    let tail = Buffer.concat(this.#tail);
    if (tail.length > this.#tailLimit) tail = tail.subarray(tail.length - this.#tailLimit);
    const kept = head.length + tail.length;
    if (kept === this.#total) {
      return {
        text: Buffer.concat([head, tail]).toString("utf8"),
        bytes: this.#total,
        truncated: false,
      };
    }
    const dropped = this.#total - kept;
    const marker = `\n[… ${dropped} bytes of output dropped by the sandbox's output ceiling …]\n`;
    return {
      text: head.toString("utf8") + marker + tail.toString("utf8"),
      bytes: this.#total,
      truncated: true,
    };
  }
}
