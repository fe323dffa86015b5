/**
 * One verification's state and the small operations over it: the flow
 * loaded as it now stands (with probes for a step's handed-out values), the
 * live values those probes captured, and a snapshot of a step to put back
 * after a try that did not help. `verify.ts` walks the steps with it.
 *
 * @module
 */
import { loadFlow } from "../load/load_flow.ts";
import type { Flow } from "../model/flow.ts";
import type { Correlator } from "./correlate/mod.ts";
import type { PreparedConversion } from "./har.ts";
import type { Source, Step } from "./model.ts";
import { type LiveOutcome, LiveSession } from "./verify_live.ts";
import { type RequestParts, requestParts } from "./verify_template.ts";
import { sentText } from "./verify_values.ts";
import { UnloadableFlow } from "./verify_express.ts";
import { probesByStep, type Producer, producersOf } from "./verify_producers.ts";

export type { Producer } from "./verify_producers.ts";
import { writeFlow } from "./write.ts";
import { verifiedWsBase } from "./correlate/websocket_step.ts";

/**
 * The name prefix of a probe's capture.
 *
 * @example
 * ```ts
 * import { PROBE } from "./verify_state.ts";
 * if (!`${PROBE}0`.startsWith("verify_probe_")) throw new Error();
 * ```
 */
export const PROBE = "verify_probe_";

/**
 * The state of a step's request and of every step's captures, to put back
 * after a try (see `snapshot`).
 *
 * @example
 * ```ts
 * import type { Snapshot } from "./verify_state.ts";
 * const keys: (keyof Snapshot)[] = ["parts", "uses", "captures", "replaced"];
 * if (keys.length !== 4) throw new Error();
 * ```
 */
export interface Snapshot {
  parts: RequestParts;
  uses: Set<string>;
  captures: [Step["captures"], Map<string, string>][];
  replaced: Correlator["replaced"];
}

/**
 * What {@linkcode startVerification} needs besides the conversion.
 *
 * @example
 * ```ts
 * import type { VerificationInput } from "./verify_state.ts";
 * const input: VerificationInput = { baseUrl: "http://127.0.0.1:8080", hosts: ["127.0.0.1:8080"], env: () => undefined };
 * if (input.hosts.length !== 1) throw new Error();
 * ```
 */
export interface VerificationInput {
  baseUrl: string;
  hosts: string[];
  env: (name: string) => string | undefined;
  timeoutMs?: number;
}

/**
 * One verification under way (see `startVerification`).
 *
 * @example
 * ```ts
 * import type { Verification } from "./verify_state.ts";
 * const runsLeft = (v: Verification, bound: number) => bound - v.runs;
 * if (runsLeft({ runs: 3 } as Verification, 5) !== 2) throw new Error();
 * ```
 */
export interface Verification {
  readonly prepared: PreparedConversion;
  readonly c: Correlator;
  /** What each step's recorded request sent, as text. */
  readonly sent: string[];
  /** Each value handed out and sent back later → the responses that handed it out. */
  readonly producers: Map<string, Producer[]>;
  /** The producers probed for in each step's live response. */
  readonly probesAt: Map<number, Producer[]>;
  /** The live values the probes captured, by {@linkcode liveKey}. */
  readonly live: Map<string, unknown>;
  readonly session: LiveSession;
  /** Values a response handed out where no capture can find them → why (a JSONPath refused). */
  readonly dropped: Map<string, string>;
  /** Reads the environment the flow's variables come from. */
  readonly env: (name: string) => string | undefined;
  /** Step runs so far (first runs and tries). */
  runs: number;
}

/**
 * Starts verifying `prepared`: reads what each step sent and which earlier
 * response handed it out, then opens the live session on the flow as
 * converted. Nothing is sent until {@linkcode runStep}.
 *
 * @example
 * ```ts
 * import { prepareConversion } from "./har.ts";
 * import { liveText, startVerification } from "./verify_state.ts";
 * const har = JSON.stringify({ log: { entries: [
 *   { request: { method: "POST", url: "https://a.test/orders" }, response: { status: 201, content: { mimeType: "application/json", text: '{"id":"ord_8f3a2c91"}' } } },
 *   { request: { method: "GET", url: "https://a.test/orders/ord_8f3a2c91" }, response: { status: 200, content: { mimeType: "application/json", text: "{}" } } },
 * ] } });
 * const v = startVerification(prepareConversion(har, { noCorrelate: true }), {
 *   baseUrl: "http://127.0.0.1:9", hosts: ["127.0.0.1:9"], env: () => undefined,
 * });
 * v.session.close();
 * const [p] = v.producers.get("ord_8f3a2c91")!;
 * if (p.index !== 0 || liveText(v, p) !== undefined) throw new Error();
 * ```
 */
export function startVerification(
  prepared: PreparedConversion,
  input: VerificationInput,
): Verification {
  const c = prepared.c;
  const sent = c.steps.map((s) => sentText(s.first));
  const dropped = new Map<string, string>();
  const producers = producersOf(c, sent, dropped);
  const env = (name: string) =>
    name === "BASE_URL"
      ? input.baseUrl
      : name.startsWith("RECORDED_SECRET")
      ? recordedByName(c).get(name) ?? input.env(name)
      : name.startsWith("WS_BASE_URL")
      ? input.env(name) ?? verifiedWsBase(c, name, input.baseUrl)
      : input.env(name);
  const session = new LiveSession(loadConverted(prepared), env, input.hosts, input.timeoutMs);
  const v: Verification = {
    prepared,
    c,
    sent,
    producers,
    probesAt: probesByStep(producers),
    live: new Map(),
    session,
    dropped,
    env: input.env,
    runs: 0,
  };
  return v;
}

/**
 * Each variable the conversion made for a recorded value → that value.
 *
 * @example
 * ```ts
 * import { prepareConversion } from "./har.ts";
 * import { recordedByName } from "./verify_state.ts";
 * const har = JSON.stringify({ log: { entries: [{
 *   request: { method: "GET", url: "https://a.test/me", headers: [{ name: "x-api-key", value: "k3y-91ab7c" }] },
 *   response: { status: 200, content: { mimeType: "application/json", text: "{}" } },
 * }] } });
 * if (recordedByName(prepareConversion(har).c).get("API_KEY") !== "k3y-91ab7c") throw new Error();
 * ```
 */
export function recordedByName(c: Correlator): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, name] of c.envByValue) out.set(name, key.slice(key.indexOf("\n") + 1));
  return out;
}

/**
 * The flow as the steps now stand, with `probes` added to the captures of
 * step `at` for the one load; throws {@linkcode UnloadableFlow} when it does
 * not load.
 *
 * @example
 * ```ts
 * import { prepareConversion } from "./har.ts";
 * import { loadConverted } from "./verify_state.ts";
 * const har = JSON.stringify({ log: { entries: [{ request: { method: "GET", url: "https://a.test/items" },
 *   response: { status: 200, content: { mimeType: "application/json", text: "[]" } } }] } });
 * if (loadConverted(prepareConversion(har, {})).steps.length !== 1) throw new Error();
 * ```
 */
export function loadConverted(
  { c, traffic }: PreparedConversion,
  probes: [string, Source][] = [],
  at = -1,
): Flow {
  const step = c.steps[at];
  const kept = step?.captures.length ?? 0;
  step?.captures.push(...probes);
  const yaml = writeFlow(c, {
    total: traffic.parsed.total,
    ordered: traffic.ordered,
    notes: [],
    cookieJar: traffic.sanitized,
  }).yaml;
  if (step) step.captures.length = kept;
  // Variables are read when the step is sent; upload files are the ones the conversion writes.
  const { flow, problems } = loadFlow(yaml, "verify.yaml", {
    checkEnv: false,
    readFile: (path) => {
      const text = c.files.get(path);
      return text === undefined
        ? { message: `"${path}" is not a file the conversion writes` }
        : { bytes: typeof text === "string" ? new TextEncoder().encode(text) : text };
    },
  });
  if (!flow) throw new UnloadableFlow(problems[0]?.message ?? "");
  return flow;
}

/**
 * Sends step `i` as the flow now stands, probing for the values it hands out.
 *
 * @example
 * ```ts
 * import { prepareConversion } from "./har.ts";
 * import { runStep, startVerification } from "./verify_state.ts";
 * const entry = (url: string) => ({
 *   request: { method: "GET", url },
 *   response: { status: 200, content: { mimeType: "application/json", text: "{}" } },
 * });
 * const har = JSON.stringify({ log: { entries: [entry("https://shop.test/a"), entry("https://tracker.test/p")] } });
 * const prepared = prepareConversion(har, { includeHosts: ["shop.test", "tracker.test"] });
 * const v = startVerification(prepared, { baseUrl: "http://127.0.0.1:9", hosts: ["127.0.0.1:9"], env: () => undefined });
 * // tracker.test is not the API's host: the step is not sent.
 * const outcome = await runStep(v, 1);
 * v.session.close();
 * if (outcome.sent || v.runs !== 1) throw new Error();
 * ```
 */
export async function runStep(v: Verification, i: number): Promise<LiveOutcome> {
  v.runs++;
  const probes = (v.probesAt.get(i) ?? []).map((p, k) =>
    [`${PROBE}${k}`, p.source] as [string, Source]
  );
  const flow = loadConverted(v.prepared, probes, i);
  return await v.session.run(flow.steps[i], flow);
}

/**
 * Keeps what the probes of step `i` captured live.
 *
 * @example
 * ```ts
 * import { prepareConversion } from "./har.ts";
 * import { liveText, PROBE, rememberLive, startVerification } from "./verify_state.ts";
 * const har = JSON.stringify({ log: { entries: [
 *   { request: { method: "POST", url: "https://a.test/orders" }, response: { status: 201, content: { mimeType: "application/json", text: '{"id":"ord_8f3a2c91"}' } } },
 *   { request: { method: "GET", url: "https://a.test/orders/ord_8f3a2c91" }, response: { status: 200, content: { mimeType: "application/json", text: "{}" } } },
 * ] } });
 * const v = startVerification(prepareConversion(har, { noCorrelate: true }), { baseUrl: "http://127.0.0.1:9", hosts: ["127.0.0.1:9"], env: () => undefined });
 * v.session.close();
 * rememberLive(v, 0, new Map([[`${PROBE}0`, "ord_live"]]));
 * if (liveText(v, v.producers.get("ord_8f3a2c91")![0]) !== "ord_live") throw new Error();
 * ```
 */
export function rememberLive(v: Verification, i: number, captured: Map<string, unknown>): void {
  (v.probesAt.get(i) ?? []).forEach((p, k) => {
    if (captured.has(`${PROBE}${k}`)) v.live.set(liveKey(p), captured.get(`${PROBE}${k}`));
  });
}

/**
 * The key of a producer's live value: the step that handed it out and the
 * recorded value.
 *
 * @example
 * ```ts
 * import { liveKey, type Producer } from "./verify_state.ts";
 * const p = { index: 2, handed: { value: "v1" } } as unknown as Producer;
 * if (liveKey(p) !== "2\0v1") throw new Error();
 * ```
 */
export const liveKey = (p: Producer) => `${p.index}\0${p.handed.value}`;

/**
 * The live value a producer handed out, as text; `undefined` when none was
 * captured (or it is not a string or number).
 *
 * @example
 * ```ts
 * import { liveKey, liveText, type Producer, type Verification } from "./verify_state.ts";
 * const p = { index: 0, handed: { value: "v" } } as unknown as Producer;
 * const v = { live: new Map<string, unknown>([[liveKey(p), 42]]) } as unknown as Verification;
 * if (liveText(v, p) !== "42") throw new Error();
 * ```
 */
export function liveText(v: Verification, p: Producer): string | undefined {
  const value = v.live.get(liveKey(p));
  return typeof value === "string" || typeof value === "number" ? String(value) : undefined;
}

/**
 * The state of `step`'s request and of every step's captures.
 *
 * @example
 * ```ts
 * import { prepareConversion } from "./har.ts";
 * import { restore, snapshot } from "./verify_state.ts";
 * const har = JSON.stringify({ log: { entries: [
 *   { request: { method: "POST", url: "https://a.test/orders" }, response: { status: 201, content: { mimeType: "application/json", text: '{"id":"ord_8f3a2c91"}' } } },
 *   { request: { method: "GET", url: "https://a.test/orders/ord_8f3a2c91" }, response: { status: 200, content: { mimeType: "application/json", text: "{}" } } },
 * ] } });
 * const { c } = prepareConversion(har);
 * const before = snapshot(c, c.steps[1]);
 * c.steps[1].url = "changed";
 * restore(c, c.steps[1], before);
 * if (c.steps[1].url === "changed") throw new Error();
 * ```
 */
export function snapshot(c: Correlator, step: Step): Snapshot {
  return {
    parts: requestParts(step),
    uses: new Set(step.uses),
    captures: c.steps.map((s) => [s.captures.slice(), new Map(s.captureByPath)]),
    replaced: { ...c.replaced },
  };
}

/**
 * Puts `step` and every step's captures back as `s` holds them (see
 * {@linkcode snapshot}).
 *
 * @example
 * ```ts
 * import { prepareConversion } from "./har.ts";
 * import { restore, snapshot } from "./verify_state.ts";
 * const har = JSON.stringify({ log: { entries: [
 *   { request: { method: "POST", url: "https://a.test/orders" }, response: { status: 201, content: { mimeType: "application/json", text: '{"id":"ord_8f3a2c91"}' } } },
 *   { request: { method: "GET", url: "https://a.test/orders/ord_8f3a2c91" }, response: { status: 200, content: { mimeType: "application/json", text: "{}" } } },
 * ] } });
 * const { c } = prepareConversion(har);
 * const before = snapshot(c, c.steps[1]);
 * c.steps[0].captures.push(["extra", { kind: "cookie", name: "x" }]);
 * restore(c, c.steps[1], before);
 * if (c.steps[0].captures.length !== 1) throw new Error();
 * ```
 */
export function restore(c: Correlator, step: Step, s: Snapshot): void {
  Object.assign(step, s.parts);
  step.uses = new Set(s.uses);
  c.steps.forEach((x, i) => {
    x.captures = s.captures[i][0].slice();
    x.captureByPath = new Map(s.captures[i][1]);
  });
  Object.assign(c.replaced, s.replaced);
}
