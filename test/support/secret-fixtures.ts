/**
 * Realistic fake secrets for the scan's tests: shaped like the values a job holds (an installation
 * token, a project API key, a runtime JWT), random-looking, and made at run time from a fixed seed
 * so the same values come back every run and no token-shaped literal sits in this repository.
 */
const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const URL_SAFE = `${ALPHANUMERIC}-_`;

/** mulberry32: a small seeded generator, good enough to look random. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function draw(next: () => number, alphabet: string, length: number): string {
  return Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join("");
}

/** [GitHub installation token, OpenAI project key, Actions runtime token (a JWT)]. */
export function fakeSecrets(seed = 20240610): [string, string, string] {
  const next = generator(seed);
  const token = `ghs_${draw(next, ALPHANUMERIC, 36)}`;
  const apiKey = `sk-proj-${draw(next, URL_SAFE, 48)}T3BlbkFJ${draw(next, URL_SAFE, 48)}`;
  const header = Buffer.from('{"typ":"JWT","alg":"RS256"}').toString("base64url");
  const claims = Buffer.from(
    JSON.stringify({ nbf: 1718000000, scp: "Actions.Results", ac: draw(next, ALPHANUMERIC, 64) }),
  ).toString("base64url");
  const jwt = `${header}.${claims}.${draw(next, URL_SAFE, 342)}`;
  return [token, apiKey, jwt];
}
