/**
 * The step kinds, HTTP's `request:` among them, each a folder behind the
 * {@linkcode StepKind} interface of `kind.ts`. Adding a kind is a folder and
 * one line in {@linkcode KINDS}: the loader, the runner, the flow JSON Schema
 * (`scripts/sync_kinds.ts`), the library's start (`mod.ts`) and the
 * reporters find it here.
 *
 * @module
 */
import { GRPC } from "./grpc/mod.ts";
import { HTTP } from "./http/mod.ts";
import type { StepKind } from "./kind.ts";
// What a step of each kind holds, for the stages that translate steps (export speaks Artillery
// for the kinds it knows, and names any other as not exported): through this face, never a
// kind's own folder.
export type { GrpcSpec } from "./grpc/mod.ts";
export type { SseSpec } from "./sse/mod.ts";
export type { WebSocketSpec } from "./websocket/mod.ts";
// The request kind's body keys, for the loader that reads a request's body.
export { HTTP_BODY_KEYS } from "./http/mod.ts";
import type { Step } from "../model/flow.ts";
import { sseKind } from "./sse/mod.ts";
import { websocket } from "./websocket/mod.ts";

export type {
  KindCall,
  KindCookies,
  KindEntry,
  KindFailure,
  KindNetwork,
  KindOutcome,
  KindReading,
  KindRequest,
  KindSent,
  StatusRange,
  StepKind,
} from "./kind.ts";

/**
 * Every step kind, by the key that marks a step as one. A step holding two
 * kinds' keys is the first's, the other key unknown to it: HTTP's is last,
 * so `grpc:` beside `request:` is a gRPC step told `request` does not belong.
 *
 * @example
 * ```ts
 * import { KINDS } from "./mod.ts";
 * if (new Set(KINDS.map((k) => k.key)).size !== KINDS.length) throw new Error("keys are unique");
 * ```
 */
export const KINDS: readonly StepKind[] = [GRPC, sseKind, websocket, HTTP];

/**
 * The kind of a step that holds none of the kinds' keys: HTTP's, the kind
 * flows had before there were others, so its problem says `request` is
 * missing.
 *
 * @example
 * ```ts
 * import { DEFAULT_KIND } from "./mod.ts";
 * if (DEFAULT_KIND.key !== "request") throw new Error();
 * ```
 */
export const DEFAULT_KIND: StepKind = HTTP as StepKind;

/**
 * The kind a key marks, if any.
 *
 * @example
 * ```ts
 * import { kindOf } from "./mod.ts";
 * if (kindOf("request")?.what !== "an HTTP request" || kindOf("soap") !== undefined) throw new Error();
 * ```
 */
export function kindOf(key: string): StepKind | undefined {
  return KINDS.find((kind) => kind.key === key);
}

/**
 * The kind of a loaded step and what its reader made of its map. A step's
 * `call` holds another kind's; an HTTP step's spec is the step's own
 * `request`, where exports and library users have always read it.
 *
 * @example
 * ```ts
 * import { stepCall } from "./mod.ts";
 * const request = { method: "GET", url: { parts: ["http://x.test/"], source: "http://x.test/" }, headers: [] };
 * // deno-lint-ignore no-explicit-any
 * const { kind, spec } = stepCall({ request } as any);
 * if (kind.key !== "request" || spec !== request) throw new Error();
 * ```
 */
export function stepCall(step: Pick<Step, "request" | "call">): { kind: StepKind; spec: unknown } {
  const kind = step.call ? kindOf(step.call.kind) : DEFAULT_KIND;
  if (!kind) throw new Error(`No step kind is registered for "${step.call!.kind}".`);
  return { kind, spec: step.call ? step.call.spec : step.request };
}
