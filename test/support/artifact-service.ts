/**
 * A fake of what the real `@actions/artifact` client talks to inside a job: the results service's
 * Twirp JSON API, the Azure block-blob upload it hands out and the blob download. The fake GitHub
 * (github-server.ts) serves it on its own port and reads the same artifacts for its REST routes,
 * so an artifact uploaded in one simulated run is listed and downloaded by the next.
 */
import { createHash, randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { crc32, deflateRawSync, inflateRawSync } from "node:zlib";

// ---------------------------------------------------------------------------------------------
// State

export interface FakeArtifact {
  /** GitHub's artifact id (the Twirp `database_id`). */
  id: number;
  name: string;
  /** The workflow run it belongs to: REST `workflow_run.id`. */
  runId: number;
  runBackendId: string;
  jobBackendId: string;
  /** The committed blob: the artifact's zip. */
  content: Buffer;
  /** `sha256:…` as finalized; null until then. */
  digest: string | null;
  finalized: boolean;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
}

/** What tests see and steer. */
export interface FakeArtifacts {
  /** What ACTIONS_RESULTS_URL would be (only its origin is used by the client). */
  resultsUrl: string;
  /** An ACTIONS_RUNTIME_TOKEN for a job of workflow run `runId`: an unsigned JWT whose `scp`
   * names the run's and the job's backend ids, which the fake maps back to `runId`. */
  runtimeToken(runId: number, jobId?: string): string;
  /** What the runner gives a job of run `runId` for the artifact client: GITHUB_SERVER_URL (github.com,
   * or the client refuses), ACTIONS_RESULTS_URL and ACTIONS_RUNTIME_TOKEN. GITHUB_API_URL is the
   * fake GitHub's `url`. */
  runnerEnv(runId: number, jobId?: string): Record<string, string>;
  /** Every artifact not deleted, finalized or not, oldest first. */
  artifacts(): FakeArtifact[];
  /** Moves the artifact's expiry into the past, as its retention running out would. */
  expire(id: number): void;
  /** Replaces the artifact's zip with bytes that are no zip (the digest stays the old one). */
  corrupt(id: number): void;
  /** Adds a finalized artifact of `runId` directly, its zip holding `files` (deflated when
   * `deflate`, as upload-artifact does; stored by default), made at `createdAt` (default now). */
  putArtifact(artifact: {
    name: string;
    runId: number;
    files: Record<string, string | Buffer>;
    deflate?: boolean;
    createdAt?: string;
  }): FakeArtifact;
}

/** What the fake GitHub needs besides: dispatch, and REST's view of the same state. */
export interface ArtifactService extends FakeArtifacts {
  /** Whether a request path is the service's (Twirp or blob) rather than GitHub's REST. */
  serves(path: string): boolean;
  /** Answers one request; resolves with the status and the parsed Twirp body (if any). */
  serve(req: IncomingMessage, res: ServerResponse): Promise<{ status: number; body?: unknown }>;
  /** Finalized artifacts (what GitHub lists), oldest first. */
  finalized(): FakeArtifact[];
  find(id: number): FakeArtifact | undefined;
  isExpired(artifact: FakeArtifact): boolean;
  /** Whether a job of run `runId` was seen (given a runner environment or an artifact). */
  knowsRun(runId: number): boolean;
  remove(id: number): void;
}

const TWIRP = "/twirp/github.actions.results.api.v1.ArtifactService/";
/** With an IP host the blob SDK reads the first path segment as the account: three at least. */
const BLOBS = "/artifact-blobs/";
const DEFAULT_RETENTION_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Twirp's error codes and the HTTP status each travels with. */
const TWIRP_STATUS = {
  invalid_argument: 400,
  malformed: 400,
  unauthenticated: 401,
  permission_denied: 403,
  not_found: 404,
  bad_route: 404,
  already_exists: 409,
  failed_precondition: 412,
} as const;
type TwirpCode = keyof typeof TWIRP_STATUS;

class TwirpError extends Error {
  readonly code: TwirpCode;

  constructor(code: TwirpCode, message: string) {
    super(message);
    this.code = code;
  }
}

function timestamp(at = Date.now()): string {
  return new Date(at).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** A UUID-shaped id derived from `seed`, so a run's backend id is the same each time it is asked. */
function backendId(seed: string): string {
  const hex = createHash("sha256").update(seed).digest("hex");
  return [
    hex.slice(0, 8),
    hex.slice(8, 12),
    hex.slice(12, 16),
    hex.slice(16, 20),
    hex.slice(20, 32),
  ].join("-");
}

function sha256(content: Buffer): string {
  return `sha256:${createHash("sha256").update(content).digest("hex")}`;
}

/** A zip of `files`, stored without compression unless `deflate` (as the real client uploads;
 * unzipping reads both). */
export function zipFiles(files: Record<string, string | Buffer>, deflate = false): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, value] of Object.entries(files)) {
    const data = typeof value === "string" ? Buffer.from(value) : value;
    const packed = deflate ? deflateRawSync(data) : data;
    const method = deflate ? 8 : 0;
    const fileName = Buffer.from(name);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, packed);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/**
 * The files of an artifact's zip, as the real client uploads it (deflated or stored), read from
 * the central directory: what a person who downloads the artifact gets.
 */
export function unzipFiles(zip: Buffer): Record<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end === -1) throw new Error("no zip: the end of central directory is missing");
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const files: Record<string, Buffer> = {};
  for (let i = 0; i < count; i++) {
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString("utf8");
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(dataAt, dataAt + compressed);
    files[name] = method === 8 ? inflateRawSync(data) : Buffer.from(data);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return files;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

// ---------------------------------------------------------------------------------------------
// The service

/** `origin` is the server's `http://127.0.0.1:port`, known once it listens. */
export function createArtifactService(origin: () => string): ArtifactService {
  const artifacts = new Map<number, FakeArtifact>();
  /** Blocks staged for an artifact's blob, by block id, until the block list commits them. */
  const staged = new Map<number, Map<string, Buffer>>();
  /** Per artifact: the `sig` of its upload URL and of its download URL. */
  const signatures = new Map<number, { write: string; read: string }>();
  /** Issued runtime tokens → the run they are for. */
  const tokens = new Map<string, { runBackendId: string; jobBackendId: string }>();
  const runs = new Map<string, number>();
  let nextId = 4_000_000_001;

  function idsOf(runId: number, jobId: string): { runBackendId: string; jobBackendId: string } {
    const runBackendId = backendId(`run:${runId}`);
    runs.set(runBackendId, runId);
    return { runBackendId, jobBackendId: backendId(`run:${runId}:job:${jobId}`) };
  }

  function live(): FakeArtifact[] {
    return [...artifacts.values()].sort((a, b) => a.id - b.id);
  }

  function add(
    fields: Omit<
      FakeArtifact,
      "id" | "createdAt" | "updatedAt" | "content" | "digest" | "finalized"
    >,
  ): FakeArtifact {
    const now = timestamp();
    const artifact: FakeArtifact = {
      ...fields,
      id: nextId++,
      content: Buffer.alloc(0),
      digest: null,
      finalized: false,
      createdAt: now,
      updatedAt: now,
    };
    artifacts.set(artifact.id, artifact);
    signatures.set(artifact.id, {
      write: randomBytes(12).toString("base64url"),
      read: randomBytes(12).toString("base64url"),
    });
    return artifact;
  }

  function blobUrl(artifact: FakeArtifact, permission: "cw" | "r"): string {
    const signature = signatures.get(artifact.id);
    const sig = permission === "r" ? signature?.read : signature?.write;
    const path = `${BLOBS}actions-results/${artifact.runBackendId}/${artifact.id}.zip`;
    const expiry = timestamp(Date.now() + 60 * 60 * 1000);
    return `${origin()}${path}?sv=2023-11-03&sr=b&sp=${permission}&se=${expiry}&sig=${sig}`;
  }

  // -- Twirp ----------------------------------------------------------------------------------

  function field(body: Record<string, unknown>, name: string): string {
    const value = body[name];
    if (typeof value !== "string" || value === "") {
      throw new TwirpError("invalid_argument", `${name} is required`);
    }
    return value;
  }

  /** The run the request's token is for; the request must name that run. */
  function authorize(req: IncomingMessage, body: Record<string, unknown>): string {
    const token = /^bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1] ?? "";
    const scope = tokens.get(token);
    if (scope === undefined) throw new TwirpError("unauthenticated", "invalid runtime token");
    if (field(body, "workflow_run_backend_id") !== scope.runBackendId) {
      throw new TwirpError("permission_denied", "the token is not for this workflow run");
    }
    return scope.runBackendId;
  }

  function named(runBackendId: string, name: string): FakeArtifact | undefined {
    return live().find((a) => a.runBackendId === runBackendId && a.name === name);
  }

  function monolith(artifact: FakeArtifact): Record<string, unknown> {
    return {
      workflow_run_backend_id: artifact.runBackendId,
      workflow_job_run_backend_id: artifact.jobBackendId,
      database_id: String(artifact.id),
      name: artifact.name,
      size: String(artifact.content.length),
      created_at: artifact.createdAt,
      ...(artifact.digest === null ? {} : { digest: artifact.digest }),
    };
  }

  const methods: Record<
    string,
    (req: IncomingMessage, body: Record<string, unknown>) => Record<string, unknown>
  > = {
    CreateArtifact(req, body) {
      const runBackendId = authorize(req, body);
      const name = field(body, "name");
      if (named(runBackendId, name) !== undefined) {
        throw new TwirpError(
          "already_exists",
          "an artifact with this name already exists on the workflow run",
        );
      }
      const expiresAt =
        typeof body.expires_at === "string"
          ? timestamp(Date.parse(body.expires_at))
          : timestamp(Date.now() + DEFAULT_RETENTION_DAYS * DAY_MS);
      const artifact = add({
        name,
        runId: runs.get(runBackendId) ?? 0,
        runBackendId,
        jobBackendId: field(body, "workflow_job_run_backend_id"),
        expiresAt,
      });
      return { ok: true, signed_upload_url: blobUrl(artifact, "cw") };
    },
    FinalizeArtifact(req, body) {
      const artifact = named(authorize(req, body), field(body, "name"));
      if (artifact === undefined) throw new TwirpError("not_found", "artifact not found");
      if (artifact.finalized) {
        throw new TwirpError("failed_precondition", "artifact is already finalized");
      }
      // protobuf's JSON leaves out a field at its default, here a size of 0.
      const size = typeof body.size === "string" ? body.size : "0";
      if (size !== String(artifact.content.length)) {
        throw new TwirpError(
          "invalid_argument",
          `size ${size} does not match the uploaded ${artifact.content.length} bytes`,
        );
      }
      const digest = sha256(artifact.content);
      if (body.hash !== undefined && body.hash !== digest) {
        throw new TwirpError(
          "invalid_argument",
          `hash ${JSON.stringify(body.hash)} does not match the uploaded ${digest}`,
        );
      }
      artifact.finalized = true;
      artifact.digest = digest;
      artifact.updatedAt = timestamp();
      return { ok: true, artifact_id: String(artifact.id) };
    },
    ListArtifacts(req, body) {
      const runBackendId = authorize(req, body);
      const name = body.name_filter;
      const id = body.id_filter;
      const found = live().filter(
        (a) =>
          a.finalized &&
          a.runBackendId === runBackendId &&
          (name === undefined || a.name === name) &&
          (id === undefined || String(a.id) === id),
      );
      return { artifacts: found.map(monolith) };
    },
    GetSignedArtifactURL(req, body) {
      const artifact = named(authorize(req, body), field(body, "name"));
      if (artifact === undefined || !artifact.finalized) {
        throw new TwirpError("not_found", "artifact not found");
      }
      return { signed_url: blobUrl(artifact, "r") };
    },
    DeleteArtifact(req, body) {
      const artifact = named(authorize(req, body), field(body, "name"));
      if (artifact === undefined) throw new TwirpError("not_found", "artifact not found");
      remove(artifact.id);
      return { ok: true, artifact_id: String(artifact.id) };
    },
  };

  function twirpAnswer(
    res: ServerResponse,
    status: number,
    body: Record<string, unknown>,
  ): { status: number } {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
    return { status };
  }

  async function serveTwirp(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
  ): Promise<{ status: number; body?: unknown }> {
    const text = (await readBody(req)).toString("utf8");
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return twirpAnswer(res, 400, { code: "malformed", msg: "the body is not JSON" });
    }
    const handler = methods[method];
    if (req.method !== "POST" || handler === undefined) {
      return { ...twirpAnswer(res, 404, { code: "bad_route", msg: `no method ${method}` }), body };
    }
    try {
      const fields = typeof body === "object" && body !== null ? body : {};
      return { ...twirpAnswer(res, 200, handler(req, fields as Record<string, unknown>)), body };
    } catch (error) {
      if (!(error instanceof TwirpError)) throw error;
      const answer = { code: error.code, msg: error.message };
      return { ...twirpAnswer(res, TWIRP_STATUS[error.code], answer), body };
    }
  }

  // -- Blobs ----------------------------------------------------------------------------------

  function azureError(res: ServerResponse, status: number, code: string, message: string): number {
    res.writeHead(status, { "content-type": "application/xml", "x-ms-error-code": code });
    res.end(
      `<?xml version="1.0" encoding="utf-8"?><Error><Code>${code}</Code>` +
        `<Message>${message}</Message></Error>`,
    );
    return status;
  }

  function azureCreated(res: ServerResponse, extra: Record<string, string> = {}): number {
    res.writeHead(201, {
      "x-ms-request-id": randomBytes(8).toString("hex"),
      "x-ms-version": "2023-11-03",
      "x-ms-request-server-encrypted": "true",
      date: new Date().toUTCString(),
      ...extra,
    });
    res.end();
    return 201;
  }

  /** The block ids of a Put Block List body, in order. */
  function blockList(xml: string): string[] {
    return [...xml.matchAll(/<(Latest|Uncommitted|Committed)>([^<]*)<\/\1>/g)].map(
      (match) => match[2] ?? "",
    );
  }

  async function serveBlob(req: IncomingMessage, res: ServerResponse): Promise<number> {
    const url = new URL(req.url ?? "/", origin());
    const id = Number(/\/(\d+)\.zip$/.exec(url.pathname)?.[1]);
    const artifact = artifacts.get(id);
    const signature = signatures.get(id);
    const body = await readBody(req);
    if (artifact === undefined || signature === undefined) {
      return azureError(res, 404, "BlobNotFound", "The specified blob does not exist.");
    }
    const sig = url.searchParams.get("sig");
    const comp = url.searchParams.get("comp");

    if (req.method === "GET" && sig === signature.read) {
      res.writeHead(200, {
        "content-type": "application/zip",
        "content-length": String(artifact.content.length),
        "content-disposition": `attachment; filename="${artifact.name}.zip"`,
      });
      res.end(artifact.content);
      return 200;
    }
    if (req.method !== "PUT" || sig !== signature.write) {
      return azureError(res, 403, "AuthenticationFailed", "Signature did not match.");
    }
    if (artifact.finalized) {
      return azureError(res, 409, "BlobImmutable", "The artifact is already finalized.");
    }
    if (comp === "block") {
      // The block id is base64: `+` in it is a plus, so no form decoding.
      const raw = /[?&]blockid=([^&]*)/.exec(url.search)?.[1] ?? "";
      const blocks = staged.get(id) ?? new Map<string, Buffer>();
      blocks.set(decodeURIComponent(raw), body);
      staged.set(id, blocks);
      return azureCreated(res);
    }
    if (comp === "blocklist") {
      const blocks = staged.get(id) ?? new Map<string, Buffer>();
      const ids = blockList(body.toString("utf8"));
      const parts = ids.map((blockId) => blocks.get(blockId));
      if (parts.some((part) => part === undefined)) {
        return azureError(res, 400, "InvalidBlockList", "The specified block list is invalid.");
      }
      artifact.content = Buffer.concat(parts as Buffer[]);
      staged.delete(id);
      return azureCreated(res, {
        etag: `"0x${randomBytes(8).toString("hex").toUpperCase()}"`,
        "last-modified": new Date().toUTCString(),
      });
    }
    return azureError(
      res,
      400,
      "UnsupportedQueryParameter",
      "Only staged block uploads are served.",
    );
  }

  // -- The service's faces ----------------------------------------------------------------------

  function remove(id: number): void {
    artifacts.delete(id);
    staged.delete(id);
    signatures.delete(id);
  }

  function known(id: number): FakeArtifact {
    const artifact = artifacts.get(id);
    if (artifact === undefined) throw new Error(`no artifact ${id}`);
    return artifact;
  }

  function runtimeToken(runId: number, jobId = "build"): string {
    const ids = idsOf(runId, jobId);
    const encode = (part: unknown): string =>
      Buffer.from(JSON.stringify(part)).toString("base64url");
    const token = [
      encode({ typ: "JWT", alg: "RS256" }),
      encode({
        scp: `Actions.ExampleScope Actions.Results:${ids.runBackendId}:${ids.jobBackendId}`,
        iat: Math.floor(Date.now() / 1000),
      }),
      randomBytes(16).toString("base64url"),
    ].join(".");
    tokens.set(token, ids);
    return token;
  }

  return {
    get resultsUrl() {
      return `${origin()}/`;
    },
    runtimeToken,
    runnerEnv(runId, jobId) {
      return {
        GITHUB_SERVER_URL: "https://github.com",
        ACTIONS_RESULTS_URL: `${origin()}/`,
        ACTIONS_RUNTIME_TOKEN: runtimeToken(runId, jobId),
      };
    },
    artifacts: live,
    expire(id) {
      known(id).expiresAt = timestamp(Date.now() - 1000);
    },
    corrupt(id) {
      known(id).content = Buffer.from("this is no zip: the blob was damaged\n".repeat(8));
    },
    putArtifact({ name, runId, files, deflate, createdAt }) {
      const ids = idsOf(runId, "build");
      const artifact = add({
        name,
        runId,
        ...ids,
        expiresAt: timestamp(Date.now() + DEFAULT_RETENTION_DAYS * DAY_MS),
      });
      if (createdAt !== undefined) artifact.createdAt = artifact.updatedAt = createdAt;
      artifact.content = zipFiles(files, deflate);
      artifact.digest = sha256(artifact.content);
      artifact.finalized = true;
      return artifact;
    },
    serves: (path) => path.startsWith(TWIRP) || path.startsWith(BLOBS),
    async serve(req, res) {
      const path = new URL(req.url ?? "/", origin()).pathname;
      if (path.startsWith(TWIRP)) return serveTwirp(req, res, path.slice(TWIRP.length));
      return { status: await serveBlob(req, res) };
    },
    finalized: () => live().filter((artifact) => artifact.finalized),
    find: (id) => artifacts.get(id),
    isExpired: (artifact) => Date.parse(artifact.expiresAt) <= Date.now(),
    knowsRun: (runId) => [...runs.values()].includes(runId),
    remove,
  };
}
