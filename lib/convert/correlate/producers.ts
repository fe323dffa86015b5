/**
 * What a response hands out: the values a later request may send back. A
 * cookie it set, a page's tokens and ids, an OAuth code in its redirect, a
 * JSON body's ids, tokens and cursors each become a {@linkcode Producer},
 * found again in a fresh response by its source. A value's producer is the
 * first response that held it, except that a page or JSON body is a better
 * source than a cookie.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import { valueKey, walk } from "../json.ts";
import type { Producer, Source, Step } from "../model.ts";
import { isAnalyticsCookie } from "../noise_headers.ts";
import { locationParams } from "../oauth.ts";
import { type PageValue, pageValues } from "../pages.ts";
import {
  isCredentialCookie,
  isCursorKey,
  isDigitGroups,
  isSecretShaped,
  looksLikeId,
  looksLikeToken,
} from "../values.ts";
import type { Correlator } from "./state.ts";
import { locationIds, noteLocationRow } from "./location_ids.ts";
import { noteLinkedQueryRows, noteQueryRows, noteRowPages } from "./query_rows.ts";
import { noteRowLinks } from "./row_links.ts";
import { noteLinkedRows } from "./labelled_ids.ts";
import { noteSearchedRows } from "./searched_rows.ts";
import { noteMarkedRows } from "./marked_rows.ts";
import { produceHeaders } from "./header_producers.ts";
import { noteCreatedIds } from "./created_ids.ts";
import { noteKeyNamedIds } from "./key_named_ids.ts";
import { noteGraphqlIds } from "./graphql_ids.ts";
import { noteListedRows } from "./listed_rows.ts";
import { noteRpcListedIds } from "./rpc_listed_ids.ts";
import { noteListedNames } from "./listed_names.ts";
import { produceFramed } from "./framed_producers.ts";
import { produceJsonHtml } from "./json_html.ts";
import { instanceName } from "./cookie_names.ts";
import { sentAnywhere, sentSoFar } from "./client_constants.ts";
import { produceXml } from "./xml_producers.ts";
import { produceLostJwt } from "./lost_jwt.ts";
import { isHandedNumber, produceNumberText } from "./handed_numbers.ts";
import { cookiePath, jarKey } from "./cookie_paths.ts";

/**
 * Records what the response of `step` hands out (the default rule); with
 * linking off, only the cookies held and the secrets seen.
 *
 * @example
 * ```ts
 * import { produce } from "./producers.ts";
 * import { emptyCorrelator } from "./state.ts";
 * // With linking off (`--no-correlate`), a response produces nothing but secrets.
 * const c = emptyCorrelator("a", false);
 * const last = { url: new URL("https://a.test/login"), setCookies: [{ name: "sid", value: "s3ss10n-abc" }], mimeType: "application/json", hasJson: false };
 * // deno-lint-ignore no-explicit-any
 * produce(c, { last } as any);
 * if (c.producers.size !== 0 || !c.secrets.has("s3ss10n-abc")) throw new Error();
 * ```
 */
export function produce(c: Correlator, step: Step): void {
  if (!c.linking) return produceNothing(c, step);
  produceCookies(c, step);
  producePage(c, step);
  produceJsonHtml(c, step, (k, value, p) => setProducer(c, k, value, p));
  produceFramed(c, step);
  c.handed.note(step);
  produceLocation(c, step);
  produceJson(c, step);
  produceXml(c, step);
  produceLostJwt(c, step);
  noteCreatedIds(c, step);
  noteKeyNamedIds(c, step);
  noteGraphqlIds(c, step);
  noteListedRows(c, step);
  noteRpcListedIds(c, step);
  noteLocationRow(c, step);
  noteQueryRows(c, step);
  noteRowPages(c, step);
  noteLinkedQueryRows(c, step);
  noteRowLinks(c, step);
  noteLinkedRows(c, step);
  noteListedNames(c, step);
  noteSearchedRows(c, step);
  noteMarkedRows(c, step);
  // After the body: a 201 that answers the resource too is better read by its JSON id.
  produceLocationIds(c, step);
  // Last: a value a body or cookie also handed out is better read from there.
  produceHeaders(c, step);
}

/**
 * Whether the value under `k` so far comes from a cookie. A page or JSON
 * body that hands out the same value (a double-submit CSRF token in a
 * `<meta>` and in a cookie) is the better source for everything but the
 * `Cookie` header: a server may percent-encode a cookie (`+`, `/`, `=` of
 * base64), so the cookie's text is not always the value the page's script
 * sends, even when the recorded one happened to need no encoding.
 */
function fromCookie(c: Correlator, k: string): boolean {
  return c.producers.get(k)?.source.kind === "cookie";
}

/** Makes `producer` the source of `value`, in place of a cookie that handed it out first. */
function setProducer(c: Correlator, k: string, value: string, producer: Producer): void {
  const old = c.producers.get(k);
  const p = old?.secret ? { ...producer, secret: true } : producer;
  c.producers.set(k, p);
  const at = old ? c.tokens.findIndex(([, t]) => t === old) : -1;
  if (at !== -1) c.tokens.splice(at, 1);
  if (p.secret) c.tokens.push([value, p]);
}

/**
 * The browser's cookie store after `host` set (or deleted) `cookie` under `path`
 * (`cookie_paths.ts`; `/` unless said).
 *
 * @example
 * ```ts
 * import { holdCookie } from "./producers.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * holdCookie(c, "a.test", { name: "sid", value: "1" });
 * holdCookie(c, "a.test", { name: "sid", value: "deleted" });
 * if (c.jar.get("a.test")?.size !== 0) throw new Error();
 * ```
 */
export function holdCookie(
  c: Correlator,
  host: string,
  cookie: { name: string; value: string },
  path = "/",
): void {
  const held = c.jar.get(host) ?? new Map<string, string>();
  c.jar.set(host, held);
  const key = jarKey(cookie.name, path);
  if (cookie.value === "" || cookie.value === "deleted") held.delete(key);
  else held.set(key, cookie.value);
}

/** Whether `r` is a page whose values may be handed out. */
function isPage(r: HarRecord): r is HarRecord & { responseText: string } {
  return r.responseText !== undefined && /html/.test(r.mimeType);
}

/**
 * What an unlinked conversion keeps of a response: the cookies the browser
 * held and which values are secrets (so none is written), but no producer.
 */
function produceNothing(c: Correlator, step: Step): void {
  const r = step.last;
  for (const cookie of r.setCookies) {
    holdCookie(c, r.url.host, cookie, cookiePath(r, cookie.name));
    if (cookie.value.length >= 4 && isCredentialCookie(cookie.name, cookie.value, c.byHand)) {
      c.secrets.add(cookie.value);
    }
  }
  if (isPage(r)) {
    for (const v of pageValues(r.responseText, r.url.origin)) {
      if (v.secret && isSecretShaped(v.value)) c.secrets.add(v.value);
    }
  }
  if (!r.hasJson) return;
  walk(r.json, (_p, key, leaf) => {
    const k = valueKey(leaf);
    const word = typeof leaf === "string" && c.apiWords.has(leaf);
    if (looksLikeToken(key, leaf) && !word && !c.sentSeen.has(k)) c.secrets.add(leaf as string);
    c.responseSeen.add(k);
  });
}

/** A cookie the response set is session state: later requests carry it by a capture. */
function produceCookies(c: Correlator, step: Step): void {
  const r = step.last;
  for (const cookie of r.setCookies) {
    holdCookie(c, r.url.host, cookie, cookiePath(r, cookie.name));
    const k = valueKey(cookie.value);
    if (cookie.value.length < 4 || isAnalyticsCookie(cookie.name) || c.producers.has(k)) continue;
    // A preference or anonymous cookie is carried whole, never searched for or masked.
    const secret = isCredentialCookie(cookie.name, cookie.value, c.byHand);
    // A name of the instance's own is read by a pattern: a fresh instance sets another name.
    const named = instanceName(step, cookie.name, cookie.value);
    if (named) c.cookieNames.set(cookie.name, named.name);
    const producer: Producer = named
      ? { ...named.value, secret }
      : { step, source: { kind: "cookie", name: cookie.name }, secret };
    c.cookieProducers.set(`${cookie.name}=${cookie.value}`, producer);
    c.producers.set(k, producer);
    if (!secret) continue;
    c.tokens.push([cookie.value, producer]);
    c.secrets.add(cookie.value);
  }
}

/**
 * A page's CSRF token, form token, config key or data- id: found again in
 * the fresh page by a pattern. Ids are matched whole; secrets also inside
 * longer text, and masked.
 */
function producePage(c: Correlator, step: Step): void {
  const r = step.last;
  if (!isPage(r)) return;
  for (const v of pageValues(r.responseText, r.url.origin)) {
    const k = valueKey(v.value);
    if ((c.producers.has(k) && !fromCookie(c, k)) || c.apiWords.has(v.value)) continue;
    // A path, a URL or a word (`/dashboard`, `authenticity_token`) is a constant, not a secret;
    // so is a value a request sent before: the user typed it, the page shows it back (a SKU).
    // A form's field (urlencoded, not in sentSeen) typed it too: a part number shown back.
    const secret = v.secret && isSecretShaped(v.value) && !c.sentSeen.has(k) &&
      !sentAnywhere(c, v.value);
    if (!secret && !v.state && !looksLikeId(v.name, v.value)) continue;
    const producer: Producer = {
      step,
      source: pageSource(v),
      secret,
    };
    setProducer(c, k, v.value, producer);
    if (secret) c.secrets.add(v.value);
  }
}

/** Where a fresh page holds `v`: its pattern, its escapes undone when a script's string wrote it. */
function pageSource(v: PageValue): Source {
  const source = { kind: "regex", name: v.name, pattern: v.pattern } as const;
  if (v.encoded !== undefined) return { ...source, as: "url-decoded" };
  return v.raw === undefined ? source : { ...source, as: "json-string" };
}

/**
 * An OAuth provider hands out the authorization code only in its redirect's Location; other
 * redirects name a page by readable values (`dn=cn=Ada Lighthouse,dc=…`, `refresh=tree_nodes`).
 * Each is captured where sent again, but only a token-shaped one is a secret: a masked name
 * would be masked inside every value sharing its words, and sent as `***`.
 */
function produceLocation(c: Correlator, step: Step): void {
  for (const [name, value] of locationParams(step.last)) {
    const k = valueKey(value);
    // A field the form sent, named back by its redirect (`?mimetype=text/x-markdown`): the client's.
    if (c.producers.has(k) || c.sentSeen.has(k) || sentSoFar(c, name, value)) continue;
    const secret = isSecretShaped(value);
    const producer: Producer = {
      step,
      source: { kind: "header", name: "location", query: name },
      secret,
    };
    c.producers.set(k, producer);
    if (!secret) continue;
    c.tokens.push([value, producer]);
    c.secrets.add(value);
  }
}

/**
 * A `201` (or redirect) that names what it made only by its `Location`:
 * each id of that path, found again in the fresh header by a pattern. A
 * value the client sent before (a slug it chose) is its own, not handed out.
 */
function produceLocationIds(c: Correlator, step: Step): void {
  for (const { value, pattern } of locationIds(step.last)) {
    // A row number goes back as text in paths and as a number in JSON bodies: two captures
    // of one pattern, each written only where it is used.
    const typed = /^[1-9]\d{0,14}$/.test(value) ? [Number(value), value] : [value];
    for (const v of typed) {
      const k = valueKey(v);
      if (c.producers.has(k) || c.sentSeen.has(k)) continue;
      const number = typeof v === "number" ? { as: "number" as const } : {};
      c.producers.set(k, {
        step,
        source: { kind: "header", name: "location", regex: pattern, ...number },
        secret: false,
      });
    }
  }
}

/** A JSON body's ids, tokens and cursors, each at its path. */
function produceJson(c: Correlator, step: Step): void {
  const r = step.last;
  if (!r.hasJson) return;
  walk(r.json, (path, key, leaf) => {
    // A name the API uses (a table listed under `foreign_key_table`) is the same everywhere.
    if (typeof leaf === "string" && c.apiWords.has(leaf)) return;
    const k = valueKey(leaf);
    // What the client sent before (a table's name in a path) is no token the server issued.
    const secret = looksLikeToken(key, leaf) && !c.sentSeen.has(k);
    if (
      (secret || instanceValue(r, key, leaf)) && (!c.producers.has(k) || fromCookie(c, k)) &&
      !c.sentSeen.has(k)
    ) {
      const producer: Producer = { step, source: { kind: "json", path }, secret };
      setProducer(c, k, leaf as string, producer);
      produceAlso(c, r, leaf, producer);
    }
    if (secret) c.secrets.add(leaf as string);
  });
  walk(r.json, (_p, _k, leaf) => c.responseSeen.add(valueKey(leaf)));
}

/** Where else a JSON leaf's producer is the source: inside longer text, or as text. */
function produceAlso(c: Correlator, r: HarRecord, leaf: unknown, producer: Producer): void {
  // Sent back as text too (a header, a query): the same answer is its source.
  if (isHandedNumber(leaf)) produceNumberText(c, leaf, producer);
  // A client builds on an instance's folder (Syncthing's home and a label), or puts what a
  // create made into a filter or a list (`filter=id:<id>`): found inside longer text too,
  // as whole segments or between characters that are no letters or digits (tokens.ts).
  if (!producer.secret && typeof leaf === "string" && (isInstancePath(leaf) || isMadeId(r, leaf))) {
    c.tokens.push([leaf, producer]);
  }
}

/**
 * Whether `leaf` is the port the recorded server answered on (a settings
 * answer's own web port): that instance's, which a fresh one picks anew. A
 * default port (none in the URL) is the same everywhere.
 */
function ownPort(r: HarRecord, leaf: unknown): boolean {
  return typeof leaf === "number" && r.url.port !== "" && leaf === Number(r.url.port);
}

/** Whether a JSON leaf of `r`'s answer that is no token is one the instance handed out. */
function instanceValue(r: HarRecord, key: string, leaf: unknown): boolean {
  return handedOut(key, leaf) || ownPort(r, leaf) || ownAddress(r, leaf);
}

/**
 * Whether `leaf` is a URL on the origin that answered it (an OData answer's
 * `@odata.editLink`, `http://127.0.0.1:42569/odata/templates('…')`): the
 * instance's own address, which a fresh one has anew.
 */
function ownAddress(r: HarRecord, leaf: unknown): boolean {
  if (typeof leaf !== "string") return false;
  const origin = r.url.origin;
  return leaf.startsWith(origin) && /^($|[/?#])/.test(leaf.slice(origin.length));
}

/** Whether a JSON leaf that is no token is still a value a later request may send back. */
function handedOut(key: string, leaf: unknown): boolean {
  if (looksLikeId(key, leaf)) return true;
  // Evidence, whatever the key (`"map": 2152313847`): only an answer gives seven digits.
  if (isHandedNumber(leaf)) return true;
  if (typeof leaf !== "string") return false;
  // A cursor is handed out whole, whatever its alphabet (base64 padding included).
  if (isCursorKey(key) && leaf.length >= 8) return true;
  // Evidence, whatever the key: opaque text (a nonce in base64) only a response could give;
  // letters and digits both, so a media type or a word list (`image/svg+xml`) is not one.
  if (isSecretShaped(leaf) && !/[\s@]/.test(leaf) && /\d/.test(leaf) && /[a-z]/i.test(leaf)) {
    return true;
  }
  // Digit groups an answer numbered (a revision, `1-2902191555`): no word, no amount, no date.
  if (isDigitGroups(leaf)) return true;
  return isInstancePath(leaf) || isServerTime(leaf);
}

/**
 * Whether `value` is an opaque id a create (`POST`, `PUT`, `PATCH`; 2xx) answered with: 12 or
 * more letters and digits, both (an ObjectId, a UUID), never a number or a word, so that its
 * characters inside longer text can be nothing else.
 */
function isMadeId(r: HarRecord, value: string): boolean {
  if (!/^(POST|PUT|PATCH)$/.test(r.method) || !r.status || r.status < 200 || r.status > 299) {
    return false;
  }
  return /^[\w-]{12,}$/.test(value) && /\d/.test(value) && /[a-z]/i.test(value);
}

/**
 * Whether `value` is a date with a time of day (`2026-11-26T20:27:52.000Z`,
 * `2026-11-26 20:27:52`, an offset): the moment the server stored a record,
 * which a later write may have to send back (an edit's collision check on
 * `updated_at`). Produced only where no request sent it first; a date
 * alone (a day the user picked) is not one.
 */
function isServerTime(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/.test(value);
}

/**
 * Whether `value` is a path with an opaque piece (an instance's folder
 * `/tmp/app-ec31010c/downloads`, a storage key): the server's own state,
 * which a fresh instance names otherwise. A path of words (`/api/items`) is
 * the API's, the same everywhere.
 */
function isInstancePath(value: string): boolean {
  if (!value.startsWith("/") || value.length > 500 || /\s/.test(value)) return false;
  return value.split("/").some((segment) => looksLikeId("", segment));
}
