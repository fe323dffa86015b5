/**
 * Judging recorded values: which are identifiers worth capturing, which are
 * tokens, which are stable enough to assert with `equals`, and which test
 * data would collide on a re-run and so gets `${RUN_ID}` mixed in. The rules
 * are deliberately conservative: a wrong capture or a wrong `equals` makes
 * the flow fail on its first run, a missed one only makes it less strict.
 *
 * @module
 */
import { isSecretCaptureName, isSecretName, nameWords } from "../secrets/mod.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;
const JWT = /^eyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]*$/;

/**
 * Whether a key names an identifier: `id`, `pk`, `order_id`, `ORDER_ID`, `orderId`,
 * `uuid`, `slug`, `ref`, `key` (not `valid` or `paid`).
 *
 * @example
 * ```ts
 * import { isIdKey } from "./values.ts";
 * if (!isIdKey("orderId") || !isIdKey("ORDER_ID") || isIdKey("valid")) throw new Error();
 * ```
 */
export function isIdKey(key: string): boolean {
  return /(^|[_-])(id|uuid|guid|slug|ref|key|code|number|no|pk)$/.test(key.toLowerCase()) ||
    /[a-z0-9](Id|ID|Uuid|UUID|Key|Ref|Slug)$/.test(key);
}

/**
 * Whether a string is a UUID.
 *
 * @example
 * ```ts
 * import { isUuid } from "./values.ts";
 * if (!isUuid("1f24ef94-58f6-4c1f-a3c8-938e871eb00a") || isUuid("abc")) throw new Error();
 * ```
 */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/**
 * Whether a value under `key` looks like a one-off identifier: a UUID; a
 * string of at least 6 characters without spaces that mixes letters and
 * digits (`itm_3fa2c1d4`, `A1B2C3`), or any such string under an id-like
 * key (slugs); or an integer of at least 100 under an id-like key. Dates,
 * URLs and plain words are not.
 *
 * @example
 * ```ts
 * import { looksLikeId } from "./values.ts";
 * if (!looksLikeId("id", "itm_3fa2c1d4e5f6") || !looksLikeId("id", 1234)) throw new Error();
 * if (looksLikeId("count", 1234) || looksLikeId("state", "pending")) throw new Error();
 * if (looksLikeId("created_at", "2026-11-21T10:00:00Z")) throw new Error();
 * ```
 */
export function looksLikeId(key: string, value: unknown): boolean {
  if (typeof value === "number") {
    return Number.isInteger(value) && value >= 100 && isIdKey(key);
  }
  if (typeof value !== "string") return false;
  if (UUID.test(value)) return true;
  if (!isIdShaped(value)) return false;
  if (isIdKey(key)) return true;
  return /\d/.test(value) && /[a-z]/i.test(value) && !/^\d+(\.\d+)*$/.test(value);
}

/** Text an id may be: 6 to 200 word characters, no date, no URL or path. */
function isIdShaped(value: string): boolean {
  if (value.length < 6 || value.length > 200 || /\s/.test(value) || DATE.test(value)) return false;
  if (/^[a-z][a-z0-9+.-]*:/i.test(value) || value.startsWith("/")) return false;
  return /^[\w.:~-]+$/.test(value);
}

/**
 * Whether a value is digit groups joined by `-` or `_`, ten characters or
 * more and no date: a document store's revision (`1-2902191555`), a ticket
 * number (`2026_000123`). Only an answer hands such a value out; a later
 * request that sends it back sends that answer's, whatever its key.
 *
 * @example
 * ```ts
 * import { isDigitGroups } from "./values.ts";
 * if (!isDigitGroups("1-2902191555") || isDigitGroups("2026-11-28") || isDigitGroups("1-2")) {
 *   throw new Error();
 * }
 * ```
 */
export function isDigitGroups(value: string): boolean {
  return value.length >= 10 && /^\d+(?:[-_]\d+)+$/.test(value) && !DATE.test(value);
}

/**
 * Whether a response field holds a token: any string shaped like a JWT, or
 * a string shaped like a secret ({@linkcode isSecretShaped}: not a word, a
 * path or a number) under a name that looks secret (`token`,
 * `access_token`, `sessionId`, `csrfToken`, the same rule as the runner's
 * redaction) or named `jwt`.
 *
 * @example
 * ```ts
 * import { looksLikeToken } from "./values.ts";
 * if (!looksLikeToken("accessToken", "abcdef123456") || looksLikeToken("token_type", "Bearer")) {
 *   throw new Error();
 * }
 * // A word of the API under a key named like a secret is not a token.
 * if (looksLikeToken("foreign_key_table", "articles")) throw new Error();
 * ```
 */
export function looksLikeToken(key: string, value: unknown): boolean {
  if (typeof value !== "string" || value.length < 8 || /\s/.test(value)) return false;
  if (JWT.test(value)) return true;
  if (/_type$|_at$|expires|^type$/i.test(key)) return false;
  // The key only says where a token may be; the value must be shaped like one. An ordinary
  // word under `foreign_key_table` or a cookie's name under `session_cookie` is not a token.
  return (isSecretCaptureName(key) || /jwt|bearer/i.test(key)) && isSecretShaped(value);
}

/** Keys whose values change between runs even when they look like words. */
const VOLATILE_KEY =
  /(^|_)(id|ids|at|time|date|ts|timestamp|token|key|url|uri|href|hash|etag|version|cursor|checksum|nonce|expires|expiry|created|updated|modified|count|total|size)$|[a-z](Id|At|Time|Date|Url|Count)$/;

/**
 * Whether a response value is stable enough for an `equals` assertion:
 * booleans, and short lower-case words (enums like `pending`, `active`)
 * under keys that are not ids, times, tokens, URLs or counts.
 *
 * @example
 * ```ts
 * import { isStableValue } from "./values.ts";
 * if (!isStableValue("state", "pending") || !isStableValue("active", true)) throw new Error();
 * if (isStableValue("total", 3) || isStableValue("id", "abc") || isStableValue("name", "Ann Lee")) {
 *   throw new Error();
 * }
 * ```
 */
export function isStableValue(key: string, value: unknown): boolean {
  if (VOLATILE_KEY.test(key) || isSecretCaptureName(key)) return false;
  if (typeof value === "boolean") return true;
  return typeof value === "string" && /^[a-z][a-z_-]{0,23}$/.test(value);
}

/**
 * Keys that name a state a poll waits on.
 *
 * @example
 * ```ts
 * import { STATUS_KEY } from "./values.ts";
 * if (!STATUS_KEY.test("state") || !STATUS_KEY.test("jobStatus") || STATUS_KEY.test("name")) {
 *   throw new Error();
 * }
 * ```
 */
export const STATUS_KEY =
  /^(status|state|phase|stage|progress|done|ready|complete|completed|finished|job_?status|job_?state|run_?state)$/i;

const EMAIL = /^([^@\s+]+)(\+[^@\s]*)?@([^@\s]+\.[a-z]{2,})$/i;
const NAME_KEY =
  /^(name|title|label|username|handle|display_?name|nick(name)?|subject|summary)$|[_-](name|title)$|[a-z](Name|Title)$/;

/**
 * `${RUN_ID}` mixing for test data that would collide on a re-run, or
 * `undefined` to keep the value. The rule: an e-mail address (anywhere)
 * gets `-${RUN_ID}` in its local part (`ann-${RUN_ID}@example.com`), or
 * `+${RUN_ID}` replacing a `+tag` it was recorded with; a name-like field (`name`, `title`,
 * `username`, `*_name`, …) whose value ends in a number of 3 or more digits
 * gets that number replaced (`Test item 1728` → `Test item ${RUN_ID}`).
 * Other values are kept: without a number there is no sign the recorder made
 * the value unique. `literal` escapes the text around the expression.
 *
 * @example
 * ```ts
 * import { mixRunId } from "./values.ts";
 * const lit = (s: string) => s;
 * if (mixRunId("email", "ann@example.com", lit) !== "ann-${RUN_ID}@example.com") throw new Error();
 * if (mixRunId("email", "ann+qa@example.com", lit) !== "ann+${RUN_ID}@example.com") throw new Error();
 * if (mixRunId("name", "Test item 1728", lit) !== "Test item ${RUN_ID}") throw new Error();
 * if (mixRunId("name", "company os", lit) !== undefined) throw new Error();
 * ```
 */
export function mixRunId(
  key: string,
  value: string,
  literal: (text: string) => string,
): string | undefined {
  const email = EMAIL.exec(value);
  // A `+` only where the recorded address had one: a lookup that makes a pattern of the address
  // (SQLPad's `new RegExp(email)`), a strict check and a form's decoding all take `-` as written.
  if (email) return `${literal(email[1])}${email[2] ? "+" : "-"}\${RUN_ID}@${literal(email[3])}`;
  if (NAME_KEY.test(key)) {
    const number = /^(.*\D)\d{3,}$/s.exec(value);
    if (number) return `${literal(number[1])}\${RUN_ID}`;
  }
  return undefined;
}

/** Segments of words or counts (joined by `_.:-` inside one) joined by `/`, the first a word. */
const RELATIVE_PATH =
  /^[a-z]+(?:[_.:-](?:[a-z]+|\d+))*(?:\/(?:[a-z]+(?:[_.:-](?:[a-z]+|\d+))*|\d+))+$/i;

/**
 * A readable name made of `attribute=word` parts (an LDAP DN, `ou=People,dc=my-domain,dc=com`;
 * `sort=uid;dir=asc`): LDAP Account Manager's redirect names the folder a new entry goes to so,
 * and a token has no such words. A part with a space already is no secret (the DN of a person).
 */
const NAMED_PARTS =
  /^[a-z]+(?:[_.:-][a-z]+)*=(?:[a-z]+(?:[_.:-](?:[a-z]+|\d+))*|\d+)(?:[,;+][a-z]+(?:[_.:-][a-z]+)*=(?:[a-z]+(?:[_.:-](?:[a-z]+|\d+))*|\d+))*$/i;

/**
 * Whether a recorded value is shaped like a secret (a token, a signature, a
 * session id): at least 8 characters without spaces, and not a path
 * (`/dashboard`, `db/harbour.sqlite`), a URL, a date, a plain number, a name of words
 * (`ou=People,dc=my-domain,dc=com`) or an ordinary word or identifier name
 * (`authenticity_token`, `remember-me`, `dashboard`).
 * Letters alone make a secret only when long and mixed in case the way
 * random text is (`xKpQzRtYvWmNaBcD`).
 *
 * @example
 * ```ts
 * import { isSecretShaped } from "./values.ts";
 * if (!isSecretShaped("Qm9va3NoZWxmLWNzcmYtOTkx") || !isSecretShaped("4be0e1d6c1f2a9b8")) {
 *   throw new Error();
 * }
 * for (const v of ["/dashboard", "https://app.test/a", "authenticity_token", "ou=People,dc=b,dc=com"]) {
 *   if (isSecretShaped(v)) throw new Error(v);
 * }
 * ```
 */
export function isSecretShaped(value: string): boolean {
  if (value.length < 8 || /\s/.test(value) || DATE.test(value)) return false;
  if (value.startsWith("/") || /^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return false;
  if (/^[+-]?\d+(\.\d+)?$/.test(value)) return false;
  if (NAMED_PARTS.test(value)) {
    // A value of letters alone is still judged as one word is: random text mixes its case.
    const values = value.split(/[,;+]/).map((part) => part.slice(part.indexOf("=") + 1));
    return values.some((v) => /^[a-z]+$/i.test(v) && isSecretShaped(v));
  }
  // A relative path (`db/harbour.sqlite`, `notes/2024/tides.txt`): its segments are words and
  // counts, as an ordinary name's are; phpLiteAdmin names its database so in every link.
  if (/^[a-z]+([_.:-][a-z]+)*$/i.test(value) || RELATIVE_PATH.test(value)) {
    const switches = value.match(/[a-z][A-Z]|[A-Z][a-z]/g)?.length ?? 0;
    return value.length >= 16 && !/[_.:-]/.test(value) && switches >= 6;
  }
  return true;
}

/** Cookie names that carry preferences, consent or anonymous analytics, never a login. */
const PLAIN_COOKIE =
  /(^|[_.-])(anon|anonymous|visitor|visit|device|browser|consent|theme|locale|lang|language|tz|timezone|currency|country|region|experiment|variant|ab|tracking|telemetry|analytics|seen|dismissed|banner|tour|prefs?|preferences?)([_.-]|id$|$)|^(anon|visitor|device)(id|_?uuid)$/i;

/**
 * Words that, last in a name, make it describe a credential rather than hold one: Node-RED's
 * `authType: basic` was asked of the user as a secret (and its deployed node silently stopped
 * authenticating), `token_url` and `password_policy` are settings; NZBGet's `Auth-Type=form`
 * cookie says how the page signs in.
 *
 * @example
 * ```ts
 * import { DESCRIBES_CREDENTIAL } from "./values.ts";
 * if (!DESCRIBES_CREDENTIAL.test("Type") || DESCRIBES_CREDENTIAL.test("Token")) throw new Error();
 * ```
 */
export const DESCRIBES_CREDENTIAL =
  /^(?:name|type|types|kind|mode|method|scheme|format|strategy|provider|enabled|required|policy|length|min|max|hint|label|url|uri|endpoint|header|field|column|table|expires|expiry|ttl|timeout|version|status|count)$/i;

/** Endings of a cookie name's word that carry a login or its CSRF pair (`PHPSESSID`, `csrftoken`). */
const CREDENTIAL_END =
  /(?:SESS|SESSID|SESSION|SESSIONID|SID|AUTH|LOGIN|REMEMBER|JWT|IDENTITY|TOKEN|CSRF|XSRF|SECRET|KEY)S?$/;
/** Beginnings that say the same, run together with more (`rememberme`, `csrfstate`, `JSESSIONID`). */
const CREDENTIAL_START = /^(?:CSRF|XSRF|JWT|TOKEN|REMEMBER|LOGIN)|SESS/;

/**
 * Whether a cookie's name carries a login or its CSRF pair, by a whole word of it or a word's
 * ending or beginning: letters inside an everyday word say nothing (`sidebar_width`: "sid",
 * `author_view`: "auth", `hockey_team`: "key"; the secret name rule's everyday words, such as
 * `monkey`, end in no marker).
 */
function credentialCookieName(name: string): boolean {
  return nameWords(name).map((w) => w.replace(/\d+$/, "")).some((w) =>
    CREDENTIAL_START.test(w) ||
    (CREDENTIAL_END.test(w) && (!/KEYS?$/.test(w) || w.length <= 4 || isSecretName(w)))
  );
}

/**
 * Whether a cookie the recording sent is a credential (a session, a login, a
 * CSRF pair): by its name first (`sid`, `_app_session`, `remember_token`),
 * unless a recorded value is one anybody could guess (`false`, `1`, `on`;
 * `byHand`: a person wrote it, where a word is a placeholder); a preference, consent or anonymous analytics cookie (`anon_id`, `theme`,
 * `visitor_id`) is not, whatever its value; an unknown name is when its value
 * is shaped like a secret. Only credentials become required variables.
 *
 * @example
 * ```ts
 * import { isCredentialCookie } from "./values.ts";
 * if (!isCredentialCookie("PHPSESSID", "k3j4h5") || !isCredentialCookie("rt", "a81f0c2e9d7b")) {
 *   throw new Error();
 * }
 * if (isCredentialCookie("anon_id", "anon_5c1e9b27") || isCredentialCookie("theme", "dark")) {
 *   throw new Error();
 * }
 * // A message a script left for the next page, percent-encoded or as base64 of JSON.
 * const details = btoa(JSON.stringify({ type: "success", messages: ["Note added"] }));
 * if (isCredentialCookie("flash", "Note%20added") || isCredentialCookie("flash", details)) {
 *   throw new Error();
 * }
 * if (!isCredentialCookie("state", btoa(JSON.stringify({ id: "6b7f101083261e46b59bc2d8" })))) {
 *   throw new Error();
 * }
 * // A cleared cookie, and one that says how the page signs in, hold no credential.
 * if (isCredentialCookie("Auth-Token", "") || isCredentialCookie("Auth-Type", "form")) throw new Error();
 * // Nor does a guessable value under a name that looks like a credential's.
 * if (isCredentialCookie("sidebar_collapsed", "false") || isCredentialCookie("remember_me", "1")) {
 *   throw new Error();
 * }
 * if (!isCredentialCookie("session", "secret", true)) throw new Error();
 * ```
 */
export function isCredentialCookie(name: string, value: string, byHand = false): boolean {
  // An empty value holds nothing to keep or ask for (a cookie the server cleared, `Auth-Token=`).
  if (value === "") return false;
  if (PLAIN_COOKIE.test(name) && !/sess|auth|token|csrf|xsrf|secret/i.test(name)) return false;
  // A name ending in a word that describes a credential (`Auth-Type`) holds a setting, unless its
  // value itself is shaped like a secret.
  const last = name.split(/[_.-]+|(?<=[a-z0-9])(?=[A-Z])/).filter((w) => w !== "").at(-1) ?? "";
  if (DESCRIBES_CREDENTIAL.test(last)) return carriesSecret(value);
  // A recorded value anybody could guess authenticates no one, whatever the name says (a script's
  // `sidebar_collapsed=false` matches "sid", `remember_me=1` "remember"). In a command a person
  // wrote, the same word stands for a credential (`-b 'session=secret'`).
  if (!byHand && GUESSABLE.test(value)) return false;
  return credentialCookieName(name) || carriesSecret(value);
}

/** A flag, a number of up to 4 digits, or one short lowercase word: a setting, never a secret. */
const GUESSABLE = /^(?:-?\d{1,4}|[a-z]{1,10})$/;

/**
 * Whether a cookie's value is shaped like a secret, judged by the text it carries: a page's
 * script writes a message for the next page percent-encoded (`Note%20added`) or as base64 of
 * JSON (`{"type":"success","messages":[…]}`), which only a string shaped like a secret makes one.
 */
function carriesSecret(value: string): boolean {
  const text = percentDecoded(value);
  const json = base64Json(text);
  return json === undefined ? isSecretShaped(text) : jsonStrings(json).some(isSecretShaped);
}

function percentDecoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The JSON object or array `text` is base64 (or base64url) of, else `undefined`. */
function base64Json(text: string): unknown {
  if (text.length < 8 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return undefined;
  try {
    const decoded = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    return /^\s*[{[]/.test(decoded) ? JSON.parse(decoded) : undefined;
  } catch {
    return undefined;
  }
}

function jsonStrings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (value === null || typeof value !== "object") return [];
  return Object.values(value).flatMap(jsonStrings);
}

/**
 * Whether a response key holds a pagination cursor (`next_cursor`,
 * `endCursor`, `continuationToken`, `nextPageToken`): an opaque value
 * handed out whole, often base64 with padding, that a later request sends
 * back as it was given.
 *
 * @example
 * ```ts
 * import { isCursorKey } from "./values.ts";
 * if (!isCursorKey("endCursor") || !isCursorKey("next_page_token") || isCursorKey("name")) {
 *   throw new Error();
 * }
 * ```
 */
export function isCursorKey(key: string): boolean {
  return /cursor|continuation|page_?token/i.test(key);
}
