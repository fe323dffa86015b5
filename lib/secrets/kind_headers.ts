/**
 * The headers a step of another kind than HTTP sends, as a flow wrote them: a `websocket:` step's
 * handshake headers, an `sse:` step's headers and a `grpc:` step's metadata. The secrets of a flow
 * are found in them by the rule an HTTP request's headers follow (`flow_inputs.ts`): by where a
 * value came from, never by the name above it alone. Read by shape, since the kinds sit above
 * this stage: a kind's spec is opaque here.
 *
 * @module
 */
import type { Template, ValueTemplate } from "../model/template.ts";

/** The parts of a kind's spec that hold what it sends as headers. */
interface HeaderParts {
  /** WebSocket: `[name, value]` pairs; SSE: a map template. */
  headers?: [string, ValueTemplate][] | ValueTemplate;
  /** gRPC: `[name, template]` pairs. */
  metadata?: [string, Template][];
}

/**
 * The `[name, value]` headers and metadata a kind step (`call`) sends, in the order written;
 * none for an HTTP step (its `request:` holds them) or a spec without them.
 *
 * @example
 * ```ts
 * import { kindHeaders } from "./kind_headers.ts";
 * const text = { kind: "template" as const, template: { source: "<string>", parts: ["<string>"] } };
 * const sse = { kind: "sse", spec: { headers: { kind: "map", entries: [["idempotency-key", text]] } } };
 * const grpc = { kind: "grpc", spec: { metadata: [["x-request-key", text.template]] } };
 * const found = [...kindHeaders(sse), ...kindHeaders(grpc)].map(([name]) => name);
 * if (found.join() !== "idempotency-key,x-request-key") throw new Error(found.join());
 * if (kindHeaders(undefined).length !== 0) throw new Error();
 * ```
 */
export function kindHeaders(
  call: { kind: string; spec: unknown } | undefined,
): [string, ValueTemplate][] {
  const spec = call?.spec as HeaderParts | undefined;
  if (spec === undefined || spec === null || typeof spec !== "object") return [];
  const { headers, metadata } = spec;
  const pairs: [string, ValueTemplate][] = [];
  if (Array.isArray(headers)) pairs.push(...headers);
  else if (headers?.kind === "map") {
    for (const [name, value] of headers.entries) pairs.push([name, value]);
  }
  for (const [name, template] of Array.isArray(metadata) ? metadata : []) {
    pairs.push([name, { kind: "template", template }]);
  }
  return pairs;
}
