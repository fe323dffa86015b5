/**
 * What a script does to the request about to be sent: a request sent first
 * (`pm.sendRequest` in a pre-request script, side_request.ts), a header
 * added (request_header.ts), a query parameter (request_query.ts), its body
 * written (request_body.ts) or its URL (request_url.ts). Only one made on every run is kept: under a
 * condition it stays a comment, except a request sent under a condition whose
 * value is known now (`if (!pm.environment.get("token")) pm.sendRequest(…)`,
 * no token yet): it is sent, marked `once`, as Postman logs in once and
 * then finds the token set (flow.ts sends it once per flow).
 *
 * @module
 */
import type { EvalContext } from "./eval.ts";
import type { Node } from "./parse.ts";
import { addedHeader } from "./request_header.ts";
import { addedQuery } from "./request_query.ts";
import { writtenBody } from "./request_body.ts";
import { writtenUrl } from "./request_url.ts";
import { sideRequest } from "./side_request.ts";
import type { Translation } from "./translation.ts";

/**
 * Adds the effect of `e` to `out`: `"kept"`, `"comment"` when it is one
 * that cannot be kept, `false` when `e` is neither.
 *
 * @example
 * ```ts
 * import { requestEffect } from "./request_effect.ts";
 * import { parseScript } from "./parse.ts";
 * const source = 'pm.request.headers.add({ key: "X-A", value: "1" })';
 * const p = parseScript(source);
 * if (!p.ok) throw new Error(p.why);
 * const ctx = { scope: new Map(), tests: new Map(), variable: () => ({ k: "lit" as const, value: undefined }) };
 * const out = { headers: [] } as unknown as Parameters<typeof requestEffect>[2];
 * if (requestEffect(p.program.body[0].expression, ctx, out, source, false) !== "kept" || out.headers?.[0].key !== "X-A") throw new Error();
 * ```
 */
export function requestEffect(
  e: Node,
  ctx: EvalContext,
  out: Translation,
  preRequestSource: string | undefined,
  conditional: boolean,
  once?: string,
): "kept" | "comment" | false {
  const side = preRequestSource === undefined ? null : sideRequest(e, ctx, preRequestSource);
  if (side !== null && once !== undefined && side !== undefined) {
    return keep(side, false, (v) => (out.sides ??= []).push({ ...v, once }));
  }
  if (side !== null) return keep(side, conditional, (v) => (out.sides ??= []).push(v));
  const header = addedHeader(e, ctx);
  if (header !== null) return keep(header, conditional, (v) => (out.headers ??= []).push(v));
  const body = writtenBody(e, ctx, preRequestSource ?? "");
  if (body !== null) return keep(body, conditional, (v) => (out.body = v));
  // A URL written replaces the parameters added before it, as Postman parses the new text whole.
  const url = writtenUrl(e, ctx);
  if (url !== null) return keep(url, conditional, (v) => (out.url = v, out.query = []));
  const query = addedQuery(e, ctx);
  if (query !== null) return keep(query, conditional, (v) => (out.query ??= []).push(v));
  return false;
}

/** What was found, added unless it cannot be said or a condition decides whether it is made. */
function keep<T>(
  found: T | undefined,
  conditional: boolean,
  add: (v: T) => void,
): "kept" | "comment" {
  if (found === undefined || conditional) return "comment";
  add(found);
  return "kept";
}
