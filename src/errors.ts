/**
 * Named failures. Every error pitcrew raises on purpose carries a stable code and a sentence a
 * person can act on; stack traces are for bugs, not for expected trouble.
 */
export class PitcrewError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PitcrewError";
    this.code = code;
  }
}

/** The one-line form shown to people: `code: sentence`. */
export function describeError(error: unknown): string {
  if (error instanceof PitcrewError) return `${error.code}: ${error.message}`;
  if (error instanceof Error) return error.message;
  return String(error);
}
