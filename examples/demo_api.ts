/**
 * A small in-memory HTTP API to run the example flows against: login with a
 * bearer token, items CRUD, jobs that need polling, and test helpers (echo,
 * arbitrary status codes, text, HTML, slow responses).
 *
 * Every piece of state lives in one server instance, so two instances share
 * nothing and a fresh instance always behaves the same. Job readiness is
 * counted in polls, never in time, so a run (or a benchmark) issues exactly
 * the same requests in the same order every time.
 *
 * Run it on its own with `deno run --allow-net examples/demo_api.ts --port 8080`.
 *
 * @module
 */

/**
 * Options of {@linkcode startDemoApi}.
 *
 * @example
 * ```ts
 * import { startDemoApi } from "./demo_api.ts";
 *
 * // Jobs become ready on their first poll.
 * const api = await startDemoApi({ jobReadyAfter: 1 });
 * try {
 *   const login = await fetch(`${api.url}/login`, {
 *     method: "POST",
 *     body: JSON.stringify({ username: "demo", password: "demo-password" }),
 *   });
 *   const headers = { authorization: `Bearer ${(await login.json()).token}` };
 *   const created = await fetch(`${api.url}/jobs`, { method: "POST", headers });
 *   const poll = await fetch(`${api.url}/jobs/${(await created.json()).id}`, { headers });
 *   if ((await poll.json()).state !== "ready") throw new Error("not ready on the first poll");
 * } finally {
 *   await api.close();
 * }
 * ```
 */
export interface DemoApiOptions {
  /** Port to listen on; `0` (the default) picks a free one. */
  port?: number;
  /** Address to listen on, `127.0.0.1` by default. */
  hostname?: string;
  /** Poll number from which a job is `ready` unless it sets `ready_after` itself (default 3). */
  jobReadyAfter?: number;
}

/**
 * A running demo API.
 *
 * @example
 * ```ts
 * import { startDemoApi } from "./demo_api.ts";
 *
 * const api = await startDemoApi();
 * try {
 *   // `url` has no trailing slash, so paths append directly.
 *   const response = await fetch(`${api.url}/text`);
 *   if ((await response.text()) !== "hello from the demo API") throw new Error();
 * } finally {
 *   await api.close();
 * }
 * ```
 */
export interface DemoApi {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:43123`. */
  url: string;
  /** The port actually listened on. */
  port: number;
  /** Stops the server, ending slow responses early; safe to call twice. */
  close(): Promise<void>;
}

/** The only account. */
const USER = { id: 1, username: "demo" } as const;
const PASSWORD = "demo-password";
const TOKEN_LIFETIME_S = 3600;
const MAX_SLOW_MS = 10_000;
/** Statuses a response may not carry a body with (the Response constructor throws otherwise). */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

interface Item {
  id: string;
  name: string;
  price: number;
  tags: string[];
  created_at: string;
}

interface Job {
  id: string;
  kind: string;
  readyAfter: number;
  polls: number;
}

/** Everything one server instance remembers. */
interface State {
  /** Token → expiry time in ms since the epoch. */
  tokens: Map<string, number>;
  items: Map<string, Item>;
  jobs: Map<string, Job>;
  jobReadyAfter: number;
  /** Aborted on close, so pending slow responses do not hold up the shutdown. */
  closing: AbortSignal;
}

interface Context {
  request: Request;
  url: URL;
  params: Record<string, string>;
  state: State;
}

type Handler = (ctx: Context) => Response | Promise<Response>;

interface Route {
  /** Segments; `:name` captures one segment, a final `*` matches any rest (also none). */
  pattern: string;
  /** Handlers by method; `*` accepts any method. */
  methods: Record<string, Handler>;
  /** Requires a bearer token issued by this instance. */
  auth?: boolean;
}

// ---- responses

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

function error(
  status: number,
  message: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Response {
  return json({ error: message, ...extra }, status, headers);
}

function noContent(): Response {
  return new Response(null, { status: 204 });
}

function randomHex(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(Math.ceil(length / 2)));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("").slice(0, length);
}

/** Reads the body as JSON; `undefined` when it is empty or not JSON. */
async function readJson(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// ---- handlers

const health: Handler = () => json({ status: "ok" });

const login: Handler = async ({ request, state }) => {
  const body = await readJson(request);
  if (!isObject(body) || typeof body.username !== "string" || typeof body.password !== "string") {
    return error(400, 'Expected a JSON body {"username": "…", "password": "…"}.');
  }
  if (body.username !== USER.username || body.password !== PASSWORD) {
    return error(401, "Wrong username or password.");
  }
  const token = randomHex(32);
  state.tokens.set(token, Date.now() + TOKEN_LIFETIME_S * 1000);
  return json({
    token,
    token_type: "Bearer",
    expires_in: TOKEN_LIFETIME_S,
    user: { ...USER },
  });
};

const me: Handler = () => json({ ...USER, roles: ["reader", "writer"], active: true });

const listItems: Handler = ({ state }) => {
  const items = [...state.items.values()];
  return json({ items, total: items.length });
};

/** The first problem of an item body, as `[field, message]`. */
function itemProblem(body: Record<string, unknown>): [string, string] | undefined {
  if (typeof body.name !== "string" || body.name.trim() === "") {
    return ["name", '"name" is required and must be a non-empty string.'];
  }
  if (typeof body.price !== "number" || !Number.isFinite(body.price) || body.price < 0) {
    return ["price", '"price" is required and must be a non-negative number.'];
  }
  if (
    body.tags !== undefined &&
    !(Array.isArray(body.tags) && body.tags.every((t) => typeof t === "string"))
  ) {
    return ["tags", '"tags" must be a list of strings.'];
  }
  return undefined;
}

const createItem: Handler = async ({ request, state }) => {
  const body = await readJson(request);
  if (!isObject(body)) {
    return error(400, 'Expected a JSON object body {"name": …, "price": …, "tags": […]}.');
  }
  const problem = itemProblem(body);
  if (problem) return error(422, problem[1], { field: problem[0] });
  const item: Item = {
    id: `itm_${randomHex(12)}`,
    name: body.name as string,
    price: body.price as number,
    tags: (body.tags as string[] | undefined) ?? [],
    created_at: new Date().toISOString(),
  };
  state.items.set(item.id, item);
  return json(item, 201, { location: `/items/${item.id}` });
};

const getItem: Handler = ({ params, state }) => {
  const item = state.items.get(params.id);
  return item ? json(item) : error(404, `No item with id "${params.id}".`);
};

const deleteItem: Handler = ({ params, state }) =>
  state.items.delete(params.id) ? noContent() : error(404, `No item with id "${params.id}".`);

const createJob: Handler = async ({ request, state }) => {
  // An empty body is fine: every field has a default.
  const text = await request.text();
  let body: unknown = {};
  if (text.trim() !== "") {
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
  }
  if (!isObject(body)) {
    return error(400, 'Expected a JSON object body {"kind": …, "ready_after": …} or no body.');
  }
  if (body.kind !== undefined && (typeof body.kind !== "string" || body.kind === "")) {
    return error(422, '"kind" must be a non-empty string.', { field: "kind" });
  }
  const readyAfter = body.ready_after ?? state.jobReadyAfter;
  if (!Number.isInteger(readyAfter) || (readyAfter as number) < 1) {
    return error(422, '"ready_after" must be an integer of at least 1.', { field: "ready_after" });
  }
  const job: Job = {
    id: `job_${randomHex(12)}`,
    kind: (body.kind as string | undefined) ?? "report",
    readyAfter: readyAfter as number,
    polls: 0,
  };
  state.jobs.set(job.id, job);
  return json({ id: job.id, state: "pending", kind: job.kind }, 202, {
    location: `/jobs/${job.id}`,
  });
};

function jobState(job: Job): "pending" | "running" | "ready" {
  if (job.polls >= job.readyAfter) return "ready";
  return job.polls <= 1 ? "pending" : "running";
}

const pollJob: Handler = ({ params, state }) => {
  const job = state.jobs.get(params.id);
  if (!job) return error(404, `No job with id "${params.id}".`);
  job.polls++;
  const current = jobState(job);
  return json({
    id: job.id,
    kind: job.kind,
    state: current,
    polls: job.polls,
    ...(current === "ready" ? { result: { rows: 42, url: `/jobs/${job.id}/result` } } : {}),
  });
};

const jobResult: Handler = ({ params, state }) => {
  const job = state.jobs.get(params.id);
  if (!job) return error(404, `No job with id "${params.id}".`);
  if (jobState(job) !== "ready") return error(409, `Job "${job.id}" is not ready yet.`);
  return json({ id: job.id, kind: job.kind, rows: 42 });
};

const deleteJob: Handler = ({ params, state }) =>
  state.jobs.delete(params.id) ? noContent() : error(404, `No job with id "${params.id}".`);

const echo: Handler = async ({ request, url }) => {
  const text = await request.text();
  const contentType = request.headers.get("content-type");
  let body: unknown = text === "" ? null : text;
  if (text !== "" && contentType?.toLowerCase().includes("json")) {
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON after all: echo the raw text so the caller sees what was sent.
    }
  }
  return json({
    method: request.method,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: Object.fromEntries(request.headers),
    body,
    content_type: contentType,
  });
};

const status: Handler = ({ params }) => {
  const code = /^\d{3}$/.test(params.code) ? Number(params.code) : NaN;
  if (!(code >= 200 && code <= 599)) {
    return error(400, `Status must be a number from 200 to 599, got "${params.code}".`);
  }
  return NULL_BODY_STATUSES.has(code)
    ? new Response(null, { status: code })
    : json({ status: code }, code);
};

const text: Handler = () =>
  new Response("hello from the demo API", {
    headers: { "content-type": "text/plain; charset=utf-8" },
  });

const html: Handler = () =>
  new Response(
    '<!doctype html>\n<html lang="en"><head><title>Demo API</title></head>' +
      "<body><h1>Demo API</h1><p>hello from the demo API</p></body></html>\n",
    { headers: { "content-type": "text/html; charset=utf-8" } },
  );

const slow: Handler = async ({ url, state }) => {
  const raw = url.searchParams.get("ms") ?? "0";
  if (!/^\d+$/.test(raw)) {
    return error(400, `"ms" must be a non-negative integer, got "${raw}".`);
  }
  const ms = Math.min(Number(raw), MAX_SLOW_MS);
  await sleep(ms, state.closing);
  return json({ waited: ms });
};

/** Resolves after `ms`, or as soon as `signal` aborts because the server closes. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done);
  });
}

// ---- routing

const ROUTES: Route[] = [
  { pattern: "/health", methods: { GET: health } },
  { pattern: "/login", methods: { POST: login } },
  { pattern: "/me", auth: true, methods: { GET: me } },
  { pattern: "/items", auth: true, methods: { GET: listItems, POST: createItem } },
  { pattern: "/items/:id", auth: true, methods: { GET: getItem, DELETE: deleteItem } },
  { pattern: "/jobs", auth: true, methods: { POST: createJob } },
  { pattern: "/jobs/:id", auth: true, methods: { GET: pollJob, DELETE: deleteJob } },
  { pattern: "/jobs/:id/result", auth: true, methods: { GET: jobResult } },
  { pattern: "/echo/*", methods: { "*": echo } },
  { pattern: "/status/:code", methods: { GET: status } },
  { pattern: "/text", methods: { GET: text } },
  { pattern: "/html", methods: { GET: html } },
  { pattern: "/slow", methods: { GET: slow } },
];

/** Matches a path against a route pattern, returning the captured segments. */
function match(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split("/");
  const have = path.split("/");
  const wildcard = want.at(-1) === "*";
  if (wildcard) want.pop();
  if (wildcard ? have.length < want.length : have.length !== want.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(":")) {
      if (have[i] === "") return undefined;
      try {
        params[want[i].slice(1)] = decodeURIComponent(have[i]);
      } catch {
        return undefined;
      }
    } else if (want[i] !== have[i]) return undefined;
  }
  return params;
}

/** HEAD is answered by the GET handler (the server drops the body), as HTTP expects. */
function allowed(route: Route): string[] {
  const methods = Object.keys(route.methods);
  return methods.includes("GET") ? [...methods, "HEAD"] : methods;
}

/** Whether the request carries a live bearer token issued by this instance. */
function authorized(request: Request, state: State): boolean {
  const header = request.headers.get("authorization") ?? "";
  const [scheme, token, ...rest] = header.trim().split(/\s+/);
  if (scheme?.toLowerCase() !== "bearer" || !token || rest.length > 0) return false;
  const expires = state.tokens.get(token);
  if (expires === undefined) return false;
  if (expires <= Date.now()) {
    state.tokens.delete(token);
    return false;
  }
  return true;
}

function dispatch(request: Request, state: State): Response | Promise<Response> {
  const url = new URL(request.url);
  for (const route of ROUTES) {
    const params = match(route.pattern, url.pathname);
    if (!params) continue;
    const method = request.method === "HEAD" && !route.methods.HEAD ? "GET" : request.method;
    const handler = route.methods[method] ?? route.methods["*"];
    if (!handler) {
      const allow = allowed(route).join(", ");
      return error(
        405,
        `Method ${request.method} is not allowed on ${url.pathname}; use ${allow}.`,
        {},
        { allow },
      );
    }
    if (route.auth && !authorized(request, state)) {
      return error(
        401,
        "Missing or invalid bearer token; log in with POST /login.",
        {},
        { "www-authenticate": "Bearer" },
      );
    }
    return handler({ request, url, params, state });
  }
  return error(404, `No route for ${request.method} ${url.pathname}.`);
}

/**
 * Starts a demo API server with its own empty state.
 *
 * @example
 * ```ts
 * import { startDemoApi } from "./demo_api.ts";
 *
 * const api = await startDemoApi();
 * try {
 *   const response = await fetch(`${api.url}/health`);
 *   const body = await response.json();
 *   if (response.status !== 200 || body.status !== "ok") throw new Error("unhealthy");
 * } finally {
 *   await api.close();
 * }
 * ```
 */
export function startDemoApi(options: DemoApiOptions = {}): Promise<DemoApi> {
  const { port = 0, hostname = "127.0.0.1", jobReadyAfter = 3 } = options;
  if (!Number.isInteger(jobReadyAfter) || jobReadyAfter < 1) {
    return Promise.reject(
      new RangeError(`jobReadyAfter must be an integer of at least 1, got ${jobReadyAfter}.`),
    );
  }
  const closing = new AbortController();
  const state: State = {
    tokens: new Map(),
    items: new Map(),
    jobs: new Map(),
    jobReadyAfter,
    closing: closing.signal,
  };
  let server: Deno.HttpServer<Deno.NetAddr>;
  try {
    server = Deno.serve({
      port,
      hostname,
      onListen() {},
      onError(err) {
        console.error("demo API: unhandled error:", err);
        return error(500, "Internal server error.");
      },
    }, (request) => dispatch(request, state));
  } catch (err) {
    return Promise.reject(err);
  }
  const actualPort = server.addr.port;
  const host = hostname.includes(":") ? `[${hostname}]` : hostname;
  let closed: Promise<void> | undefined;
  return Promise.resolve({
    url: `http://${host}:${actualPort}`,
    port: actualPort,
    close() {
      if (!closed) {
        closing.abort();
        closed = server.shutdown();
      }
      return closed;
    },
  });
}

/** Reads `--port N` or `--port=N` from the command line (default 8080). */
function parsePort(args: string[]): number {
  let raw = "8080";
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--port") raw = args[++i] ?? "";
    else if (args[i].startsWith("--port=")) raw = args[i].slice("--port=".length);
    else throw new Error(`Unknown argument "${args[i]}". Usage: demo_api.ts [--port N]`);
  }
  const port = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(port >= 0 && port <= 65535)) {
    throw new Error(`--port must be a number from 0 to 65535, got "${raw}".`);
  }
  return port;
}

if (import.meta.main) {
  let port: number;
  try {
    port = parsePort(Deno.args);
  } catch (err) {
    console.error((err as Error).message);
    Deno.exit(2);
  }
  const api = await startDemoApi({ port });
  console.log(`demo API listening on ${api.url}`);
  // Windows only delivers SIGINT (and SIGBREAK) to Deno.
  const signals: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM"];
  const stop = async () => {
    for (const signal of signals) Deno.removeSignalListener(signal, stop);
    await api.close();
  };
  for (const signal of signals) Deno.addSignalListener(signal, stop);
}
