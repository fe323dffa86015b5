/**
 * The values one recorded request sends, wherever it sends them: a page that handed one of them
 * out is part of the session (pages.ts).
 *
 * @module
 */
import type { HarRecord } from "./har_model.ts";
import { parseBody, safeDecode, walk } from "./json.ts";
import { multipartBoundary } from "./har_input.ts";
import { multipartParts } from "./uploads.ts";
import { madeUpStem } from "./page_named_controls.ts";

/**
 * Every value a request sends: cookies, header values, path segments, query and body values
 * (what `statePages` looks for to keep the page that handed one out).
 *
 * @example
 * ```ts
 * import { sentValues } from "./sent_values.ts";
 * import { parseHar } from "./har_model.ts";
 * const { records } = parseHar(JSON.stringify({ log: { entries: [{
 *   request: { method: "GET", url: "https://app.test/items/42?nonce=ab12cd34" },
 *   response: { status: 200, content: { mimeType: "text/html", text: "" } } }] } }), []);
 * const sent = sentValues(records[0]);
 * if (!sent.has("42") || !sent.has("ab12cd34")) throw new Error();
 * ```
 */
export function sentValues(r: HarRecord): Set<string> {
  const sent = new Set<string>();
  for (const c of r.cookies) sent.add(c.value).add(safeDecode(c.value));
  for (const h of r.headers) sent.add(h.value);
  for (const s of r.url.pathname.split("/")) if (s !== "") sent.add(safeDecode(s));
  // A route's data at its path plus a suffix (`/jobs/<uuid>.data`) sends the id before it.
  const last = /\/([^/.]+)\.[a-z]{2,5}$/i.exec(r.url.pathname);
  if (last) sent.add(safeDecode(last[1]));
  for (const [, v] of r.url.searchParams) addFormValue(v, sent);
  if (r.bodyText) bodyValues(r, r.bodyText, sent);
  return sent;
}

/** Adds the values a request body sends: multipart text fields, JSON leaves, form values. */
function bodyValues(r: HarRecord, body: string, sent: Set<string>): void {
  const type = r.headers.find((h) => h.name.toLowerCase() === "content-type")?.value ?? "";
  const parts = /^multipart\//i.test(type)
    ? multipartParts(body, multipartBoundary(type))
    : undefined;
  if (parts) {
    for (const p of parts) if (p.value !== undefined) sent.add(p.value);
    sentNames(parts.map((p) => p.name), sent);
  } else if (body.length < 1_000_000) {
    try {
      walk(parseBody(body), (_p, _k, leaf) => sent.add(String(leaf)));
    } catch {
      for (const [, v] of new URLSearchParams(body)) addFormValue(v, sent);
      sentNames([...new URLSearchParams(body).keys()], sent);
      for (const m of body.matchAll(/"([^"\\]{6,200})"/g)) sent.add(m[1]);
    }
  }
}

/**
 * Adds a query or form value, and when it is itself a whole form serialized into one field
 * (`rows[]=tok=9f3a…&length=10`, a table's XHR), the values of its fields: the page that held
 * the token inside sent it too.
 */
function addFormValue(value: string, sent: Set<string>): void {
  sent.add(value);
  if (!/^[^=&\s]+=[^&]*(&[^=&\s]+=[^&]*)*$/.test(value)) return;
  for (const [, v] of new URLSearchParams(value)) sent.add(v);
}

/** Adds the made-up stems of field names (page_named_controls.ts): a page that named them is a source. */
function sentNames(names: readonly string[], sent: Set<string>): void {
  for (const name of names) {
    const stem = madeUpStem(name);
    if (stem !== undefined) sent.add(stem);
  }
}
