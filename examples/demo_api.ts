/**
 * A small in-memory HTTP API to run the example flows against: login with a
 * bearer token, items CRUD, jobs that need polling, a tiny GraphQL-shaped
 * `/graphql` over the items, a browser-style sign-in (`/web/login`: an HTML
 * form with a CSRF token, a session cookie, a redirect to `/web/account`),
 * and test helpers (echo, arbitrary status codes, text, HTML, slow responses).
 *
 * Every piece of state lives in one server instance, so two instances share
 * nothing and a fresh instance always behaves the same. Job readiness is
 * counted in polls, never in time, so a run (or a benchmark) issues exactly
 * the same requests in the same order every time.
 *
 * The API is also its own small tracing backend, so trace-aware flows can run
 * without Jaeger or Tempo:
 *
 * - Every request with a valid W3C `traceparent` header records a server span
 *   named `${METHOD} ${route}` (e.g. `GET /jobs/:id`), plus child spans for
 *   some routes (`auth.verify_password`, `db.insert items`, `db.select jobs`,
 *   …), and the response carries `traceparent: 00-<trace id>-<server span
 *   id>-<flags>` so a client can chain. Without the header nothing is recorded.
 * - `GET /jaeger/api/traces/{traceId}` answers like the Jaeger query service,
 *   `GET /tempo/api/traces/{traceId}` like Grafana Tempo (`{"batches": …}`) and
 *   `GET /tempo/api/v2/traces/{traceId}` like Tempo's v2 API
 *   (`{"trace": {"resourceSpans": …}}`). Prefix a real backend's base URL with
 *   these and the same flow runs against it.
 * - Traces arrive late, as through a real collector, but counted in queries
 *   rather than time: a trace is found from the `traceArrivalQueries`-th query
 *   of its id onward (default 2), so a flow has to poll with `loop`.
 * - Only the last `traceSpanLimit` spans are kept (default 10,000).
 *
 * Run it on its own with `deno run --allow-net examples/demo_api.ts --port 8080`.
 *
 * An OAuth2 token endpoint (`/oauth2/token`: client credentials, password,
 * refresh token and device code grants, expiring tokens; the device code's
 * `/oauth2/device_authorization` approves the device by itself after a
 * poll) with `/oauth2/me` behind it,
 * and `/basic/me` and `/api-key/me` for the simple kinds: see
 * `demo_oauth2.ts` for the client, user and key.
 *
 * Routes behind HTTP Digest (`/digest/md5`, `/digest/sha-256`,
 * `/digest/any`) and AWS SigV4 (`/aws/*`) check their credentials as a real
 * server does: see `demo_signed_auth.ts` for the users and keys.
 *
 * @module
 */
import { digestRoute, sigv4Route } from "./demo_signed_auth.ts";
import {
  apiKeyMe,
  basicMe,
  oauth2DeviceAuthorization,
  oauth2DevicePage,
  oauth2Me,
  oauth2Token,
} from "./demo_oauth2.ts";

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
  /**
   * Query number from which a trace is found (default 2): the first
   * `traceArrivalQueries - 1` queries of a trace id answer 404, like a backend
   * the spans have not reached yet. `1` makes traces visible at once.
   */
  traceArrivalQueries?: number;
  /** How many spans are kept; the oldest are dropped beyond it (default 10,000). */
  traceSpanLimit?: number;
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
  /** Web sessions (the `session` cookie of `/web/*`) that signed in. */
  sessions: Set<string>;
  items: Map<string, Item>;
  jobs: Map<string, Job>;
  jobReadyAfter: number;
  traces: TraceStore;
  /** Aborted on close, so pending slow responses do not hold up the shutdown. */
  closing: AbortSignal;
}

interface Context {
  request: Request;
  url: URL;
  params: Record<string, string>;
  state: State;
  /** The request's server span while it is handled; `undefined` when it carries no trace. */
  span?: ServerSpan;
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

const login: Handler = async (ctx) => {
  const { request, state } = ctx;
  const body = await readJson(request);
  if (!isObject(body) || typeof body.username !== "string" || typeof body.password !== "string") {
    return error(400, 'Expected a JSON body {"username": "…", "password": "…"}.');
  }
  const verified = inSpan(
    ctx,
    "auth.verify_password",
    {},
    () => body.username === USER.username && body.password === PASSWORD,
  );
  if (!verified) return error(401, "Wrong username or password.");
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

/** Attributes of a child span standing for a storage operation (OpenTelemetry `db.*`). */
function dbSpan(operation: string, collection: string): Record<string, string> {
  return { "db.operation.name": operation, "db.collection.name": collection };
}

const listItems: Handler = (ctx) => {
  const items = inSpan(ctx, "db.select items", dbSpan("select", "items"), () => [
    ...ctx.state.items.values(),
  ]);
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

const createItem: Handler = async (ctx) => {
  const { request, state } = ctx;
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
  inSpan(ctx, "db.insert items", dbSpan("insert", "items"), () => state.items.set(item.id, item));
  return json(item, 201, { location: `/items/${item.id}` });
};

const getItem: Handler = (ctx) => {
  const { params, state } = ctx;
  const item = inSpan(
    ctx,
    "db.select items",
    dbSpan("select", "items"),
    () => state.items.get(params.id),
  );
  return item ? json(item) : error(404, `No item with id "${params.id}".`);
};

const deleteItem: Handler = (ctx) => {
  const { params, state } = ctx;
  const deleted = inSpan(
    ctx,
    "db.delete items",
    dbSpan("delete", "items"),
    () => state.items.delete(params.id),
  );
  return deleted ? noContent() : error(404, `No item with id "${params.id}".`);
};

const createJob: Handler = async (ctx) => {
  const { request, state } = ctx;
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
  inSpan(ctx, "db.insert jobs", dbSpan("insert", "jobs"), () => state.jobs.set(job.id, job));
  return json({ id: job.id, state: "pending", kind: job.kind }, 202, {
    location: `/jobs/${job.id}`,
  });
};

function jobState(job: Job): "pending" | "running" | "ready" {
  if (job.polls >= job.readyAfter) return "ready";
  return job.polls <= 1 ? "pending" : "running";
}

const pollJob: Handler = (ctx) => {
  const { params, state } = ctx;
  const job = inSpan(
    ctx,
    "db.select jobs",
    dbSpan("select", "jobs"),
    () => state.jobs.get(params.id),
  );
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

const deleteJob: Handler = (ctx) => {
  const { params, state } = ctx;
  const deleted = inSpan(
    ctx,
    "db.delete jobs",
    dbSpan("delete", "jobs"),
    () => state.jobs.delete(params.id),
  );
  return deleted ? noContent() : error(404, `No job with id "${params.id}".`);
};

/**
 * A tiny GraphQL-shaped endpoint for the examples: `item(id: …)` and
 * `items` with their fields as stored; anything else answers 200 with an
 * `errors` list, as GraphQL servers do.
 */
const graphql: Handler = async ({ request, state }) => {
  const body = await readJson(request);
  if (!isObject(body) || typeof body.query !== "string") {
    return error(400, 'Expected a JSON body {"query": "…", "variables": {…}}.');
  }
  const variables = isObject(body.variables) ? body.variables : {};
  if (/\bitem\s*\(/.test(body.query)) {
    const item = state.items.get(String(variables.id));
    return item
      ? json({ data: { item } })
      : json({ data: { item: null }, errors: [{ message: `No item with id "${variables.id}".` }] });
  }
  if (/\bitems\b/.test(body.query)) return json({ data: { items: [...state.items.values()] } });
  const field = /\{\s*(\w+)/.exec(body.query)?.[1] ?? "?";
  return json({
    data: null,
    errors: [{ message: `Cannot query field "${field}" on type "Query".` }],
  });
};

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

// ---- a browser-style sign-in: an HTML form, a CSRF token in a cookie and a hidden field

function page(body: string, status = 200, headers: HeadersInit = {}): Response {
  const all = new Headers(headers);
  all.set("content-type", "text/html; charset=utf-8");
  return new Response(
    `<!doctype html>\n<html lang="en"><head><title>Demo web</title></head><body>${body}</body></html>\n`,
    { status, headers: all },
  );
}

function cookieOf(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return value.join("=");
  }
  return undefined;
}

/** The sign-in form: a fresh CSRF token, in a cookie and in the form (double submit). */
const webLoginForm: Handler = () => {
  const csrf = randomHex(16);
  return page(
    `<form method="post" action="/web/login">` +
      `<input type="hidden" name="csrf" value="${csrf}">` +
      `<input name="username"><input name="password" type="password">` +
      `<button>Sign in</button></form>`,
    200,
    { "set-cookie": `csrf=${csrf}; Path=/web; HttpOnly; SameSite=Strict` },
  );
};

/** Signs in when the form's token matches the cookie's, then redirects to the account page. */
const webLogin: Handler = async ({ request, state }) => {
  const form = new URLSearchParams(await request.text());
  const csrf = cookieOf(request, "csrf");
  if (!csrf || form.get("csrf") !== csrf) {
    return page(`<p class="error">The CSRF token is missing or wrong.</p>`, 403);
  }
  if (form.get("username") !== USER.username || form.get("password") !== PASSWORD) {
    return page(`<p class="error">Wrong username or password.</p>`, 401);
  }
  const session = randomHex(16);
  state.sessions.add(session);
  const headers = new Headers({ location: "/web/account" });
  headers.append("set-cookie", `session=${session}; Path=/web; HttpOnly; SameSite=Lax`);
  headers.append("set-cookie", "csrf=; Path=/web; Max-Age=0");
  return new Response(null, { status: 303, headers });
};

/** The page behind the sign-in. */
const webAccount: Handler = ({ request, state }) => {
  const session = cookieOf(request, "session");
  if (!session || !state.sessions.has(session)) {
    return page(`<p class="error">Sign in first.</p>`, 401);
  }
  return page(`<h1>Account</h1><p id="user">${USER.username}</p>`);
};

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

// ---- tracing

const SERVICE_NAME = "demo-api";

/** Attribute values: what both OTLP (`stringValue`/`intValue`/`boolValue`) and Jaeger tags can hold. */
type AttributeValue = string | number | boolean;

/** One finished span, in the units both query formats are derived from. */
interface Span {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: "server" | "internal";
  /** Microseconds since the epoch; nanoseconds are derived for OTLP. */
  startUs: number;
  endUs: number;
  /** The trace flags of the incoming `traceparent`, e.g. `1` for sampled. */
  flags: number;
  /** In insertion order, so both formats list attributes the same way. */
  attributes: [string, AttributeValue][];
  error: boolean;
}

/** The server span of a request being handled, with the child spans recorded so far. */
interface ServerSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  flags: number;
  startUs: number;
  /** The matched route pattern, set by the router; unset when no route matched. */
  route?: string;
  children: Span[];
}

/**
 * The spans one instance keeps: a FIFO queue bounded by `limit` (the oldest
 * span goes first) indexed by trace id, plus how often each trace id was
 * queried, which is what decides whether a trace has "arrived".
 */
interface TraceStore {
  limit: number;
  arrivalQueries: number;
  /** Spans in recording order; entries before `head` are already evicted. */
  queue: Span[];
  head: number;
  byTrace: Map<string, Span[]>;
  /** Trace id → queries so far; bounded like the spans so random ids cannot grow it. */
  queries: Map<string, number>;
}

function newTraceStore(limit: number, arrivalQueries: number): TraceStore {
  return { limit, arrivalQueries, queue: [], head: 0, byTrace: new Map(), queries: new Map() };
}

function storeSpan(store: TraceStore, span: Span): void {
  store.queue.push(span);
  const spans = store.byTrace.get(span.traceId);
  if (spans) spans.push(span);
  else store.byTrace.set(span.traceId, [span]);
  while (store.queue.length - store.head > store.limit) {
    // The globally oldest span is also the oldest of its trace, so it is first in that list.
    const oldest = store.queue[store.head++];
    const list = store.byTrace.get(oldest.traceId)!;
    list.shift();
    if (list.length === 0) store.byTrace.delete(oldest.traceId);
  }
  // Compact now and then rather than shifting the queue on every eviction (O(1) amortized).
  if (store.head > 1024 && store.head * 2 > store.queue.length) {
    store.queue = store.queue.slice(store.head);
    store.head = 0;
  }
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/**
 * Parses a W3C `traceparent` (version 00 only). Anything invalid, including
 * all-zero ids or several headers (which `Headers.get` joins with commas),
 * counts as absent, as the Trace Context spec asks of a receiver.
 */
function parseTraceparent(
  header: string | null,
): { traceId: string; parentSpanId: string; flags: number } | undefined {
  const found = header === null ? null : TRACEPARENT.exec(header);
  if (!found || /^0+$/.test(found[1]) || /^0+$/.test(found[2])) return undefined;
  return { traceId: found[1], parentSpanId: found[2], flags: parseInt(found[3], 16) };
}

/** Wall-clock microseconds with sub-millisecond resolution (Date.now() has only ms). */
function nowUs(): number {
  return Math.round((performance.timeOrigin + performance.now()) * 1000);
}

/** A fresh span id; never all zeros, which W3C reserves for "invalid". */
function newSpanId(): string {
  let id: string;
  do id = randomHex(16); while (/^0+$/.test(id));
  return id;
}

/**
 * Runs `fn` as a child span of the request's server span (named like the
 * operation it stands for), or just runs it when the request is not traced.
 */
function inSpan<T>(
  ctx: Context,
  name: string,
  attributes: Record<string, AttributeValue>,
  fn: () => T,
): T {
  const parent = ctx.span;
  if (!parent) return fn();
  const startUs = nowUs();
  const result = fn();
  parent.children.push({
    traceId: parent.traceId,
    spanId: newSpanId(),
    parentSpanId: parent.spanId,
    name,
    kind: "internal",
    startUs,
    endUs: nowUs(),
    flags: parent.flags,
    attributes: [...Object.entries(attributes), ["service.name", SERVICE_NAME]],
    error: false,
  });
  return result;
}

/**
 * Handles a request that carries a valid `traceparent`: records its server
 * span (and any child spans), and echoes the server span in the response's
 * `traceparent` so a client can parent its next span on it.
 */
async function traced(
  request: Request,
  state: State,
  parent: { traceId: string; parentSpanId: string; flags: number },
): Promise<Response> {
  const url = new URL(request.url);
  const span: ServerSpan = { ...parent, spanId: newSpanId(), startUs: nowUs(), children: [] };
  let response: Response | undefined;
  try {
    response = await dispatch(request, url, state, span);
  } finally {
    // A handler that throws still leaves a span, with the 500 the server then sends.
    const status = response?.status ?? 500;
    const attributes: [string, AttributeValue][] = [
      ["http.request.method", request.method],
      ...(span.route === undefined ? [] : [["http.route", span.route] as [string, string]]),
      ["url.path", url.pathname],
      ["http.response.status_code", status],
      ["service.name", SERVICE_NAME],
    ];
    // OpenTelemetry marks a server span as failed only for 5xx: a 4xx is the client's error.
    if (status >= 500) attributes.push(["error.type", String(status)]);
    storeSpan(state.traces, {
      traceId: span.traceId,
      spanId: span.spanId,
      parentSpanId: span.parentSpanId,
      // Without a matched route the name is just the method, as OpenTelemetry
      // asks, so unknown paths cannot create unboundedly many span names.
      name: span.route === undefined ? request.method : `${request.method} ${span.route}`,
      kind: "server",
      startUs: span.startUs,
      endUs: nowUs(),
      flags: span.flags,
      attributes,
      error: status >= 500,
    });
    for (const child of span.children) storeSpan(state.traces, child);
  }
  const flags = span.flags.toString(16).padStart(2, "0");
  response.headers.set("traceparent", `00-${span.traceId}-${span.spanId}-${flags}`);
  return response;
}

/**
 * Looks a trace up for a query API. Counts the query first, because a trace
 * "arrives" with the `arrivalQueries`-th query of its id: counting queries,
 * not time, keeps runs deterministic while still forcing flows to poll.
 * Returns `undefined` for an id that is not hex, the spans (oldest first)
 * otherwise, empty when the trace is unknown or has not arrived yet.
 */
function queryTrace(store: TraceStore, rawId: string): Span[] | undefined {
  // Like Jaeger and Tempo: up to 32 hex digits in either case, short ids zero-padded.
  if (!/^[0-9a-fA-F]{1,32}$/.test(rawId)) return undefined;
  const traceId = rawId.toLowerCase().padStart(32, "0");
  const queries = (store.queries.get(traceId) ?? 0) + 1;
  // Delete and set again so the map stays in last-queried order, and evict from its front.
  store.queries.delete(traceId);
  store.queries.set(traceId, queries);
  if (store.queries.size > store.limit) {
    store.queries.delete(store.queries.keys().next().value!);
  }
  if (queries < store.arrivalQueries) return [];
  return [...(store.byTrace.get(traceId) ?? [])];
}

/** The Jaeger query service's JSON for one trace (`model/json` of jaeger-query). */
function jaegerTraceJson(spans: Span[]): unknown {
  return {
    traceID: spans[0].traceId,
    spans: spans.map((span) => ({
      traceID: span.traceId,
      spanID: span.spanId,
      flags: span.flags,
      operationName: span.name,
      references: [{ refType: "CHILD_OF", traceID: span.traceId, spanID: span.parentSpanId }],
      startTime: span.startUs,
      duration: span.endUs - span.startUs,
      tags: [
        ...span.attributes.map(([key, value]) => jaegerTag(key, value)),
        // Jaeger turns the OTLP span kind and error status into these tags.
        jaegerTag("span.kind", span.kind),
        ...(span.error ? [jaegerTag("otel.status_code", "ERROR"), jaegerTag("error", true)] : []),
      ],
      logs: [],
      processID: "p1",
      warnings: null,
    })),
    processes: { p1: { serviceName: SERVICE_NAME, tags: [] } },
    warnings: null,
  };
}

function jaegerTag(
  key: string,
  value: AttributeValue,
): { key: string; type: string; value: unknown } {
  const type = typeof value === "string" ? "string" : typeof value === "boolean" ? "bool" : "int64";
  return { key, type, value };
}

/**
 * The OTLP JSON `ResourceSpans` of a trace, as Tempo returns them. Ids are hex
 * (the OTLP/JSON encoding), and 64-bit integers are decimal strings as the
 * protobuf JSON mapping requires: `"intValue": "200"`, `"startTimeUnixNano": "…"`.
 */
function otlpResourceSpans(spans: Span[]): unknown[] {
  return [{
    resource: { attributes: [otlpAttribute("service.name", SERVICE_NAME)] },
    scopeSpans: [{
      scope: { name: SERVICE_NAME },
      spans: spans.map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId,
        name: span.name,
        kind: span.kind === "server" ? "SPAN_KIND_SERVER" : "SPAN_KIND_INTERNAL",
        startTimeUnixNano: `${span.startUs}000`,
        endTimeUnixNano: `${span.endUs}000`,
        attributes: span.attributes.map(([key, value]) => otlpAttribute(key, value)),
        status: span.error ? { code: "STATUS_CODE_ERROR" } : {},
      })),
    }],
  }];
}

function otlpAttribute(key: string, value: AttributeValue): { key: string; value: unknown } {
  if (typeof value === "string") return { key, value: { stringValue: value } };
  if (typeof value === "boolean") return { key, value: { boolValue: value } };
  return { key, value: { intValue: String(value) } };
}

const jaegerTrace: Handler = ({ params, state }) => {
  const spans = queryTrace(state.traces, params.traceId);
  // Jaeger's envelope: `data` and `errors`, with paging fields that are always 0 here.
  const envelope = { total: 0, limit: 0, offset: 0 };
  if (spans === undefined) {
    const msg = `malformed trace id "${params.traceId}": expected up to 32 hex digits`;
    return json({ data: null, ...envelope, errors: [{ code: 400, msg }] }, 400);
  }
  if (spans.length === 0) {
    return json({ data: null, ...envelope, errors: [{ code: 404, msg: "trace not found" }] }, 404);
  }
  return json({ data: [jaegerTraceJson(spans)], ...envelope, errors: null });
};

/** Tempo answers errors in plain text, not JSON. */
function tempoError(status: number, message: string): Response {
  return new Response(`${message}\n`, {
    status,
    headers: { "content-type": "text/plain; charset=utf-8" },
  });
}

function tempoQuery(
  { params, state }: Context,
  body: (spans: Span[]) => unknown,
): Response {
  const spans = queryTrace(state.traces, params.traceId);
  if (spans === undefined) {
    return tempoError(400, `malformed trace id "${params.traceId}": expected up to 32 hex digits`);
  }
  if (spans.length === 0) return tempoError(404, "trace not found");
  return json(body(spans));
}

const tempoTrace: Handler = (ctx) =>
  tempoQuery(ctx, (spans) => ({ batches: otlpResourceSpans(spans) }));

const tempoTraceV2: Handler = (ctx) =>
  tempoQuery(ctx, (spans) => ({ trace: { resourceSpans: otlpResourceSpans(spans) } }));

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
  { pattern: "/graphql", auth: true, methods: { POST: graphql } },
  { pattern: "/web/login", methods: { GET: webLoginForm, POST: webLogin } },
  { pattern: "/web/account", methods: { GET: webAccount } },
  { pattern: "/echo/*", methods: { "*": echo } },
  { pattern: "/status/:code", methods: { GET: status } },
  { pattern: "/text", methods: { GET: text } },
  { pattern: "/html", methods: { GET: html } },
  { pattern: "/slow", methods: { GET: slow } },
  {
    pattern: "/digest/:algorithm",
    methods: { "*": (c) => digestRoute(c.request, c.params.algorithm) },
  },
  { pattern: "/aws/*", methods: { "*": (c) => sigv4Route(c.request) } },
  { pattern: "/oauth2/token", methods: { POST: (c) => oauth2Token(c.request) } },
  { pattern: "/oauth2/me", methods: { GET: (c) => oauth2Me(c.request) } },
  {
    pattern: "/oauth2/device_authorization",
    methods: { POST: (c) => oauth2DeviceAuthorization(c.request) },
  },
  { pattern: "/oauth2/device", methods: { GET: (c) => oauth2DevicePage(c.request) } },
  { pattern: "/basic/me", methods: { GET: (c) => basicMe(c.request) } },
  { pattern: "/api-key/me", methods: { GET: (c) => apiKeyMe(c.request) } },
  // Query APIs of the built-in tracing backend: each is the real product's path under a prefix.
  { pattern: "/jaeger/api/traces/:traceId", methods: { GET: jaegerTrace } },
  { pattern: "/tempo/api/traces/:traceId", methods: { GET: tempoTrace } },
  { pattern: "/tempo/api/v2/traces/:traceId", methods: { GET: tempoTraceV2 } },
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

/** Routes a request; `span` (a traced request's server span) learns the matched route. */
function dispatch(
  request: Request,
  url: URL,
  state: State,
  span?: ServerSpan,
): Response | Promise<Response> {
  for (const route of ROUTES) {
    const params = match(route.pattern, url.pathname);
    if (!params) continue;
    if (span) span.route = route.pattern;
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
    return handler({ request, url, params, state, span });
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
 *
 * @example Tracing: send a `traceparent`, then poll for the trace
 * ```ts
 * import { startDemoApi } from "./demo_api.ts";
 *
 * const api = await startDemoApi(); // traceArrivalQueries: 2
 * try {
 *   const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
 *   const health = await fetch(`${api.url}/health`, {
 *     headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
 *   });
 *   await health.body?.cancel();
 *   const query = () => fetch(`${api.url}/jaeger/api/traces/${traceId}`);
 *   const first = await query();
 *   await first.body?.cancel();
 *   if (first.status !== 404) throw new Error("the trace should not have arrived yet");
 *   const { data } = await (await query()).json();
 *   if (data[0].spans[0].operationName !== "GET /health") throw new Error("no server span");
 * } finally {
 *   await api.close();
 * }
 * ```
 */
export function startDemoApi(options: DemoApiOptions = {}): Promise<DemoApi> {
  const {
    port = 0,
    hostname = "127.0.0.1",
    jobReadyAfter = 3,
    traceArrivalQueries = 2,
    traceSpanLimit = 10_000,
  } = options;
  for (
    const [name, value] of Object.entries({ jobReadyAfter, traceArrivalQueries, traceSpanLimit })
  ) {
    if (!Number.isInteger(value) || value < 1) {
      return Promise.reject(
        new RangeError(`${name} must be an integer of at least 1, got ${value}.`),
      );
    }
  }
  const closing = new AbortController();
  const state: State = {
    tokens: new Map(),
    sessions: new Set(),
    items: new Map(),
    jobs: new Map(),
    jobReadyAfter,
    traces: newTraceStore(traceSpanLimit, traceArrivalQueries),
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
    }, (request) => {
      const parent = parseTraceparent(request.headers.get("traceparent"));
      return parent
        ? traced(request, state, parent)
        : dispatch(request, new URL(request.url), state);
    });
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
