/**
 * Action inputs as the runner passes them: `INPUT_<NAME>` variables that `core.getInput` reads.
 * Sets them for one synchronous call and restores the environment afterwards.
 */

export interface WithInputs<T> {
  value: T;
  /** What the call wrote to stdout: workflow commands such as `::add-mask::`. */
  stdout: string;
}

/**
 * Runs `body` with exactly `inputs` set (other `INPUT_*` variables are hidden for the call) and
 * stdout captured, so the `::add-mask::` commands pitcrew issues are seen, not printed.
 */
export function withActionInputs<T>(inputs: Record<string, string>, body: () => T): WithInputs<T> {
  const saved = Object.entries(process.env).filter(([name]) => name.startsWith("INPUT_"));
  for (const [name] of saved) delete process.env[name];
  for (const [name, value] of Object.entries(inputs)) {
    process.env[`INPUT_${name.toUpperCase()}`] = value;
  }
  const write = process.stdout.write.bind(process.stdout);
  let stdout = "";
  process.stdout.write = (chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  };
  try {
    return { value: body(), stdout };
  } finally {
    process.stdout.write = write;
    for (const name of Object.keys(inputs)) delete process.env[`INPUT_${name.toUpperCase()}`];
    for (const [name, value] of saved) process.env[name] = value;
  }
}
