/**
 * Response headers that hand out a value: a rotating CSRF token
 * (`X-CSRF-Next`), a session or request id, a signed nonce. Decided by
 * evidence, never by the header's name: a later request that sends the
 * value byte for byte got it from this response, so it is captured from it
 * (`{header: x-csrf-next}`), even when the request's header is named like a
 * secret. Headers that describe the message itself (dates, lengths, types,
 * caching, CORS) and those handled elsewhere (`Set-Cookie`, `Location`,
 * `Link`, `ETag`) hand out nothing here.
 *
 * @module
 */
import type { HarRecord, NameValue } from "../har_model.ts";
import { METHOD } from "../../load/context.ts";
import { valueKey } from "../json.ts";
import type { Producer, Step } from "../model.ts";
import { isSecretShaped } from "../values.ts";
import type { Correlator } from "./state.ts";

/** Headers about the message, or read by another producer: never a handed-out value. */
const DESCRIBES_MESSAGE =
  /^(date|expires|last-modified|age|etag|vary|server|via|connection|keep-alive|transfer-encoding|content-.*|cache-control|pragma|set-cookie|location|link|refresh|retry-after|strict-transport-security|access-control-.*|timing-allow-origin|alt-svc|accept-ranges|x-powered-by|x-content-type-options|x-frame-options|x-xss-protection|referrer-policy|permissions-policy|report-to|nel|server-timing|x-response-time)$/;

/** A value a request could only have from here: 8 to 4,096 token characters. */
const TOKEN_TEXT = /^[A-Za-z0-9._~+/=:-]{8,4096}$/;

/**
 * The response headers of `r` whose value is one a later request may send
 * back: an opaque token or id, not a description of the message.
 *
 * @example
 * ```ts
 * import { handedHeaders } from "./header_producers.ts";
 * const r = { raw: { response: { headers: [
 *   { name: "Content-Type", value: "application/json" },
 *   { name: "Date", value: "Wed, 25 Nov 2026 12:00:00 GMT" },
 *   { name: "X-CSRF-Next", value: "9f2c41d0a7be3385" },
 * ] } } };
 * // deno-lint-ignore no-explicit-any
 * const out = handedHeaders(r as any);
 * if (JSON.stringify(out) !== '[{"name":"x-csrf-next","value":"9f2c41d0a7be3385"}]') throw new Error(JSON.stringify(out));
 * ```
 */
export function handedHeaders(r: HarRecord): NameValue[] {
  const response = r.raw.response as { headers?: unknown } | undefined;
  const headers = Array.isArray(response?.headers) ? response.headers : [];
  const out: NameValue[] = [];
  for (const h of headers) {
    if (typeof h?.name !== "string" || typeof h.value !== "string") continue;
    // A capture reads a header by a token's name: another name would make a flow that does not load.
    if (!METHOD.test(h.name)) continue;
    const name = h.name.toLowerCase();
    const value = h.value.trim();
    if (DESCRIBES_MESSAGE.test(name) || !TOKEN_TEXT.test(value)) continue;
    // Base64 need not hold a digit: the shape, not the alphabet, tells a token from a word.
    if (!isSecretShaped(value)) continue;
    if (out.some((o) => o.name === name)) continue;
    out.push({ name, value });
  }
  return out;
}

/**
 * Records what the response headers of `step` hand out: each value is a
 * token (searched inside longer text, masked in what is shown), unless a
 * body or an earlier response already handed it out or the client sent it
 * first (then it is the client's own, echoed back).
 *
 * @example
 * ```ts
 * import { produceHeaders } from "./header_producers.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const last = { raw: { response: { headers: [{ name: "X-CSRF-Next", value: "9f2c41d0a7be3385" }] } } };
 * // deno-lint-ignore no-explicit-any
 * produceHeaders(c, { last } as any);
 * if (c.producers.get("string:9f2c41d0a7be3385")?.source.kind !== "header") throw new Error();
 * ```
 */
export function produceHeaders(c: Correlator, step: Step): void {
  const r = step.last;
  for (const { name, value } of handedHeaders(r)) {
    const k = valueKey(value);
    if (c.producers.has(k) || c.sentSeen.has(k)) continue;
    // Where the browser reached the server (PHP's built-in server answers `Host: 127.0.0.1:8080`)
    // is no secret: masked, every comment's URL would read `http://***`. It is still evidence
    // for a value that holds it whole (a `return=` URL), so the run follows the live instance.
    const secret = value !== r.url?.host && value !== r.url?.hostname;
    const producer: Producer = { step, source: { kind: "header", name }, secret };
    c.producers.set(k, producer);
    c.tokens.push([value, producer]);
    if (secret) c.secrets.add(value);
  }
}
