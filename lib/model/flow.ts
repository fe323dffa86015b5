/**
 * The loaded flow: what {@linkcode loadFlow} makes of a flow file once every
 * check has passed. Both spellings load into this one shape; paths are
 * compiled, strings are parsed into templates, steps are in run order.
 *
 * @module
 */
import type { Template, ValueTemplate } from "./template.ts";
import type { CompiledPath } from "./path.ts";

export { type Operator, OPERATORS } from "./operators.ts";
import type { Operator } from "./operators.ts";

/**
 * The names accepted by the `type` operator.
 *
 * @example
 * ```ts
 * import { TYPE_NAMES } from "./flow.ts";
 * if (TYPE_NAMES.join() !== "string,number,integer,boolean,object,array,null") throw new Error();
 * ```
 */
export const TYPE_NAMES = [
  "string",
  "number",
  "integer",
  "boolean",
  "object",
  "array",
  "null",
] as const;

/** One `{path, <operator>: expected}` check. An item with several operators loads as several checks. */
export interface PathCheck {
  path: CompiledPath;
  operator: Operator;
  expected: ValueTemplate;
  /** The check's `name`, shown before its message. */
  name?: string;
  /** `each: true`: the operator applies to every value the path selects. */
  each?: boolean;
  /**
   * The `at` paths of the groups the check is in, outermost first: its path
   * is evaluated on what they select (`$` is that value), on each value
   * when one selects several.
   */
  base?: CompiledPath[];
  /** The conditional groups the check is in, outermost first, and the branch it is in. */
  groups?: { group: CheckGroup; branch: "then" | "else" }[];
  line: number;
  column: number;
}

/**
 * A group of checks with a condition (`{if, checks, else}` in a check
 * list): its `checks` are evaluated when every condition holds, its `else`
 * checks when one does not; the branch not taken is reported as one skipped
 * result naming the condition.
 */
export interface CheckGroup {
  /** The group's `name`, which leads the names of its checks. */
  name?: string;
  /** Conditions on the response (`path`, rooted like the group's `at`) or on values (`value`). */
  when: GroupCondition[];
  /** How many checks each branch holds, for the skipped result's message. */
  counts: { then: number; else: number };
  line: number;
  column: number;
}

/** A condition of a check group: on the response, like a check, or on a value, like a step's `if`. */
export type GroupCondition =
  | (Condition & { kind: "value" })
  | {
    kind: "path";
    path: CompiledPath;
    /** The `at` paths of the enclosing groups. */
    base?: CompiledPath[];
    operator: Operator;
    expected: ValueTemplate;
    line: number;
    column: number;
  };

/** `status: 200`, `status: {anyOf: [...]}` or `status: {in: [...]}`. */
export interface StatusCheck {
  /** `equals` for a bare integer; `anyOf` or `in` as written. */
  operator: "equals" | "anyOf" | "in";
  expected: number[];
  line: number;
  column: number;
}

/** The checks of an `assert` block or a `loop.until` block. */
export interface Checks {
  status?: StatusCheck;
  paths: PathCheck[];
  /** `schema` and `openapi` checks of the JSON body. */
  schemas?: SchemaCheck[];
  /** `{xpath, <operator>}` checks of an XML or HTML body. */
  xpaths?: XPathCheck[];
}

/** One `{xpath: "//title", <operator>: expected}` check of an XML or HTML body. */
export interface XPathCheck {
  xpath: string;
  operator: Operator;
  expected: ValueTemplate;
  name?: string;
  line: number;
  column: number;
}

/**
 * A compiled validator: the violations of a value (each at a JSON pointer,
 * `""` for the whole value), empty when it is valid.
 * @ignore
 */
export type Validate = (value: unknown) => { at: string; message: string }[];

/**
 * `schema` (a JSON Schema, inline or from a file) or `openapi` (an OpenAPI 3
 * document): the JSON body must match. Compiled before the run.
 * @ignore
 */
export type SchemaCheck =
  | {
    kind: "schema";
    /** The file as written, or `inline schema`. */
    source: string;
    schema: unknown;
    /** The flow file the check is written in. */
    file: string;
    line: number;
    column: number;
    validate?: Validate;
  }
  | {
    kind: "openapi";
    source: string;
    document: unknown;
    file: string;
    line: number;
    column: number;
    /** The validator holding the document, and each response schema compiled so far. */
    ajv?: unknown;
    compiled?: Map<string, Validate>;
  };

/**
 * The keys that name where a capture's value comes from, in its map form.
 *
 * @example
 * ```ts
 * import { CAPTURE_SOURCES } from "./flow.ts";
 * if (CAPTURE_SOURCES.join() !== "path,header,cookie,regex,xpath") throw new Error();
 * ```
 */
export const CAPTURE_SOURCES = ["path", "header", "cookie", "regex", "xpath"] as const;

/**
 * Where a captured value comes from: a JSONPath (every match as a list when
 * the path is not singular, unless `first`), a response header (or one query
 * parameter of the URL it holds: `{header: location, query: code}`), a cookie the
 * response sets, or the first group of a regular expression over the body text.
 */
export type CaptureSource =
  | { kind: "path"; path: CompiledPath; first: boolean }
  | { kind: "header"; name: string; query?: string }
  | { kind: "cookie"; name: string }
  | { kind: "regex"; pattern: RegExp; source: string }
  | { kind: "xpath"; expression: string };

/** One condition of a step's `if`: an operator on a value (`{value: "${…}", gt: 0}`). */
export interface Condition {
  /** The value as written, for messages. */
  source: string;
  value: ValueTemplate;
  operator: Operator;
  expected: ValueTemplate;
  line: number;
  column: number;
}

/** A value taken from the response into the step's captures. */
export interface Capture {
  name: string;
  from: CaptureSource;
  line: number;
  column: number;
}

/** A bounded poll: repeat the request until `until` holds. */
export interface Loop {
  maxAttempts: number;
  sleepMs: number;
  until: Checks;
}

/** The request of a step, with templates still unresolved. */
export interface RequestSpec {
  method: string;
  url: Template;
  headers: [name: string, value: Template][];
  /** `cookies`: cookies sent with the request (in its `cookie` header), name → value. */
  cookies?: [name: string, value: Template][];
  /** `query`: parameters appended to the URL, encoded; a list value repeats its key. */
  query?: [name: string, value: ValueTemplate][];
  body?: ValueTemplate;
  /** `form`: a URL-encoded form body; a list value repeats its key. */
  form?: [name: string, value: ValueTemplate][];
  /** `multipart`: a multipart/form-data body of text fields and files. */
  multipart?: MultipartPart[];
  /** `body_file`: the body is this file's bytes, as they are. */
  bodyFile?: DataFile;
  /** `graphql`: the body is a GraphQL request (`query`, `variables`, `operationName`) in `body`. */
  graphql?: boolean;
}

/** A file a flow sends, read when the flow is loaded. */
export interface DataFile {
  /** The path as written, relative to the flow file. */
  path: string;
  bytes: Uint8Array<ArrayBuffer>;
}

/** One part of a multipart body: a text field, or a file with its content type and name. */
export type MultipartPart =
  | { name: string; kind: "field"; value: ValueTemplate }
  | { name: string; kind: "file"; file: DataFile; contentType: string; filename: string };

/** One step. */
export interface Step {
  /** Unique in the flow. */
  name: string;
  /** Line of the step in the flow file. */
  line: number;
  /** Column of the step in the flow file. */
  column: number;
  /**
   * The request, with expressions unresolved. Internal: not part of the stable API.
   * @ignore
   */
  request: RequestSpec;
  /**
   * Values taken from the response (`capture`, `extract`). Internal: not part of the stable API.
   * @ignore
   */
  captures: Capture[];
  /**
   * Steps this one runs after (`depends_on`). Internal: not part of the stable API.
   * @ignore
   */
  dependsOn: string[];
  /**
   * The checks on the (last) response. Internal: not part of the stable API.
   * @ignore
   */
  assert: Checks;
  /**
   * Bounded polling, when the step has a `loop`. Internal: not part of the stable API.
   * @ignore
   */
  loop?: Loop;
  /**
   * `if`: conditions on earlier values that must all hold for the step to
   * run; otherwise it is skipped and the flow goes on. Internal: not part of the stable API.
   * @ignore
   */
  when?: Condition[];
  /**
   * `always: true`: the step runs even after an earlier step of its flow
   * failed or the run was interrupted (cleanup). Internal: not part of the stable API.
   * @ignore
   */
  always?: boolean;
  /**
   * `include`: instead of a request, the step runs another flow file, its
   * steps reported as `<this step> › <its step>`, its `outputs` becoming this
   * step's captures. Internal: not part of the stable API.
   * @ignore
   */
  include?: Include;
  /** The step's own `tags`, added to the flow's for `--tag` (absent when it has none). */
  tags?: string[];
  /**
   * `options` (the flow's, overridden key by key by the step's): timeout,
   * redirects, a delay, retries. Internal: not part of the stable API.
   * @ignore
   */
  options?: StepOptions;
  /**
   * The steps this one reads values of or runs after (`depends_on`): what
   * `--tag` keeps along with it. Internal: not part of the stable API.
   * @ignore
   */
  needs?: string[];
}

/**
 * An included flow: the file, the flow loaded from it, and the `with` values
 * (evaluated in the including flow) that set its vars.
 * @ignore
 */
export interface Include {
  /** The included file, relative to the working directory, `/`-separated. */
  file: string;
  flow: Flow;
  with: VarDef[];
}

/**
 * How a step's request is sent (`options` of a step or a flow).
 * @ignore
 */
export interface StepOptions {
  /** Give up on the request after this long, body included (default: `--timeout`). */
  timeoutMs?: number;
  /** Follow redirects (default: no; a 3xx is a response to check). */
  followRedirects?: boolean;
  /** Wait this long before sending the step's first request. */
  delayMs?: number;
  /** Send the request again after a network error or one of these statuses. */
  retry?: Retry;
  /** Keep the cookies responses set and send them back, like a browser, for the flow run. */
  cookieJar?: boolean;
  /** Do not check the server's TLS certificate (`insecure`); the run warns loudly. */
  insecure?: boolean;
  /** PEM certificates trusted besides the system's (`ca_cert`), read when the flow loads. */
  caCerts?: string[];
  /** A PEM client certificate and key for mutual TLS (`client_cert`, `client_key`). */
  clientCert?: { cert: string; key: string };
  /** Send requests through this proxy (`proxy`). */
  proxy?: string;
  /** Hosts reached without the proxy (`no_proxy`): names, `.suffix` domains, or `*`. */
  noProxy?: string[];
}

/**
 * Retrying a request: at most `count` more times, after a network error
 * (`"network"`) or a listed status, waiting `delayMs`, doubled at each retry.
 * @ignore
 */
export interface Retry {
  count: number;
  on: ("network" | number)[];
  delayMs: number;
}

/** A flow var: evaluated once per flow run, in order. */
export interface VarDef {
  name: string;
  value: ValueTemplate;
}

/** A loaded, checked flow, ready to run. */
export interface Flow {
  /** The file's path relative to the working directory, `/`-separated. */
  file: string;
  /** The flow's `name`. */
  name: string;
  /**
   * Flow vars in order. Internal: not part of the stable API.
   * @ignore
   */
  vars: VarDef[];
  /** Steps in run order (listed order, moved only by `depends_on`). */
  steps: Step[];
  /**
   * `outputs`: values a setup flow hands to every flow of the run, as
   * `${setup.NAME}`, evaluated after its last step. Internal: not part of the stable API.
   * @ignore
   */
  outputs?: VarDef[];
  /**
   * The flow's `options`, also merged into each step's. Internal: not part of the stable API.
   * @ignore
   */
  options?: StepOptions;
  /** The flow's `tags`, for `--tag` (empty when it has none). */
  tags?: string[];
  /**
   * `data`: the flow runs once per row, each row's values overriding or
   * adding flow vars, each run a flow result of its own named by the row.
   */
  rows?: DataRow[];
  /**
   * `data: {file: …}` before the file is read (by the suite, which then sets
   * `rows`): the path relative to the flow file, and where it is written.
   */
  dataFile?: { path: string; line: number; column: number };
}

/** One row of a data-driven flow. */
export interface DataRow {
  /** The row's name: its `name` value, else `row <n>`. */
  name: string;
  /** Column → value. */
  values: Record<string, unknown>;
}

/**
 * Every step of the flows and of the flows they include (each included
 * flow once), and the check blocks of each: its `assert` and its loop's
 * `until`.
 *
 * @example
 * ```ts
 * import { everyStep, type Flow } from "./flow.ts";
 * const inner = { file: "i.yaml", name: "i", vars: [], steps: [{ name: "x", assert: { paths: [] } }] };
 * const outer = { file: "o.yaml", name: "o", vars: [], steps: [
 *   { name: "a", assert: { paths: [] }, include: { file: "i.yaml", flow: inner, with: [] } },
 * ] };
 * const names = [...everyStep([outer, outer] as unknown as Flow[])].map((s) => s.step.name);
 * if (names.join() !== "a,x") throw new Error(names.join());
 * ```
 */
export function* everyStep(flows: readonly Flow[]): Generator<{ step: Step; checks: Checks[] }> {
  const seen = new Set<Flow>();
  const visit = function* (flow: Flow): Generator<{ step: Step; checks: Checks[] }> {
    if (seen.has(flow)) return;
    seen.add(flow);
    for (const step of flow.steps) {
      yield { step, checks: step.loop ? [step.assert, step.loop.until] : [step.assert] };
      if (step.include) yield* visit(step.include.flow);
    }
  };
  for (const flow of flows) yield* visit(flow);
}

/**
 * A checked flow held as the bytes it was loaded from until it runs: a suite
 * of thousands of flows keeps a few hundred bytes per flow instead of its
 * parsed steps (see `loadFlowsDeferred` in `suite.ts`). Loading it again
 * gives the flow that was checked: the same bytes, the same options.
 */
export interface DeferredFlow {
  /** The file's path relative to the working directory, `/`-separated. */
  readonly file: string;
  /** The flow's `name`. */
  readonly name: string;
  /** Parses the flow again; called just before it runs (or is reported as not run). */
  readonly load: () => Promise<Flow>;
}

/**
 * Whether an entry of a flow list is held as its bytes.
 *
 * @example
 * ```ts
 * import { type Flow, isDeferred } from "./flow.ts";
 * const flow: Flow = { file: "a.yaml", name: "a", vars: [], steps: [] };
 * if (isDeferred(flow)) throw new Error();
 * if (!isDeferred({ file: "a.yaml", name: "a", load: () => Promise.resolve(flow) })) throw new Error();
 * ```
 */
export function isDeferred(flow: Flow | DeferredFlow): flow is DeferredFlow {
  return !("steps" in flow);
}
