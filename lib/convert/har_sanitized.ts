/**
 * Chrome DevTools' default HAR export, "Export HAR (sanitized)" (Chrome 130
 * and later), leaves out every request's `Cookie` and `Authorization`
 * header and every answer's `Set-Cookie`, and empties both `cookies`
 * arrays; it names its creator `WebInspector`. Such a recording still holds
 * what the session was made of, only not what carried it: this stage puts
 * back what the recording itself shows and says once what it cannot.
 *
 * - The cookies: a browser keeps those its server sets, so the flow does
 *   too (`options: {cookie_jar: true}`): the live server's own cookies go
 *   back with the later requests, as they did in the browser.
 * - An OAuth 2 token answer (`access_token` with `token_type` Bearer, RFC
 *   6749 §5.1) says how the token is used: `Authorization: Bearer` (RFC
 *   6750). The later calls a script sent to that origin (`xhr`, `fetch`:
 *   only a script sets the header) carry it, the correlation captures it
 *   from the live answer. Any other credential is not guessed.
 *
 * @module
 */
import type { HarRecord, ParsedHar } from "./har_model.ts";
import { isObject } from "./_har_fields.ts";

/** The request headers the sanitized export leaves out, lower-cased. */
const STRIPPED = new Set(["authorization", "cookie"]);
/** Resource types a script sends, the only requests that can carry `Authorization`. */
const SCRIPTED = new Set(["xhr", "fetch"]);

/**
 * Whether `parsed` is DevTools' sanitized export: creator `WebInspector`
 * and no cookie or `Authorization` anywhere, in a headers list or an array.
 *
 * @example
 * ```ts
 * import { isSanitized } from "./har_sanitized.ts";
 * import { parseHar } from "./har_model.ts";
 * const har = (name: string, headers: unknown[]) => JSON.stringify({ log: {
 *   creator: { name }, entries: [{ request: { method: "GET", url: "http://a.test/", headers },
 *     response: { status: 200, content: { mimeType: "text/html", text: "" } } }] } });
 * if (!isSanitized(parseHar(har("WebInspector", []), []))) throw new Error();
 * const sent = [{ name: "Cookie", value: "s=1" }];
 * if (isSanitized(parseHar(har("WebInspector", sent), []))) throw new Error("it sent a cookie");
 * if (isSanitized(parseHar(har("Playwright", []), []))) throw new Error("another producer");
 * ```
 */
export function isSanitized(parsed: ParsedHar): boolean {
  return parsed.creator === "WebInspector" &&
    parsed.records.every((r) =>
      r.cookies.length === 0 && r.setCookies.length === 0 &&
      !r.headers.some((h) => STRIPPED.has(h.name.toLowerCase()))
    );
}

/** The OAuth 2 bearer token `r`'s JSON answer hands out, if it is one. */
function bearerToken(r: HarRecord): string | undefined {
  if (r.status === undefined || r.status < 200 || r.status > 299 || !isObject(r.json)) return;
  const { access_token: token, token_type: type } = r.json;
  return typeof token === "string" && token !== "" && typeof type === "string" &&
      type.toLowerCase() === "bearer"
    ? token
    : undefined;
}

/**
 * Gives the later scripted calls of each origin whose OAuth 2 token answer
 * is in `ordered` that token as `Authorization: Bearer`, a later answer's
 * token replacing an earlier one; the requests whose answers handed one out.
 *
 * @example
 * ```ts
 * import { sendBearerTokens } from "./har_sanitized.ts";
 * import type { HarRecord } from "./har_model.ts";
 * const r = (path: string, json?: unknown) => ({ method: "GET", url: new URL(`http://a.test${path}`),
 *   headers: [], status: 200, resourceType: "fetch", json } as unknown as HarRecord);
 * const calls = [r("/api/me"), r("/token", { access_token: "t1", token_type: "Bearer" }), r("/api/x")];
 * const from = sendBearerTokens(calls);
 * if (from.length !== 1 || calls[0].headers.length !== 0) throw new Error("not before the answer");
 * if (calls[2].headers[0].value !== "Bearer t1") throw new Error(JSON.stringify(calls[2].headers));
 * ```
 */
export function sendBearerTokens(ordered: HarRecord[]): HarRecord[] {
  const tokens = new Map<string, string>();
  const from: HarRecord[] = [];
  for (const r of ordered) {
    const token = tokens.get(r.url.origin);
    const scripted = r.resourceType === undefined || SCRIPTED.has(r.resourceType);
    if (token && scripted) r.headers.push({ name: "Authorization", value: `Bearer ${token}` });
    const handed = bearerToken(r);
    if (handed) tokens.set(r.url.origin, handed);
    if (handed) from.push(r);
  }
  return from;
}

/**
 * The summary's one note on a sanitized recording: how it was told, what the
 * flow does instead, what cannot be known and how to export it whole.
 *
 * @example
 * ```ts
 * import { sanitizedNote } from "./har_sanitized.ts";
 * if (!sanitizedNote([]).includes("Export HAR (with sensitive data)")) throw new Error();
 * ```
 */
export function sanitizedNote(tokenAnswers: HarRecord[]): string {
  const bearer = tokenAnswers.length === 0 ? "" : `, and the later calls a script sent send the ` +
    `Bearer token ${
      [...new Set(tokenAnswers.map((r) => `${r.method} ${r.url.pathname}`))].join(", ")
    } answered (its token_type)`;
  return `The recording is Chrome DevTools' sanitized export (creator WebInspector; no Cookie, ` +
    `Set-Cookie or Authorization header anywhere): the run keeps the cookies the live server sets ` +
    `(options: cookie_jar)${bearer}. A cookie a script set, or a credential the browser sent in ` +
    `those headers that no answer shows, cannot be known: if a step is refused (401, 403, a login ` +
    `page), export again with "Export HAR (with sensitive data)" (DevTools settings: Allow to ` +
    `generate HAR with sensitive data).`;
}
