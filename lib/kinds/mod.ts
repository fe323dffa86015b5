/**
 * The step kinds besides HTTP's `request:`, each a folder behind the
 * {@linkcode StepKind} interface of `kind.ts`. Adding a kind is a folder and
 * one line in {@linkcode KINDS}: the loader, the runner, the flow JSON Schema
 * (`scripts/sync_kinds.ts`) and the reporters find it here.
 *
 * @module
 */
import { GRPC } from "./grpc/mod.ts";
import type { StepKind } from "./kind.ts";
import { sseKind } from "./sse/mod.ts";
import { websocket } from "./websocket/mod.ts";

export type {
  KindCall,
  KindCookies,
  KindEntry,
  KindNetwork,
  KindOutcome,
  KindReading,
  KindRequest,
  StepKind,
} from "./kind.ts";

/**
 * Every step kind but HTTP's, by the key that marks a step as one.
 *
 * @example
 * ```ts
 * import { KINDS } from "./mod.ts";
 * if (new Set(KINDS.map((k) => k.key)).size !== KINDS.length) throw new Error("keys are unique");
 * ```
 */
export const KINDS: readonly StepKind[] = [GRPC, sseKind, websocket];

/**
 * The kind a key marks, if any.
 *
 * @example
 * ```ts
 * import { kindOf } from "./mod.ts";
 * if (kindOf("request") !== undefined) throw new Error("HTTP is not a kind of this list");
 * ```
 */
export function kindOf(key: string): StepKind | undefined {
  return KINDS.find((kind) => kind.key === key);
}
