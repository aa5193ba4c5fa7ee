import { createRequire as __pitcrewCreateRequire } from 'node:module'; const require = __pitcrewCreateRequire(import.meta.url);

// src/errors.ts
var PitcrewError = class extends Error {
  code;
  /** The sentence for the command line, where its advice differs (an option, not an input). */
  cliMessage;
  constructor(code, message, options) {
    super(message, options);
    this.name = "PitcrewError";
    this.code = code;
    this.cliMessage = options?.cli;
  }
};
function describeError(error) {
  if (error instanceof PitcrewError) return `${error.code}: ${error.message}`;
  if (error instanceof Error) return error.message;
  return String(error);
}
function describeErrorForCli(error) {
  if (error instanceof PitcrewError) return `${error.code}: ${error.cliMessage ?? error.message}`;
  return describeError(error);
}

export {
  PitcrewError,
  describeError,
  describeErrorForCli
};
