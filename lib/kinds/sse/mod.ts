/**
 * The `sse:` step kind: reads a `text/event-stream` (server-sent events)
 * until a condition holds, bounded, reconnecting with `Last-Event-ID`. Its
 * response's JSON is `{events: [{event, data, id, retry?}], stopped}`; see
 * docs/sse.md.
 *
 * @module
 */
import type { StepKind } from "../kind.ts";
import { attemptSse } from "./attempt.ts";
import { readSse, SSE_KEYS, type SseSpec } from "./read.ts";
import { SSE_SCHEMA } from "./schema.ts";

export type { SseSpec } from "./read.ts";

/**
 * The server-sent events step kind.
 *
 * @example
 * ```ts
 * import { sseKind } from "./mod.ts";
 * if (sseKind.key !== "sse" || !sseKind.keys.includes("until")) throw new Error();
 * ```
 */
export const sseKind: StepKind<SseSpec> = {
  key: "sse",
  what: "an event stream",
  keys: SSE_KEYS,
  required: ["url"],
  read: readSse,
  attempt: attemptSse,
  schema: SSE_SCHEMA,
  docs: "docs/sse.md",
};
