/**
 * A request's headers rewritten for replay: noise dropped, the session's
 * `Cookie` and `Authorization` rewritten (`credentials.ts`), a produced
 * value captured, a header the server wants fresh generated, a secret one
 * made a required variable, `If-Match` taken from the ETag a response gave.
 *
 * @module
 */
import { clientSessionId } from "./client_sessions.ts";
import { isSecretHeader, isSecretName } from "../../secrets/mod.ts";
import type { HarRecord, NameValue } from "../har_model.ts";
import type { Step } from "../model.ts";
import { envName } from "../names.ts";
import { cleanHeaders, isAnalyticsCookie } from "../noise_headers.ts";
import { FRESH_HEADER } from "../polls.ts";
import { isCredentialCookie } from "../values.ts";
import { useProducer } from "./captures.ts";
import { authorization, cookieHeader } from "./credentials.ts";
import { basicHeader } from "./basic_header.ts";
import { companionUrl } from "./companion_urls.ts";
import { freshValue } from "./ids.ts";
import { madeIdsIn } from "./made_ids.ts";
import { producedIdsIn } from "./inner_ids.ts";
import { originHeader } from "./origin_header.ts";
import { refererHeader } from "./referer_header.ts";
import { type Correlator, secretEnv } from "./state.ts";
import { withTokens } from "./tokens.ts";
import { literalKey } from "./script_literals.ts";
import { sentTo } from "./cookie_paths.ts";

/**
 * The request headers of `step` (the default rule).
 *
 * @example
 * ```ts
 * import { headers } from "./rewrite_headers.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * const r = { url: new URL("https://a.test/"), cookies: [], headers: [{ name: "Idempotency-Key", value: "6f1c2b7e-8d4a-4e3f-9a1b-c5d6e7f80912" }] };
 * // deno-lint-ignore no-explicit-any
 * const out = headers(c, r as any, { uses: new Set() } as any);
 * if (JSON.stringify(out) !== '[["idempotency-key","${RANDOM.UUID}"]]') throw new Error(JSON.stringify(out));
 * ```
 */
export function headers(c: Correlator, r: HarRecord, step: Step): [string, string][] {
  const cookieValues = new Set(
    r.cookies.filter((cookie) =>
      !isAnalyticsCookie(cookie.name) && cookie.value.length >= 4 &&
      isCredentialCookie(cookie.name, cookie.value, c.byHand)
    ).map((cookie) => cookie.value),
  );
  const cleaned = cleanHeaders(r.headers);
  fillFromJar(c, r, cleaned);
  const out: [string, string][] = [];
  for (const { name, value } of cleaned) {
    const template = headerValue(c, r, step, name, value, cookieValues);
    if (template !== undefined) out.push([headerName(c, name, step), template]);
  }
  const match = ifMatch(c, r, step);
  if (match) out.push(["if-match", match]);
  const origin = originHeader(c, r, out);
  if (origin) out.push(origin);
  const referer = refererHeader(c, r, out);
  if (referer) out.push(referer);
  return out;
}

/**
 * Some producers (chrome-har, when DevTools sent the request's extra info
 * late) record a request without the cookies the browser sent: it sent the
 * ones earlier responses set, and those the dropped requests show it held
 * (`held_cookies.ts`: a `Set-Cookie` lost too). A curl command sent the
 * cookies it names, no others.
 */
function fillFromJar(c: Correlator, r: HarRecord, cleaned: NameValue[]): void {
  if (r.cookiesAsWritten) return;
  if (r.cookies.length > 0 || cleaned.some((h) => h.name === "cookie")) return;
  // Each cookie the browser held for the request's path, the longest path first.
  const held = sentTo(c.jar.get(r.url.host) ?? new Map(), r.url.pathname);
  for (const { name, value } of c.heldCookies.get(r) ?? []) {
    if (!held.some((k) => k.name === name)) held.push({ name, value });
  }
  if (held.length === 0) return;
  r.cookies = held;
  cleaned.unshift({ name: "cookie", value: "" });
  c.jarFilled++;
}

/**
 * A header's name as the flow writes it: one named for the instance's piece
 * of a cookie's name (Syncthing's `X-CSRF-Token-2EWQW` beside the cookie
 * `CSRF-Token-2EWQW`) names it by the piece's capture, as the cookie is
 * named, since a fresh instance names both otherwise.
 */
function headerName(c: Correlator, name: string, step: Step): string {
  for (const named of c.cookieNames.values()) {
    const at = name.toLowerCase().indexOf(named.piece.toLowerCase());
    if (at < 0) continue;
    const piece = useProducer(c, named.producer, step);
    return c.sp.lit(name.slice(0, at)) + piece + c.sp.lit(name.slice(at + named.piece.length));
  }
  // A name is a template in a flow: a recorded "${" is text, written "$${".
  return c.sp.lit(name);
}

/** A switch's value: `0`, `1`, `true`, `false`, `yes`, `no`, `on`, `off`. */
const FLAG = /^(?:[01]|true|false|yes|no|on|off)$/i;

/**
 * Whether a header states a choice, never a credential: a flag under a name that ends with
 * "session" or "auth" (`X-Parse-Revocable-Session: 1`, `X-Use-Auth: true`), words that name a
 * mode there, not a value. Asked as a secret, it was one more variable to set, and a run masked
 * every `1` of its report. A key, a token or a password stays a credential whatever it is
 * written as (`x-api-key: true` is a placeholder for the user's key).
 */
function isSwitch(name: string, value: string): boolean {
  const last = name.split(/[-_.\s]/).pop()?.toLowerCase();
  return (last === "session" || last === "auth") && FLAG.test(value.trim());
}

/** One header's template; `undefined` drops it (a `Cookie` with nothing left). */
function headerValue(
  c: Correlator,
  r: HarRecord,
  step: Step,
  name: string,
  value: string,
  cookieValues: Set<string>,
): string | undefined {
  if (name === "cookie") return cookieHeader(c, r, step);
  if (name === "authorization" || name === "proxy-authorization") {
    return authorization(c, name, value, step);
  }
  const p = c.rules.producerFor(value);
  if (p) return useProducer(c, p, step);
  // Basic credentials in a header of the page's own: the step's auth builds it (basic_header.ts).
  if (basicHeader(c, name, value, step)) return undefined;
  // Values the server expects fresh on every request: never a required variable,
  // even when the name looks secret (Idempotency-Key ends in "key").
  if (FRESH_HEADER.test(name)) {
    c.replaced.generated++;
    return freshValue(value);
  }
  const csrf = /csrf|xsrf/i.test(name);
  // A word the app's own script sends under this name (`headers.Pass = "all"`): every user's.
  if (c.scriptLiterals.has(literalKey(name, value))) return c.sp.lit(value);
  // A session id the page made, no answer issued (client_sessions.ts): the run's own, not asked.
  const made = clientSessionId(c, name.replace(/^x-/, ""), value, r.started);
  if (made) return made;
  const named = (isSecretHeader(name) || isSecretName(name)) && !isSwitch(name, value);
  if (named || csrf || cookieValues.has(value)) {
    return secretHeader(c, step, name, value, csrf);
  }
  // Another local service's address the user typed (`X-Upstream: http://10.0.0.5/`): a var.
  const companion = companionUrl(c, name.replace(/^x-/, ""), value, step);
  if (companion) return companion;
  // An id the browser made, sent in any header (`X-Actual-File-Id`): the run's own (made_ids.ts);
  // one an answer produced, inside the value (`hx-target: edit-form-<id>`): its capture (inner_ids.ts).
  const ids = [...madeIdsIn(c, value, name.replace(/^x-/, "")), ...producedIdsIn(c, value, step)];
  return withTokens(c, value, step, ids);
}

/** A secret header: its produced tokens, else a required variable. */
function secretHeader(
  c: Correlator,
  step: Step,
  name: string,
  value: string,
  csrf: boolean,
): string {
  const tokenised = withTokens(c, value, step);
  if (tokenised !== c.sp.lit(value)) return tokenised;
  const base = name === "x-api-key"
    ? "API_KEY"
    : csrf
    ? "CSRF_TOKEN"
    : envName(name.replace(/^x-/, ""));
  c.replaced.secrets++;
  return c.sp.envRef(secretEnv(c, base, value, `the value of the "${name}" header`));
}

/**
 * `If-Match` from the `ETag` of the response before it, else from the answer that printed the
 * value (a document store's `"rev": "1-…"`); one no response gave is kept, noted.
 */
function ifMatch(c: Correlator, r: HarRecord, step: Step): string | undefined {
  const found = c.handed.ifMatch(r);
  if (!found) return undefined;
  const printed = found.producer ? undefined : c.rules.producerFor(found.value);
  if (printed) return useProducer(c, printed, step);
  if (!found.producer) {
    c.strayIfMatch.push(step.name);
    return c.sp.lit(found.value);
  }
  return useProducer(c, { ...found.producer, secret: false }, step);
}
