/**
 * Named failures. Every error pitcrew raises on purpose carries a stable code and a sentence a
 * person can act on; stack traces are for bugs, not for expected trouble.
 */
export class PitcrewError extends Error {
  readonly code: string;
  /** The sentence for the command line, where its advice differs (an option, not an input). */
  readonly cliMessage: string | undefined;

  constructor(code: string, message: string, options?: { cause?: unknown; cli?: string }) {
    super(message, options);
    this.name = "PitcrewError";
    this.code = code;
    this.cliMessage = options?.cli;
  }
}

/** The one-line form shown to people: `code: sentence`. */
export function describeError(error: unknown): string {
  if (error instanceof PitcrewError) return `${error.code}: ${error.message}`;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** The same at the command line: the CLI's sentence where the error has one. */
export function describeErrorForCli(error: unknown): string {
  if (error instanceof PitcrewError) return `${error.code}: ${error.cliMessage ?? error.message}`;
  return describeError(error);
}
