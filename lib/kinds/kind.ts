/**
 * The one small interface a step kind implements: what its YAML may hold and
 * how it is checked before anything is sent ({@linkcode StepKind.read}), how
 * one attempt runs ({@linkcode StepKind.attempt}), and what its result holds
 * ({@linkcode KindOutcome}: a request line and a response the checks read like
 * an HTTP response's). The loader, the runner, the flow JSON Schema and the
 * reporters ask the kind through this interface, HTTP's `request:` too;
 * nothing outside a kind's folder knows what a gRPC call or a WebSocket is.
 *
 * `kinds/` sits below `load/` on purpose: a kind needs nothing of the stages
 * above it, because the loader hands it {@linkcode KindReading} (positioned
 * problems, templates, files, an HTTP request's map read) and the runner
 * {@linkcode KindCall} (values, deadlines, TLS, secrets, an HTTP request
 * sent). So the loader and the runner import the list of kinds (`mod.ts`)
 * directly: no registry to fill, the same kinds in worker threads, the
 * bundle and the compiled binary.
 *
 * @module
 */
import type { Node } from "yaml";
import type { RequestSpec } from "../model/flow.ts";
import type { Template, ValueTemplate } from "../model/template.ts";
import type { Told } from "../model/told.ts";

/** A key of a YAML map, its node and its value (the loader's `Entry`). */
export interface KindEntry {
  key: string;
  keyNode: Node;
  value: Node | null;
}

/**
 * What the loader gives a kind to read its map with. Every problem goes
 * through {@linkcode KindReading.problem}, placed at a node, so `validate`
 * lists it with the others, before anything is sent.
 */
export interface KindReading {
  /** The flow file's path, for messages and for paths relative to it. */
  readonly file: string;
  /** A problem at `node`: a code (listed in docs/troubleshooting.md), a sentence quoting the value, the fix. */
  problem(code: string, message: string, node: Node | null | undefined, hint: string): void;
  /**
   * The entries of a map, checked against the keys it may hold (an unknown
   * key is a problem naming the nearest allowed one); `undefined`, after a
   * problem, when `node` is not a map or a required key is missing.
   */
  map(
    node: Node | null,
    what: string,
    allowed: readonly string[],
    required?: readonly string[],
  ): Map<string, KindEntry> | undefined;
  /** A YAML value whose strings may hold `${…}`, compiled; references are checked like a request's. */
  value(node: Node | null): ValueTemplate | undefined;
  /** A scalar string that may hold `${…}`; `undefined` after a problem (not a string, a bad expression). */
  template(node: Node | null, what: string): Template | undefined;
  /** A plain string (no expressions), `undefined` after a problem. */
  string(entry: KindEntry, what: string): string | undefined;
  /** A whole number in [min, max], `undefined` after a problem. */
  integer(entry: KindEntry, what: string, min: number, max?: number): number | undefined;
  /** A duration (`500ms`, `2s`, or milliseconds) in [min, max] ms, `undefined` after a problem. */
  duration(entry: KindEntry, what: string, min: number, max: number): number | undefined;
  /**
   * A file named relative to the flow file (a `.proto`): its path resolved
   * against the flow file's folder and its text, when it is a readable
   * regular file; a positioned problem otherwise.
   */
  readFile(node: Node | null, what: string): { path: string; text: string } | undefined;
  /** A node's values as plain data (no templates), for keys like lists of paths. */
  plain(node: Node | null): unknown;
  /**
   * The map of an HTTP request (the keys of `request:`) read as the loader
   * reads every HTTP request: method, URL, query, headers, cookies and body,
   * checked as the HTTP client will send them. The HTTP kind reads its map
   * with it; a kind that sends HTTP requests of its own may too. `undefined`
   * after a problem that leaves no request (no URL).
   */
  request(map: Map<string, KindEntry>): RequestSpec | undefined;
}

/** The run's TLS and proxy settings, as the HTTP client takes them (`--cacert`, `--cert`, `--insecure`, `--proxy`). */
export interface KindNetwork {
  /** PEM text of CAs to trust besides the system's. */
  caCerts?: string[];
  /** A client certificate and its key, PEM. */
  cert?: string;
  key?: string;
  /** `--insecure`: do not verify the server's certificate. */
  insecure: boolean;
  /** A proxy URL for this target, when one applies (`--proxy`, `HTTPS_PROXY`, `NO_PROXY` considered). */
  proxy?: string;
}

/**
 * What the runner gives one attempt: values in the step's scope, its
 * deadline and signal, the run's network settings and its limits.
 */
export interface KindCall {
  /** The value of a compiled value in the step's scope; throws the runner's expression error. */
  render(value: ValueTemplate): unknown;
  /** A template's value as text. */
  text(template: Template): string;
  /** The step's timeout (`options.timeout`, `--timeout`): a deadline for the whole attempt. */
  timeoutMs: number;
  /** Aborted when the run is interrupted (SIGINT, `--fail-fast`): stop at once. */
  signal?: AbortSignal;
  /** The run's TLS and proxy settings for `url`. */
  network(url: string): KindNetwork;
  /** The most bytes one response (a message, the messages together) may hold: bound everything read. */
  maxBodyBytes: number;
  /** Marks a value secret: every output masks it from here on (a token received, a key sent). */
  secret(value: string): void;
  /**
   * A network error (`fetch`'s, a socket's) in words a person can act on, as
   * HTTP steps say it: "connection refused", a TLS certificate's verdict with
   * what to do about it; flowrun's words apart from what they quote (the
   * runtime's own text, which may quote the URL), so that a message made of
   * it masks those values and keeps its words. Optional: a kind falls back to
   * the error's message, as a value.
   */
  networkReason?(error: unknown): Told;
  /**
   * The step's auth (its own `auth:` or its flow's) applied to an HTTP
   * request the kind is about to send (an event stream, a WebSocket
   * handshake): a copy with the credentials added as an HTTP step gets them
   * — a header (bearer, basic, an API key, an OAuth2 token), the URL's query
   * (an API key `in: query`), a signature. The request unchanged when the
   * step has no auth. Optional: a kind without it sends no auth.
   */
  authorize?(request: KindRequest): Promise<KindRequest>;
  /**
   * The flow run's cookie jar, when the step uses one (`cookie_jar`,
   * `--cookie-jar`): the `cookie` header it holds for a URL, and `store` for
   * the `set-cookie` lines an answer brought, which later steps then send.
   */
  cookies?: KindCookies;
  /**
   * Sends an HTTP request as the runner sends every HTTP step's: rendered in
   * the step's scope, with its auth, the jar's cookies, redirects, TLS and
   * proxy settings, a `traceparent`, the reporters told. The answer is the
   * runner's own record of the exchange (its redirects, its trace, the
   * request as shown), opaque to the kind, which returns it as its outcome.
   * Optional: a caller with no HTTP client gives none.
   */
  send?(request: RequestSpec): Promise<KindSent>;
}

/**
 * An exchange {@linkcode KindCall.send} made: the runner's own record, which
 * the kind returns as its attempt's outcome and the runner keeps whole.
 */
export interface KindSent {
  /** Marks the record; what it holds is the runner's. */
  readonly sent: true;
}

/** A cookie jar as a kind uses it (see {@linkcode KindCall.cookies}). */
export interface KindCookies {
  /** The `cookie` header for `url`, if the jar holds any for it. */
  header(url: string): string | undefined;
  /** Keeps the cookies of an answer from `url`. */
  store(url: string, setCookies: readonly string[]): void;
}

/** A request as a kind sends it and reports show it: names as sent, the body as text. */
export interface KindRequest {
  method: string;
  url: string;
  headers: [string, string][];
  body?: string;
}

/**
 * One attempt's outcome. `request` is what reports show of what was sent;
 * `response`, when the other side answered, is what checks and captures
 * read: `status` for `assert.status`, `headers` (lower-cased names) for
 * header checks, `body` (JSON text, usually) for `$.json…` paths. `error`
 * is a failure to reach the other side, retried like an HTTP network error.
 */
export interface KindOutcome {
  request: KindRequest;
  response?: { status: number; headers: Record<string, string>; body: string };
  /**
   * Made as flowrun's words and the values it quotes (`told`), its values are masked where the
   * step shows it and its words never (a short password `refused`); a string is masked whole.
   */
  error?: { reason: string; message: string | Told };
  /**
   * The kind's own verdicts on a response, failing the step like a failed
   * check (a stream's `until` that never held within its bound): `check`
   * names what was asked (`until`), `message` says what happened in a
   * sentence (how many messages arrived). Reports list them with the checks
   * and keep the message as a check's, flowrun's words: made with `told`,
   * the values it quotes (a URL, a server's words) are masked where the step
   * is told and its words never; a string is masked whole, as a value.
   */
  failures?: KindFailure[];
}

/** A kind's failed verdict on a response: what was asked (`until`), and what happened. */
export interface KindFailure {
  check: string;
  message: string | Told;
}

/** Whole numbers from `min` to `max`, and the words a message names them by. */
export interface StatusRange {
  min: number;
  max: number;
  /** "a gRPC status code from 0 (OK) to 16". */
  what: string;
}

/**
 * A step kind. `Spec` is what {@linkcode StepKind.read} makes of the step's
 * map: plain data and compiled templates (it is read again in each worker
 * thread, never sent between them).
 *
 * @example
 * ```ts
 * import type { StepKind } from "./kind.ts";
 * const echo: StepKind<{ text: string }> = {
 *   key: "echo",
 *   what: "an echo",
 *   keys: ["text"],
 *   read: (map) => ({ text: String(map.get("text")?.key ?? "") }),
 *   attempt: (spec) => Promise.resolve({
 *     request: { method: "ECHO", url: "echo:", headers: [] },
 *     response: { status: 0, headers: {}, body: JSON.stringify(spec.text) },
 *   }),
 *   schema: { type: "object" },
 *   docs: "docs/kinds.md",
 * };
 * if (echo.key !== "echo") throw new Error();
 * ```
 */
export interface StepKind<Spec = unknown> {
  /** The step key that makes a step this kind (`grpc:`), instead of `request:`. */
  key: string;
  /** Words for messages: "a gRPC call". */
  what: string;
  /** The keys the map under {@linkcode StepKind.key} may hold. */
  keys: readonly string[];
  /** Keys it must hold. */
  required?: readonly string[];
  /**
   * The codes its response carries as `status`, for `assert.status` and
   * `loop.until.status` (HTTP's, 100 to 599, when not given: a WebSocket's
   * handshake, an event stream's answer).
   */
  statuses?: StatusRange;
  /** Reads and checks the map: a spec, or `undefined` after problems told through `reading`. */
  read(map: Map<string, KindEntry>, reading: KindReading, node: Node): Spec | undefined;
  /**
   * One attempt: never throws for the network's fault (that is `error`), only
   * for an expression's. A kind that sent its request through
   * {@linkcode KindCall.send} returns what `send` gave.
   */
  attempt(spec: Spec, call: KindCall): Promise<KindOutcome | KindSent>;
  /** The JSON Schema of the map under the key, written into schema/flow.schema.json. */
  schema: Record<string, unknown>;
  /** The docs page with its recipe. */
  docs: string;
  /**
   * Loads what the kind's reader loads on demand (gRPC's protobufjs), for a
   * library, whose synchronous `loadFlow` cannot wait for it. Optional: most
   * kinds read with what is loaded already.
   */
  prepare?(): Promise<unknown>;
  /**
   * Lets go of what the kind keeps open from one step to the next (gRPC's
   * channels) when the last run in progress ends. Optional.
   */
  close?(): Promise<void>;
}
