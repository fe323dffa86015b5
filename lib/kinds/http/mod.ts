/**
 * The `request:` step kind: an HTTP request, the kind most steps are. Its
 * reading, sending and checking are the pipeline's own stages
 * (`load/request.ts`, `http/`, `check/`), which sit above `kinds/` because
 * every kind's answer goes through them; so this kind reaches them through
 * the two services the loader and the runner give every kind:
 * `KindReading.request` reads its map, {@linkcode KindCall.send}
 * sends it and keeps the runner's whole record of the exchange (redirects,
 * trace, the request as shown, the curl line of a failure). The map's JSON
 * Schema is the flow schema's own `$defs.request`.
 *
 * @module
 */
import type { KindCall, KindSent, StepKind } from "../kind.ts";
import type { RequestSpec } from "../../model/flow.ts";

/**
 * The keys of `request:` that each give its body; one at most is written
 * (`load/body.ts` reads them in this order).
 *
 * @example
 * ```ts
 * import { HTTP_BODY_KEYS } from "./mod.ts";
 * if (HTTP_BODY_KEYS[0] !== "body" || !HTTP_BODY_KEYS.includes("body_base64")) throw new Error();
 * ```
 */
export const HTTP_BODY_KEYS = [
  "body",
  "form",
  "multipart",
  "body_file",
  "body_base64",
  "graphql",
] as const;

/**
 * The keys of `request:`, as schema/flow.schema.json's `$defs.request` lists
 * them (tests/kinds/kinds_test.ts holds the two together).
 *
 * @example
 * ```ts
 * import { HTTP_KEYS } from "./mod.ts";
 * if (!HTTP_KEYS.includes("url") || !HTTP_KEYS.includes("graphql")) throw new Error();
 * ```
 */
export const HTTP_KEYS: readonly string[] = [
  "method",
  "url",
  "query",
  "headers",
  "cookies",
  ...HTTP_BODY_KEYS,
];

/** Sends the request through the runner's HTTP client: the exchange is the runner's record. */
function sendRequest(spec: RequestSpec, call: KindCall): Promise<KindSent> {
  if (!call.send) throw new Error("This caller gives no HTTP client: an HTTP step cannot be sent.");
  return call.send(spec);
}

/**
 * The HTTP step kind.
 *
 * @example
 * ```ts
 * import { HTTP } from "./mod.ts";
 * if (HTTP.key !== "request" || HTTP.required?.[0] !== "url") throw new Error();
 * ```
 */
export const HTTP: StepKind<RequestSpec> = {
  key: "request",
  what: "an HTTP request",
  keys: HTTP_KEYS,
  required: ["url"],
  read: (map, reading) => reading.request(map),
  attempt: sendRequest,
  // Written by hand in the flow schema, with the operators' and the body's rules.
  schema: { $ref: "#/$defs/request" },
  docs: "docs/flow-format.md",
};
