/**
 * The loaded flow: what {@linkcode loadFlow} makes of a flow file once every
 * check has passed. Both spellings load into this one shape; paths are
 * compiled, strings are parsed into templates, steps are in run order.
 *
 * @module
 */
import type { Template, ValueTemplate } from "./template.ts";
import type { Capture, Checks, Condition } from "./checks.ts";
import type { Auth } from "./auth.ts";

export { type Operator, OPERATORS } from "./operators.ts";
export {
  type Capture,
  CAPTURE_SOURCES,
  type CaptureSource,
  type CheckGroup,
  type Checks,
  type Condition,
  type GroupCondition,
  type PathCheck,
  type SchemaCheck,
  type StatusBound,
  type StatusCheck,
  TYPE_NAMES,
  type Validate,
  type XPathCheck,
} from "./checks.ts";

/** A bounded poll: repeat the request until `until` holds. */
export interface Loop {
  maxAttempts: number;
  sleepMs: number;
  until: Checks;
}

/**
 * `foreach`: run the step once per element of a list, the element a var of
 * each iteration (`as`, its index `<as>_index`), at most `max` of them.
 */
export interface Foreach {
  /** The list: one expression that gives it, or a list written in the flow. */
  items: ValueTemplate;
  /** The list as written, for messages: the expression's text, or "the list". */
  source: string;
  /** The var each element is read through (`as`, default `item`). */
  as: string;
  /** The var of the element's index from 0 (`<as>_index`). */
  index: string;
  /** More elements than this fail the step (`max_iterations`, default 1,000). */
  max: number;
}

/** The request of a step, with templates still unresolved. */
export interface RequestSpec {
  /** Upper-cased; with `methodFrom`, the expression as written until the request is made. */
  method: string;
  /** `method: ${vars.m}`: the method is this expression's value, checked when the request is made. */
  methodFrom?: Template;
  url: Template;
  /**
   * Name as written, value, and the name's template when the name holds an
   * expression (`x-csrf-token-${steps.home.capture.device}`: a header an
   * instance names after itself), its value checked when the request is made.
   */
  headers: [name: string, value: Template, nameFrom?: Template][];
  /** `headers: "${vars.h}"`: the headers are this expression's map, checked when the request is made. */
  headersFrom?: Template;
  /** `cookies`: cookies sent with the request (in its `cookie` header), name → value. */
  cookies?: [name: string, value: Template][];
  /** `query`: parameters appended to the URL, encoded; a list value repeats its key. */
  query?: [name: string, value: ValueTemplate][];
  /** `query: "${vars.q}"`: the parameters are this expression's map, checked when the request is made. */
  queryFrom?: Template;
  body?: ValueTemplate;
  /**
   * `form`: a URL-encoded form body; a list value repeats its key. A name
   * that holds `${…}` (a list's checkbox `chk_${…}`) has its template too.
   */
  form?: [name: string, value: ValueTemplate, nameFrom?: Template][];
  /** `multipart`: a multipart/form-data body of text fields and files. */
  multipart?: MultipartPart[];
  /** `body_file`: the body is this file's bytes, as they are. */
  bodyFile?: DataFile;
  /** `body_base64`: the body is the bytes this text decodes to (an answer `{body: base64}` took). */
  bodyBase64?: ValueTemplate;
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
  & { name: string; nameFrom?: Template }
  & (
    | { kind: "field"; value: ValueTemplate }
    | { kind: "file"; file: DataFile; contentType: string; filename: string }
    /**
     * `{content, filename?, content_type?}`: text sent as its UTF-8 bytes, line
     * breaks as they are (an earlier answer a capture holds); with a filename, a
     * file part, else a part with neither filename nor type, as curl's `-F f=<file`.
     */
    | { kind: "content"; value: ValueTemplate; filename?: string; contentType?: string }
    /** `{content_base64, filename, content_type?}`: the bytes base64 text decodes to, a file part. */
    | { kind: "base64"; value: ValueTemplate; filename: string; contentType?: string }
  );

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
  /**
   * `foreach`: the step (a request or an include) runs once per element of a
   * list, each iteration reported as `<step> [<i>] (<as>=<value>)`.
   * Internal: not part of the stable API.
   * @ignore
   */
  foreach?: Foreach;
  /**
   * A step of another kind than HTTP (`grpc:`, `websocket:`, `sse:`): the
   * kind's key and what its reader made of its map; `request` then only
   * names the call for messages. Internal: not part of the stable API.
   * @ignore
   */
  call?: { kind: string; spec: unknown };
  /** The step's own `tags`, added to the flow's for `--tag` (absent when it has none). */
  tags?: string[];
  /**
   * `auth`: the step's own, over its flow's and the run's (`none` opts out); on an
   * include step, what the included flow inherits unless it has its own.
   * Internal (its values are unresolved templates): not part of the stable API.
   * @ignore
   */
  auth?: Auth;
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
  /**
   * `response:`: the included step whose response the include step's own
   * `assert` and `capture` read; absent: its last step that sent a request.
   */
  response?: string;
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
  /** `omit_empty_headers`: a header whose value renders as empty text is not sent. */
  omitEmptyHeaders?: boolean;
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
  /** `retries`: how many times the flow is re-run when it does not pass; overrides `--retries`. */
  retries?: number;
  /**
   * `serial: true`: the flow never runs beside another one; it runs after the
   * others, alone, whatever `--jobs` and `--workers` say.
   */
  serial?: boolean;
  /**
   * `auth`: how its steps' requests are authorised, over the run's `--auth-file`.
   * Internal (its values are unresolved templates): not part of the stable API.
   * @ignore
   */
  auth?: Auth;
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
