/**
 * A WebSocket, SSE or gRPC step as one `function:` item of the HTTP-engine
 * scenario (an Artillery scenario has one engine, so a flow mixing kinds
 * stays one scenario): the processor function it names performs the
 * exchange in Node, as the step's kind does in `flowrun run`, then applies
 * the step's checks and captures to a response of the kind's shape (status,
 * headers, `$.json` of the messages or events) with the hooks HTTP steps use.
 * The step's values are Artillery templates (`{{ … }}`) rendered by the
 * processor for each virtual user, so a secret stays in the environment.
 *
 * @module
 */
import type { Flow, Step } from "../model/flow.ts";
import type { Capture } from "../model/checks.ts";
import { DEFAULT_TIMEOUT_MS } from "../run/options.ts";
import { conditionOf } from "./condition.ts";
import { expectationsOf } from "./expect.ts";
import { tokenFor } from "./oauth2.ts";
import { authFields, type RequestFields } from "./request.ts";
import type { FlowItem } from "./flow_item.ts";
import { kindSpecData } from "./kind_spec.ts";
import { type KindTls, kindTls } from "./kind_tls.ts";
import { grpcSpecData } from "./grpc_spec.ts";
import type { GrpcSpec } from "../kinds/mod.ts";
import type { ProcessorCheck } from "./processor_checks.ts";
import { targetOf } from "./response_path.ts";
import { captureName, note, type Place } from "./scope.ts";

/** What the processor's `flowrunKind` reads of one step. */
export interface KindStepData {
  kind: "websocket" | "sse" | "grpc";
  /** The step's name, for messages and the metrics' names. */
  name: string;
  /** The kind's own values, with `{{ … }}` templates. */
  spec: Record<string, unknown>;
  checks: ProcessorCheck[];
  captures: { as: string; at: (string | number)[] }[];
  timeoutMs: number;
  /** The processor function of the step's `if:`, when it has one. */
  ifTrue?: string;
  /** What the step's auth adds to its request, as an HTTP request's fields (request.ts). */
  auth?: RequestFields;
  /** `cookie_jar: true`: the user's cookies go with the request and the answer's are kept. */
  jar?: true;
  /** The CAs, client certificate and `insecure` its connection takes (kind_tls.ts). */
  tls?: KindTls;
}

/** The processor functions' names, by kind. */
const FUNCTION = { websocket: "flowrunWebSocket", sse: "flowrunSse", grpc: "flowrunGrpc" };

/** The step's kind's data, or the sentence saying why it is not exported. */
function specData(step: Step, place: Place): Record<string, unknown> | string {
  const { kind, spec } = step.call!;
  if (kind === "websocket" || kind === "sse") return kindSpecData(kind, spec, place);
  if (kind !== "grpc") {
    return `the ${kind} step "${step.name}" is not exported: Artillery has no ${kind} engine ` +
      "and the processor makes WebSocket, SSE and gRPC exchanges only (docs/load-testing.md)";
  }
  return grpcSpecData(spec as GrpcSpec, place);
}

/** The capture as a place the processor reads, or undefined (noted). */
function captureAt(capture: Capture, place: Place): KindStepData["captures"][number] | undefined {
  const as = captureName(place.flowIndex, place.step ?? "", capture.name);
  const from = capture.from;
  const target = from.kind === "path" ? targetOf(from.path) : undefined;
  if (target?.kind === "json") return { as, at: ["json", ...target.chain] };
  if (target?.kind === "header") return { as, at: ["headers", target.name] };
  if (target) return { as, at: [target.kind] };
  if (from.kind === "header" && !from.query && !from.regex && !from.rel) {
    return { as, at: ["headers", from.name.toLowerCase()] };
  }
  note(place, `capture "${capture.name}" is not a plain path the processor can read: not captured`);
  return undefined;
}

/**
 * The items of a step of another kind than HTTP; `fresh` says whether
 * `flowrunBefore` must make values before it.
 *
 * @example
 * ```ts
 * import { kindItems } from "./kind_step.ts";
 * import { newScope } from "./scope.ts";
 * const place = { scope: newScope(), flow: "f", flowIndex: 0, vars: new Set<string>(), step: "s" };
 * const url = { source: "ws://x.test/", parts: ["ws://x.test/"] };
 * const spec = { url, headers: [], subprotocols: [], send: [], count: 1 };
 * const step = { name: "s", line: 1, column: 1, captures: [], dependsOn: [], assert: { paths: [] },
 *   request: { method: "GET", url, headers: [] }, call: { kind: "websocket", spec } };
 * const items = kindItems(step, { file: "f.yaml", name: "f", vars: [], steps: [step] }, place);
 * if (items.at(-1)?.item.function !== "flowrunWebSocket1") throw new Error(JSON.stringify(items));
 * ```
 */
export function kindItems(step: Step, flow: Flow, place: Place): FlowItem[] {
  const kind = step.call!.kind;
  const madeBefore = place.scope.fresh.size + place.scope.encoded.size;
  const spec = specData(step, place);
  if (typeof spec === "string") {
    note(place, spec);
    return [{ comments: [], item: { log: `flowrun export: ${spec}` } }];
  }
  const expected = expectationsOf(step.assert, place, true);
  const captures = step.captures.map((c) => captureAt(c, place))
    .filter((c) => c !== undefined);
  const ifTrue = conditionOf(step, place);
  const options = { ...flow.options, ...step.options };
  // The handshake or stream request is authorised as an HTTP step's is; the gRPC kind has no
  // authorize in flowrun run (its metadata is its own), so none is added to a call.
  const stepAuth = kind === "grpc" ? undefined : step.auth ?? flow.auth;
  const auth: RequestFields = {};
  authFields(stepAuth, place, auth);
  const token = stepAuth?.kind === "oauth2" ? tokenFor(stepAuth, place) : undefined;
  const tls = kindTls(options, place.scope);
  const data: KindStepData = {
    kind: kind as KindStepData["kind"],
    name: `${place.prefix ?? ""}${step.name}`,
    spec,
    checks: expected.checks,
    captures,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    ...(ifTrue && { ifTrue }),
    ...(Object.keys(auth).length > 0 && { auth }),
    ...(options.cookieJar === true && { jar: true as const }),
    ...(tls && { tls }),
  };
  const fn = `${FUNCTION[kind as KindStepData["kind"]]}${place.scope.kindSteps.size + 1}`;
  place.scope.kindSteps.set(fn, data);
  const items: FlowItem[] = [];
  if (place.scope.fresh.size + place.scope.encoded.size > madeBefore) {
    items.push({ comments: [], item: { function: "flowrunBefore" } });
  }
  if (token) items.push({ comments: [], item: { function: token.fn } });
  items.push({ comments: [], item: { function: fn } });
  return items;
}
