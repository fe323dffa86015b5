/**
 * The JSON Schema of the map under `sse:`, which `scripts/sync_kinds.ts`
 * writes into schema/flow.schema.json.
 *
 * @module
 */

/**
 * The schema of an `sse:` map (draft 2020-12).
 *
 * @example
 * ```ts
 * import { SSE_SCHEMA } from "./schema.ts";
 * if (SSE_SCHEMA.additionalProperties !== false) throw new Error();
 * ```
 */
export const SSE_SCHEMA: Record<string, unknown> = {
  type: "object",
  description: "A server-sent events step: reads text/event-stream events (see docs/sse.md).",
  required: ["url"],
  additionalProperties: false,
  properties: {
    url: {
      type: "string",
      description: "The absolute http or https URL of the event stream; may hold ${…}.",
    },
    method: {
      enum: ["GET", "POST", "get", "post"],
      description: "GET (the default), or POST for APIs that stream the answer to a body.",
    },
    headers: {
      type: "object",
      description: "Headers sent on every connection; accept: text/event-stream unless given.",
      additionalProperties: true,
    },
    body: {
      description: "JSON sent with method POST (content-type: application/json unless given).",
    },
    until: {
      type: "string",
      description:
        "Stop once this JSONPath selects something in [event], the event just received " +
        "(e.g. \"$[?@.event == 'done']\"); the step fails when it never does.",
    },
    count: {
      type: "integer",
      minimum: 1,
      maximum: 100000,
      default: 1000,
      description: "Stop after this many events (all connections together).",
    },
    wait: {
      type: ["string", "integer"],
      description: "Stop reading after this long (500ms, 10s, or ms); at most the step's timeout.",
    },
    last_event_id: {
      type: "string",
      description: "Sent as Last-Event-ID on the first connection.",
    },
    reconnects: {
      type: "integer",
      minimum: 0,
      maximum: 100,
      default: 0,
      description:
        "How many times a stream the server ends is opened again, with Last-Event-ID and after retry ms.",
    },
  },
};
