/**
 * Which headers holding an importer's type placeholder carry a credential, by what the collection
 * says of them, never by their names. Postman's importer (`openapi-to-postmanv2`) writes every
 * header parameter a document declares with its type as the value: Adyen's `Idempotency-Key:
 * <string>`, Amazon's `X-Amz-Security-Token: <string>`, petstore's `api_key: <string>`. Newman
 * sends that text as written. Asked for as secrets by their names alone, 28 of 81 collections the
 * importer made from directory documents asked for 86 variables with no default, so their flows
 * did not run as printed; sent as written by name alone, petstore's `api_key`, the credential of
 * the document's apiKey scheme, went out as a literal. A placeholder header is a credential when
 * an `apikey` auth of the collection sends its key in a header of that name (how the importer
 * writes an apiKey scheme), when its own description says it holds one (Walmart's
 * `WM_SEC.ACCESS_TOKEN`: "The access token retrieved in the Token API call"), or when HTTP
 * defines the header to carry credentials (`Authorization`, `Proxy-Authorization`, `Cookie`).
 *
 * @module
 */
import type { PmPair, PmRequest, PmUnit } from "./model.ts";

/** An importer's type placeholder: `<string>`, `<uuid>`, `<long>`, `<dateTime>`, `<date-time>`. */
const TYPE_PLACEHOLDER = /^<[A-Za-z][\w-]*>$/;

/**
 * Whether `value` is an importer's type placeholder (`<string>`, `<uuid>`), a stand-in for a
 * value, never one: a credential header holding it is asked for, but the text is no secret to hide
 * wherever else the collection writes it.
 *
 * @example
 * ```ts
 * import { isTypePlaceholder } from "./header_evidence.ts";
 * if (!isTypePlaceholder("<string>") || !isTypePlaceholder(" <date-time> ")) throw new Error();
 * if (isTypePlaceholder("k_77a9d0c2") || isTypePlaceholder("<a> b")) throw new Error();
 * ```
 */
export function isTypePlaceholder(value: string): boolean {
  return TYPE_PLACEHOLDER.test(value.trim());
}

/** Headers HTTP defines to carry credentials (RFC 9110 §11.6.2, §11.7.2; RFC 6265 §5.4). */
const CREDENTIAL_FIELDS = /^(proxy-)?authorization$|^cookie$/i;

/** What a header's description says when the header holds a credential. */
const SAYS_CREDENTIAL =
  /\b(api[ _-]?key|(access|auth|bearer|session|security|refresh|id)[ _-]?token|bearer|credentials?|password|secret|jwt)\b/i;

/** The headers (lower case) an `apikey` auth of some request sends its key in. */
function apikeyHeaders(units: PmUnit[]): Set<string> {
  const names = new Set<string>();
  for (const r of units.flatMap((u) => u.requests)) {
    const s = r.auth?.type === "apikey" ? r.auth.settings : undefined;
    // Postman sends an apikey in a header unless told `in: query`, under `X-API-Key` unnamed.
    if (s && s.in !== "query") names.add((s.key || "X-API-Key").trim().toLowerCase());
  }
  return names;
}

/** Whether the collection ties header `h` to a credential. */
function credentialEvidence(h: PmPair, apikeys: Set<string>): boolean {
  const name = h.key.trim().toLowerCase();
  return CREDENTIAL_FIELDS.test(name) || apikeys.has(name) ||
    SAYS_CREDENTIAL.test(h.description ?? "");
}

/** `r` with each placeholder header nothing ties to a credential marked `asWritten`. */
function marked(r: PmRequest, apikeys: Set<string>): PmRequest {
  const plain = (h: PmPair) => isTypePlaceholder(h.value) && !credentialEvidence(h, apikeys);
  if (!r.headers.some(plain)) return r;
  return { ...r, headers: r.headers.map((h) => plain(h) ? { ...h, asWritten: true } : h) };
}

/**
 * The units with every header that holds an importer's type placeholder, and that the collection
 * does not tie to a credential, marked `asWritten`: sent as written, as Newman sends it.
 *
 * @example
 * ```ts
 * import { markPlaceholderHeaders } from "./header_evidence.ts";
 * const r = { name: "r", folders: [], method: "GET", url: "{{baseUrl}}/pet", scripts: [] };
 * const keyed = { ...r, auth: { type: "apikey", settings: { key: "api_key", value: "{{apiKey}}", in: "header" } }, headers: [] };
 * const del = { ...r, headers: [{ key: "api_key", value: "<string>" }, { key: "Idempotency-Key", value: "<string>" }] };
 * const [unit] = markPlaceholderHeaders([{ requests: [keyed, del] }]);
 * const sent = unit.requests[1].headers.map((h) => `${h.key}:${h.asWritten ?? false}`);
 * if (sent.join() !== "api_key:false,Idempotency-Key:true") throw new Error(sent.join());
 * ```
 */
export function markPlaceholderHeaders(units: PmUnit[]): PmUnit[] {
  const apikeys = apikeyHeaders(units);
  return units.map((u) => ({ ...u, requests: u.requests.map((r) => marked(r, apikeys)) }));
}
