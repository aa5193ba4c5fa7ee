/**
 * The named model errors' sentences where the advice depends on who reads it: the action's
 * reader sets a secret or an input in the workflow, the CLI's an environment variable or an
 * option. Each entry gives both; the error carries both (errors.ts) and each entry shows its own.
 */

/** One error's sentence for the workflow's reader and for the command line's. */
export interface Sentences {
  action: string;
  cli: string;
}

export const MODEL_WORDS = {
  invalidKey: (where: string): Sentences => {
    const what = `The model server at ${where} rejected the API key (HTTP 401)`;
    return {
      action: `${what}; set the OPENAI_API_KEY secret (the \`api-key\` input) to a valid key for this server.`,
      cli: `${what}; set OPENAI_API_KEY to a valid key for this server, or point --base-url (or OPENAI_BASE_URL) at the server the key is for.`,
    };
  },
  notFound: (model: string, where: string, said: string): Sentences => {
    const what = `The model "${model}" was not found at ${where} (${said})`;
    return {
      action: `${what}; check the model and base-url inputs, and that the key has access to that model.`,
      cli: `${what}; check --model (or PITCREW_MODEL) and --base-url (or OPENAI_BASE_URL), and that the key has access to that model.`,
    };
  },
  /** Retries ran out: the server never answered, or kept failing. */
  noAnswer: (where: string, what: string): Sentences => {
    const said = `The model server at ${where} did not answer: ${what}`;
    return {
      action: `${said}; nothing was lost; try again once it answers.`,
      cli: `${said}; check that --base-url (or OPENAI_BASE_URL) points at a running OpenAI-compatible server, then try again.`,
    };
  },
  /** A 200 without choices: usually a web page or a gateway's error, not the API. */
  noReply: (where: string, detail: string): Sentences => {
    const what = `The model server at ${where} answered without a reply${detail}`;
    return {
      action: `${what}; check that the base-url input points at an OpenAI-compatible /v1 endpoint.`,
      cli: `${what}; check that --base-url (or OPENAI_BASE_URL) points at an OpenAI-compatible /v1 endpoint.`,
    };
  },
};
