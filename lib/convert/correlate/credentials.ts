/**
 * The two headers that carry a session: `Authorization` (a produced token,
 * else a required variable: a token, or Basic credentials as the step's
 * `auth: basic` with the password a variable, a Digest answer as `auth: digest`; a script's
 * `Bearer null` as recorded) and `Cookie`
 * (each cookie a response set is its capture; a preference is sent as
 * recorded; the logged-in rest becomes one SESSION_COOKIE variable).
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import { responseHeaders } from "../handed.ts";
import type { Producer, Step } from "../model.ts";
import { isAnalyticsCookie } from "../noise_headers.ts";
import { isCredentialCookie } from "../values.ts";
import { ymap } from "../yaml_out.ts";
import { useProducer } from "./captures.ts";
import { type Correlator, secretEnv } from "./state.ts";
import { instanceName } from "./cookie_names.ts";
import { holdCookie } from "./producers.ts";
import { setByAnswer, unseenSetter } from "./unseen_cookies.ts";
import { withTokens } from "./tokens.ts";
import { isLoginCopy, userAndPassword } from "./login_copies.ts";
import { digestStepAuth } from "./digest_auth.ts";
import { setOnlyByDropped } from "./dropped_cookies.ts";

const AUTH = /^([A-Za-z][\w-]*)\s+(\S+)$/;

/**
 * What a script writes when it has no token yet (`"Bearer " + null`: Strapi's admin before its
 * sign-in): a word of the language, never a secret, sent as recorded.
 */
const UNSET = /^(null|undefined)$/;

/**
 * The template of an `Authorization` (or `Proxy-Authorization`) header;
 * `undefined` when the step's `auth:` sends it instead (Basic credentials
 * of a user name and a password: the user sets the password, not base64).
 *
 * @example
 * ```ts
 * import { authorization } from "./credentials.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * // deno-lint-ignore no-explicit-any
 * const out = authorization(c, "authorization", "Bearer abc.def", { uses: new Set() } as any);
 * if (out !== "Bearer ${ENV.API_TOKEN}") throw new Error(out);
 * ```
 */
export function authorization(
  c: Correlator,
  name: string,
  value: string,
  step: Step,
): string | undefined {
  // A Digest answer holds one nonce's hash: the step's `auth: digest` answers the live challenge.
  if (name === "authorization" && digestStepAuth(c, value, step)) return undefined;
  const m = AUTH.exec(value.trim());
  const scheme = m?.[1];
  const credential = m ? m[2] : value.trim();
  if (UNSET.test(credential)) return c.sp.lit(value);
  c.secrets.add(value);
  c.secrets.add(credential);
  const p = c.rules.producerFor(credential);
  if (p) return `${scheme ? `${scheme} ` : ""}${useProducer(c, p, step)}`;
  const inside = withTokens(c, value, step);
  if (inside !== c.sp.lit(value)) return inside;
  if (scheme?.toLowerCase() === "basic") {
    const pair = name === "authorization" ? userAndPassword(credential) : undefined;
    if (pair) return basicStepAuth(c, pair, step);
    return basicAuth(c, name, scheme, credential);
  }
  c.replaced.tokens++;
  const env = secretEnv(
    c,
    name === "authorization" ? "API_TOKEN" : "PROXY_TOKEN",
    credential,
    `the ${scheme ? `${scheme} ` : ""}credential of the ${name} header`,
  );
  return `${scheme ? `${scheme} ` : ""}${c.sp.envRef(env)}`;
}

/**
 * Basic credentials no response produced, as the step's `auth: basic`: the
 * user name as recorded (an identifier, as `convert curl -u` writes it), the
 * password a secret variable, so a user sets `BASIC_PASSWORD` instead of
 * base64-encoding `user:password` by hand.
 */
function basicStepAuth(c: Correlator, [user, password]: [string, string], step: Step): undefined {
  c.secrets.add(password);
  c.replaced.secrets++;
  const env = secretEnv(c, "BASIC_PASSWORD", password, `the password of the Basic user "${user}"`);
  step.auth = ymap([[
    "basic",
    ymap([["username", c.sp.lit(user)], ["password", c.sp.envRef(env)]]),
  ]]);
  return undefined;
}

/** Basic credentials of a token alone: a variable of the base64 text; what follows a colon is a secret. */
function basicAuth(c: Correlator, name: string, scheme: string, credential: string): string {
  const decoded = (() => {
    try {
      return atob(credential);
    } catch {
      return undefined;
    }
  })();
  const password = decoded?.includes(":") ? decoded.slice(decoded.indexOf(":") + 1) : undefined;
  if (password !== undefined) {
    c.secrets.add(password);
    c.typed.add(password);
  }
  c.replaced.secrets++;
  const env = secretEnv(
    c,
    name === "authorization" ? "BASIC_AUTH" : "PROXY_BASIC_AUTH",
    credential,
    "base64 of user:password for the Basic Authorization header",
  );
  return `${scheme} ${c.sp.envRef(env)}`;
}

/**
 * The template of the `Cookie` header `r` sent, `undefined` when no cookie
 * is left.
 *
 * @example
 * ```ts
 * import { cookieHeader } from "./credentials.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * const r = { headers: [], cookies: [{ name: "theme", value: "dark" }] };
 * // deno-lint-ignore no-explicit-any
 * if (cookieHeader(c, r as any, { uses: new Set() } as any) !== "theme=dark") throw new Error();
 * ```
 */
export function cookieHeader(c: Correlator, r: HarRecord, step: Step): string | undefined {
  const parts: string[] = [];
  const rest: string[] = [];
  const authorizations = r.headers.filter((h) => h.name.toLowerCase() === "authorization");
  const bearer = authorizations.length > 0;
  const sent = authorizations.map((h) => h.value.trim().split(/\s+/).at(-1) ?? "");
  for (const cookie of r.cookies) {
    if (isAnalyticsCookie(cookie.name)) continue;
    const credential = isCredentialCookie(cookie.name, cookie.value, c.byHand);
    if (credential) c.secrets.add(cookie.value);
    const p = cookieProducer(c, cookie, r, step, credential);
    if (p === null) continue;
    if (p) parts.push(`${cookieName(c, cookie.name, step)}=${useProducer(c, p, step)}`);
    // A preference or an anonymous id a script set is sent as recorded, never required.
    else if (!credential) parts.push(c.sp.lit(`${cookie.name}=${cookie.value}`));
    // The page's copy of the Basic login: the step's `auth: basic` sends it (login_copies.ts).
    else if (!isLoginCopy(c, cookie.name, cookie.value, sent)) {
      rest.push(`${cookie.name}=${cookie.value}`);
    }
  }
  // The browser attaches every cookie it holds; a request that authenticates with its
  // Authorization header does not need the ones from before the recording.
  if (rest.length > 0 && bearer) {
    c.droppedCookies++;
    rest.length = 0;
  }
  if (rest.length > 0) parts.push(sessionCookie(c, rest));
  return parts.length > 0 ? parts.join("; ") : undefined;
}

/**
 * Where the value of `cookie` that `r` sent comes from: an answer that set it or handed it out, a
 * lost `Set-Cookie` of a credential (`lostSet`); `null` when only the answer of a request the flow
 * drops set it: no step can read it, so it is not sent (`dropped_cookies.ts`).
 */
function cookieProducer(
  c: Correlator,
  cookie: { name: string; value: string },
  r: HarRecord,
  step: Step,
  credential: boolean,
): Producer | null | undefined {
  const found = c.cookieProducers.get(`${cookie.name}=${cookie.value}`) ??
    c.rules.producerFor(cookie.value);
  if (found) return found;
  if (setOnlyByDropped(c, r, cookie)) return null;
  return credential ? lostSet(c, cookie, r, step) : undefined;
}

/**
 * A session cookie sent with a value no answer of the recording set, though the app's server
 * set that cookie before: a `Set-Cookie` the recording lost (chrome-har keeps one of a
 * redirect chain's: a login's 302's, or the page it loads). After a redirect to this request,
 * the redirect's cookie (a login renews the session there), also when the server never set it
 * before and the redirect's request did not send it (chrome-har lost a login's `Set-Cookie`),
 * read by the pattern of its name when the name is the instance's; else the value the server
 * set last, the browser's jar. One no answer set, first sent right after an answer that set
 * others or was the sender's page, that answer set (`unseen_cookies.ts`). Never a cookie from
 * before the recording.
 */
function lostSet(
  c: Correlator,
  cookie: { name: string; value: string },
  r: HarRecord,
  step: Step,
): Producer | undefined {
  const { name } = cookie;
  let last: Producer | undefined;
  for (const [key, p] of c.cookieProducers) {
    if (key.startsWith(`${name}=`) && p.step.last.url.host === r.url.host) last = p;
  }
  const before = c.steps.filter((s) => s !== step).at(-1);
  if (before === undefined || !redirectsTo(before.last, r)) {
    // Without linking (--no-correlate) no value is taken from a response, this one neither.
    if (last !== undefined || !c.linking) return last;
    const setter = unseenSetter(c, name, r.url.host, step);
    return setter && readFrom(c, setter, cookie, r);
  }
  // Never set before and not sent to the redirect: the redirect set it (a login's 302).
  if (last === undefined && before.last.cookies.some((k) => k.name === name)) return undefined;
  return readFrom(c, before, cookie, r);
}

/** `cookie` read from `setter`'s live answer, here and wherever later requests send it. */
function readFrom(
  c: Correlator,
  setter: Step,
  cookie: { name: string; value: string },
  r: HarRecord,
): Producer {
  const { name } = cookie;
  const named = instanceName(setter, name, cookie.value);
  if (named) c.cookieNames.set(name, named.name);
  const p: Producer = named ? { ...named.value, secret: true } : setByAnswer(setter, name);
  // Later requests that send it read it from there too, and the browser held it (the jar fills
  // the requests a recording kept no cookie of).
  c.cookieProducers.set(`${name}=${cookie.value}`, p);
  holdCookie(c, r.url.host, cookie);
  return p;
}

/** Whether `from` answered a redirect whose `Location` is `to`'s URL. */
function redirectsTo(from: HarRecord, to: HarRecord): boolean {
  const location = responseHeaders(from).find((h) => h.name.toLowerCase() === "location")?.value;
  if (from.status === undefined || from.status < 300 || from.status > 399 || !location) {
    return false;
  }
  return URL.canParse(location, from.url) && new URL(location, from.url).href === to.url.href;
}

/** A cookie's name as sent: its instance's piece (`CSRF-Token-2EWQW`) by its capture. */
function cookieName(c: Correlator, name: string, step: Step): string {
  const named = c.cookieNames.get(name);
  if (!named) return c.sp.lit(name);
  return c.sp.lit(named.before) + useProducer(c, named.producer, step) + c.sp.lit(named.after);
}

/** Cookies of a session from before the recording: one required variable. */
function sessionCookie(c: Correlator, rest: string[]): string {
  c.replaced.secrets++;
  const env = secretEnv(
    c,
    "SESSION_COOKIE",
    rest.join("; "),
    `the Cookie header of a logged-in session ("${
      rest.map((text) => text.slice(0, text.indexOf("="))).join("=…; ")
    }=…")`,
  );
  return c.sp.envRef(env);
}
