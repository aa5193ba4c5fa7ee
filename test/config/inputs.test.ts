/** The action's inputs, read through `core.getInput` as the runner passes them: types, secrets, errors. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { PitcrewError } from "../../src/errors.ts";
import { readInputs } from "../../src/config/inputs.ts";
import { withActionInputs } from "../support/action-inputs.ts";

function invalid(input: string, raw: string, pattern: RegExp): (error: unknown) => boolean {
  return (error) => {
    assert.ok(error instanceof PitcrewError);
    assert.equal(error.code, "config-invalid");
    assert.ok(error.message.startsWith(`Input '${input}' `), `names the input: ${error.message}`);
    assert.ok(error.message.endsWith(`not '${raw}'.`), `quotes the value: ${error.message}`);
    assert.match(error.message, pattern);
    return true;
  };
}

describe("readInputs", () => {
  test("nothing set: every setting is undefined, so the file and the defaults decide", () => {
    const { value } = withActionInputs({}, () => readInputs());
    assert.ok(Object.keys(value).length > 10);
    for (const [key, setting] of Object.entries(value)) {
      assert.equal(setting, undefined, key);
    }
  });

  test("every input, typed, read from INPUT_* through core.getInput", () => {
    const { value } = withActionInputs(
      {
        "api-key": "sk-test-key",
        "base-url": "http://127.0.0.1:8080/v1",
        model: "gpt-5-mini",
        "github-token": "ghs_token",
        "notes-key": "a-notes-key-of-32-characters-000",
        "trigger-phrase": "/pitcrew",
        "max-turns": "12",
        "time-budget": "7.5",
        "cost-budget": "0",
        "token-budget": "200000",
        "context-window": "64000",
        sandbox: "none",
        "command-timeout": "90",
        "disk-reserve": "256",
        "allowed-bots": "dependabot[bot], renovate[bot]\nmy-app[bot]\n",
        "branch-prefix": "bots/pitcrew-",
        draft: "true",
        "allow-workflow-changes": "FALSE",
        "retention-days": "14",
        "notes-store": "ref",
      },
      () => readInputs(),
    );
    assert.deepEqual(value, {
      apiKey: "sk-test-key",
      baseUrl: "http://127.0.0.1:8080/v1",
      model: "gpt-5-mini",
      githubToken: "ghs_token",
      notesKey: "a-notes-key-of-32-characters-000",
      triggerPhrase: "/pitcrew",
      maxTurns: 12,
      timeBudgetMinutes: 7.5,
      costBudget: 0,
      tokenBudget: 200000,
      contextWindow: 64000,
      sandbox: "none",
      commandTimeoutSeconds: 90,
      diskReserveMiB: 256,
      allowedBots: ["dependabot[bot]", "renovate[bot]", "my-app[bot]"],
      branchPrefix: "bots/pitcrew-",
      draft: true,
      allowWorkflowChanges: false,
      retentionDays: 14,
      notesStore: "ref",
    });
  });

  test("values are trimmed; blank is not set", () => {
    const { value } = withActionInputs({ model: "  gpt-4.1-mini \n", "max-turns": "   " }, () =>
      readInputs(),
    );
    assert.equal(value.model, "gpt-4.1-mini");
    assert.equal(value.maxTurns, undefined);
  });

  test("the API key and the GitHub token are masked as soon as they are read", () => {
    const { stdout } = withActionInputs(
      { "api-key": "sk-secret-123", "github-token": "ghs_secret_456", model: "gpt-4.1" },
      () => readInputs(),
    );
    const masked = stdout.split(/\r?\n/).filter((line) => line.startsWith("::add-mask::"));
    assert.deepEqual(masked, ["::add-mask::sk-secret-123", "::add-mask::ghs_secret_456"]);
  });

  test("the key is masked even when a later input is bad and the read fails", () => {
    const { stdout } = withActionInputs({ "api-key": "sk-secret-789", "max-turns": "many" }, () =>
      assert.throws(() => readInputs(), PitcrewError),
    );
    assert.match(stdout, /^::add-mask::sk-secret-789$/m);
  });

  test("a notes-key under 16 characters is config-notes-key-short, masked, never quoted", () => {
    const short = "fifteen-chars-x";
    const { stdout } = withActionInputs({ "api-key": "sk-secret-789", "notes-key": short }, () =>
      assert.throws(
        () => readInputs(),
        (error: unknown) =>
          error instanceof PitcrewError &&
          error.code === "config-notes-key-short" &&
          /is 15 characters long; .* at least 16/.test(error.message) &&
          !error.message.includes(short),
      ),
    );
    assert.match(stdout, new RegExp(`^::add-mask::${short}$`, "m"));
    const sixteen = withActionInputs({ "notes-key": `${short}y` }, () => readInputs());
    assert.equal(sixteen.value.notesKey, `${short}y`);
  });

  const bad: [input: string, raw: string, says: RegExp][] = [
    ["max-turns", "abc", /takes a whole number above 0/],
    ["max-turns", "0", /takes a whole number above 0/],
    ["max-turns", "2.5", /takes a whole number above 0/],
    ["max-turns", "0x10", /takes a whole number above 0/],
    ["max-turns", "-3", /takes a whole number above 0/],
    ["time-budget", "0", /takes a number above 0/],
    ["time-budget", "1e3", /takes a number above 0/],
    ["cost-budget", "-1", /takes a number, 0 or more \(0: no budget\)/],
    ["cost-budget", "$5", /takes a number, 0 or more/],
    ["token-budget", "1.5", /takes a whole number, 0 or more/],
    ["context-window", "lots", /takes a whole number above 0/],
    ["command-timeout", "0", /takes a number above 0/],
    ["disk-reserve", "1.5", /takes a whole number of MiB, 0 or more \(0: no reserve\)/],
    ["disk-reserve", "1G", /takes a whole number of MiB/],
    ["sandbox", "docker", /must be one of auto, bwrap, seatbelt, none/],
    ["base-url", "api.example.com/v1", /http\(s\) URL/],
    ["base-url", "ftp://example.com", /http\(s\) URL/],
    ["trigger-phrase", "/agent please", /one word without spaces/],
    ["allowed-bots", "dependabot[bot], *[bot]", /'\*\[bot\]' is a wildcard/],
    ["allowed-bots", "*", /wildcards are not allowed/],
    ["allowed-bots", "dependabot[bot] renovate[bot]", /has a space in it/],
    ["branch-prefix", "pitcrew..x/", /start of a git branch name.*no '\.\.'/],
    ["branch-prefix", "-pitcrew/", /may not start with '-'/],
    ["branch-prefix", "pitcrew.lock/", /no part between slashes may end with '\.lock'/],
    ["draft", "yes", /takes true or false/],
    ["allow-workflow-changes", "1", /takes true or false/],
    ["notes-store", "git", /takes artifact or ref/],
  ];
  for (const [input, raw, says] of bad) {
    test(`${input}: '${raw}' is refused, naming the input`, () => {
      withActionInputs({ [input]: raw }, () =>
        assert.throws(() => readInputs(), invalid(input, raw, says)),
      );
    });
  }

  test("a getInput passed in is used instead of the environment", () => {
    const asked: string[] = [];
    const value = readInputs((name) => {
      asked.push(name);
      return name === "max-turns" ? "9" : "";
    });
    assert.equal(value.maxTurns, 9);
    assert.ok(asked.includes("max-turns") && asked.includes("allowed-bots"));
  });
});
