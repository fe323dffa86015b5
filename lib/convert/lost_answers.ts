/**
 * Answers the recording lost, read from a later answer of the same endpoint.
 *
 * A sign-in page posts the form, stores the token the answer holds and
 * reloads at once: the browser drops the body of an answer whose page is
 * gone, so the HAR keeps the status and no text. The next request sends that
 * token (`Authorization: Bearer …`, to renew it, or to read), and since no
 * recorded answer holds it, the flow asked the user for a token nobody can
 * know and failed right after the sign-in on a fresh instance.
 *
 * The evidence, all of it from the recording:
 * - the lost answer succeeded (2xx, not 204) and has no text;
 * - a later answer of the same method and path was recorded, and holds a
 *   value (a string of at least {@linkcode MIN_VALUE} characters) that a
 *   request after it sends in a header, with what stands around it there
 *   (`Bearer `), or as a query parameter;
 * - between the lost answer and that later one (its request included), a
 *   request sends a value in that same place which no earlier request sent
 *   and no earlier answer held: the lost answer is where it came from. It
 *   may be the very value the later answer holds: a token signed from the
 *   same claims within the same second is the same token (seen on Redis
 *   Commander, whose renewal answered the token it was sent).
 *
 * The lost answer is then read as holding that value where the later one
 * holds its own (`{"bearerToken": …}`), so the step captures it as any
 * other; the flow's notes say so.
 *
 * With no later answer of the endpoint, the request can still say what its
 * answer held: a body with `grant_type` is an OAuth2 token request, whose
 * success RFC 6749 §5.1 defines as JSON with `access_token` (seen on a loaded
 * machine, where Node-RED's `POST /auth/token` kept no text). The token first
 * sent after it as a Bearer credential or an `access_token` query parameter
 * (RFC 6750), which no earlier request sent and no earlier answer held, is
 * read as that member.
 *
 * @module
 */
import type { HarRecord } from "./har_model.ts";
import { walk } from "./json.ts";
import { sentJwts } from "./lost_jwt.ts";

/** The shortest value read this way: a token, never a flag or a short word that recurs. */
export const MIN_VALUE = 12;

/** Where a request sends a value: a header, with what stands around it, or a query parameter. */
type Place = { header: string; before: string; after: string } | { query: string };

/** The places where `r` sends exactly `value` (a whole query parameter, or inside a header). */
function placesOf(r: HarRecord, value: string): Place[] {
  const places: Place[] = [];
  for (const h of r.headers) {
    const at = h.value.indexOf(value);
    if (at < 0) continue;
    const header = h.name.toLowerCase();
    places.push({ header, before: h.value.slice(0, at), after: h.value.slice(at + value.length) });
  }
  for (const [query, v] of r.url.searchParams) if (v === value) places.push({ query });
  return places;
}

/** What `r` sends at `place`, if it sends anything there. */
function valueAt(r: HarRecord, place: Place): string | undefined {
  if ("query" in place) return r.url.searchParams.get(place.query) ?? undefined;
  for (const h of r.headers) {
    if (h.name.toLowerCase() !== place.header) continue;
    const { before, after } = place;
    if (!h.value.startsWith(before) || !h.value.endsWith(after)) continue;
    const v = h.value.slice(before.length, h.value.length - after.length);
    if (v !== "") return v;
  }
  return undefined;
}

/** Whether a request up to `last` (included) sent `value`, or an answer before `until` held it. */
function seenBefore(records: HarRecord[], last: number, until: number, value: string): boolean {
  for (let k = 0; k < until; k++) {
    const r = records[k];
    if (k <= last && JSON.stringify(r.raw.request ?? {}).includes(value)) return true;
    const response = r.raw.response as Record<string, unknown> | undefined;
    if (r.responseText?.includes(value)) return true;
    if (JSON.stringify(response?.headers ?? []).includes(value)) return true;
  }
  return false;
}

/** Whether `r` succeeded and the recording holds nothing of what it answered. */
function lost(r: HarRecord): boolean {
  if (r.status === undefined || r.status < 200 || r.status >= 300 || r.status === 204) return false;
  return !r.hasJson && (r.responseText ?? "") === "";
}

/** Sets `value` at `path` in `target`, making the objects on the way. */
function setAt(target: Record<string, unknown>, path: string[], value: string): void {
  let at = target;
  for (const key of path.slice(0, -1)) {
    if (typeof at[key] !== "object" || at[key] === null) at[key] = {};
    at = at[key] as Record<string, unknown>;
  }
  at[path[path.length - 1]] = value;
}

/** The values the answer of `records[i]` held, read from the later answer `records[j]`. */
function heldValues(records: HarRecord[], i: number, j: number): [string[], string][] {
  const held: [string[], string][] = [];
  walk(records[j].json, (path, _key, leaf) => {
    if (typeof leaf !== "string" || leaf.length < MIN_VALUE) return;
    if (!path.every((p): p is string => typeof p === "string")) return;
    const user = records.slice(j + 1).find((t) => placesOf(t, leaf).length > 0);
    if (!user) return;
    for (const place of placesOf(user, leaf)) {
      for (let k = i + 1; k <= j; k++) {
        const value = valueAt(records[k], place);
        // The same value may come back: a token signed from the same claims within one second.
        if (value === undefined || value.length < MIN_VALUE) continue;
        if (seenBefore(records, i, k, value)) continue;
        held.push([path, value]);
        return;
      }
    }
  });
  return held;
}

/** The `grant_type` an OAuth2 token request's body (a form, or JSON) sends, if it sends one. */
function grantType(r: HarRecord): string | undefined {
  if (r.method !== "POST" || !r.bodyText) return undefined;
  if (r.bodyMime === "application/x-www-form-urlencoded") {
    return new URLSearchParams(r.bodyText).get("grant_type") || undefined;
  }
  try {
    const body = JSON.parse(r.bodyText);
    return typeof body?.grant_type === "string" && body.grant_type !== ""
      ? body.grant_type
      : undefined;
  } catch {
    return undefined;
  }
}

/** The places RFC 6750 lets a client send an OAuth2 access token. */
const TOKEN_PLACES: Place[] = [
  { header: "authorization", before: "Bearer ", after: "" },
  { header: "authorization", before: "bearer ", after: "" },
  { query: "access_token" },
];

/** The first token sent after `records[i]` (before the next grant) that nothing earlier sent or held. */
function firstNewToken(records: HarRecord[], i: number): { k: number; value: string } | undefined {
  for (let k = i + 1; k < records.length && grantType(records[k]) === undefined; k++) {
    for (const place of TOKEN_PLACES) {
      const value = valueAt(records[k], place);
      if (value === undefined || value.length < MIN_VALUE) continue;
      if (!seenBefore(records, i, k, value)) return { k, value };
    }
  }
  return undefined;
}

/** The access token the lost answer of the grant `records[i]` held: the first new one sent after it. */
function grantedToken(records: HarRecord[], i: number): [string[], string][] {
  const first = firstNewToken(records, i);
  return first ? [[["access_token"], first.value]] : [];
}

/** What the lost answer of `records[i]` held, as (path, value) pairs; none when nothing says. */
function lostValues(records: HarRecord[], i: number): [string[], string][] {
  const r = records[i];
  const j = records.findIndex((s, k) =>
    k > i && s.method === r.method && s.url.origin === r.url.origin &&
    s.url.pathname === r.url.pathname && s.hasJson && typeof s.json === "object" &&
    s.json !== null && !Array.isArray(s.json)
  );
  const held = j < 0 ? [] : heldValues(records, i, j);
  return held.length > 0 || grantType(r) === undefined ? held : grantedToken(records, i);
}

/** The first JSON Web Token sent after `records[i]` that nothing earlier sent or held (`lost_jwt.ts`). */
function firstNewJwt(records: HarRecord[], i: number): { k: number; value: string } | undefined {
  for (let k = i + 1; k < records.length; k++) {
    for (const value of sentJwts(records[k])) {
      if (value.length >= MIN_VALUE && !seenBefore(records, i, k, value)) return { k, value };
    }
  }
  return undefined;
}

/**
 * Whether the lost answer `records[i]` is read as holding a JSON Web Token
 * (`lost_jwt.ts`): the first new one sent after it, when no other lost
 * answer comes between. True too when a later lost answer is where it came
 * from: this one then holds nothing said, and no note is due.
 */
function readLostJwt(records: HarRecord[], i: number, notes: string[]): boolean {
  const jwt = firstNewJwt(records, i);
  if (!jwt) return false;
  if (records.slice(i + 1, jwt.k).some(lost)) return true;
  const r = records[i];
  r.lostJwt = jwt.value;
  notes.push(
    `The answer of ${r.method} ${r.url.origin}${r.url.pathname} is lost from the recording ` +
      `(the browser kept its status, not its text), and ${records[jwt.k].method} ` +
      `${records[jwt.k].url.pathname} after it sends a JSON Web Token no recorded answer holds: ` +
      `it is captured from that answer by the token's shape (eyJ….….…).`,
  );
  return true;
}

/** Why a token first sent by `user` is asked for: the answer `r` that likely held it is lost. */
function unreadNote(r: HarRecord, user: HarRecord): string {
  return `The answer of ${r.method} ${r.url.origin}${r.url.pathname} is lost from the recording ` +
    `(the browser kept its status, not its text), and ${user.method} ${user.url.pathname} ` +
    `after it sends a token no recorded answer holds: it is asked for. Record the journey again ` +
    `so that answer is kept, and the token is captured from it.`;
}

/**
 * Reads each lost answer of `records` (in session order, bodies loaded) from
 * a later answer of its endpoint (see the module); one note per answer read.
 *
 * @example
 * ```ts
 * import { readLostAnswers } from "./lost_answers.ts";
 * const rec = (index: number, method: string, url: string, headers: { name: string; value: string }[], json?: unknown) => ({
 *   index, method, url: new URL(url), headers, cookies: [], setCookies: [], status: 200, mimeType: "",
 *   hasJson: json !== undefined, json, responseText: json === undefined ? undefined : JSON.stringify(json),
 *   raw: { request: { url, headers }, response: {} },
 * });
 * const first = "tk.9f1c2e7a4b6d8e0f", second = "tk.0a9b8c7d6e5f4a3b";
 * const records = [
 *   rec(0, "POST", "http://a.test/signin", []),
 *   rec(1, "POST", "http://a.test/signin", [{ name: "Authorization", value: `Bearer ${first}` }], { token: second }),
 *   rec(2, "GET", "http://a.test/items", [{ name: "Authorization", value: `Bearer ${second}` }], {}),
 * ];
 * const notes: string[] = [];
 * // deno-lint-ignore no-explicit-any
 * readLostAnswers(records as any, notes);
 * if (records[0].responseText !== JSON.stringify({ token: first }) || notes.length !== 1) throw new Error(notes.join());
 * ```
 */
export function readLostAnswers(records: HarRecord[], notes: string[]): void {
  records.forEach((r, i) => {
    if (!lost(r)) return;
    const held = lostValues(records, i);
    if (held.length === 0) {
      // Nothing says where the token was, but a JSON Web Token says what it is.
      if (readLostJwt(records, i, notes)) return;
      // Nothing says where the token was: the user is asked for it, and told why and what helps.
      const first = firstNewToken(records, i);
      if (first) notes.push(unreadNote(r, records[first.k]));
      return;
    }
    const json: Record<string, unknown> = {};
    for (const [path, value] of held) setAt(json, path, value);
    r.json = json;
    r.hasJson = true;
    r.responseText = JSON.stringify(json);
    if (r.mimeType === "") r.mimeType = "application/json";
    const where = held.map(([path]) => path.join(".")).join(", ");
    const source = grantType(r) !== undefined && held[0][0][0] === "access_token"
      ? "an OAuth2 token answer holds it (RFC 6749)"
      : "the endpoint's later answer holds it";
    notes.push(
      `The answer of ${r.method} ${r.url.origin}${r.url.pathname} is lost from the recording ` +
        `(the browser kept its status, not its text): it is read as holding ${where} where ` +
        `${source}, the value the requests after it sent.`,
    );
  });
}
