/**
 * Secret redaction: one {@linkcode Redactor} that every text the runner writes
 * (console, logs, reports, manifest) passes through, plus the name rules that
 * decide which environment variables, headers and captures hold secrets.
 *
 * Exact-match redaction misses a secret once it has been encoded on its way
 * out (a query string, a JSON body, a JUnit attribute, a Basic auth header),
 * so the redactor also masks the encoded forms the runner and common servers
 * produce. Pure: no I/O, no `Deno.*`.
 *
 * @module
 */
import { xmlAttr, xmlText } from "./report/junit.ts";

/**
 * What a secret is replaced with: short, and plainly not a real value.
 *
 * @example
 * ```ts
 * import { MASK, Redactor } from "./redact.ts";
 * const r = new Redactor();
 * r.add("hunter22");
 * if (r.redact("pw=hunter22") !== `pw=${MASK}`) throw new Error();
 * ```
 */
export const MASK = "***";

/**
 * Values shorter than this (in UTF-16 code units, not counting surrounding
 * whitespace) are never registered:
 * masking "1", "ab" or "yes" would shred every output (status codes, counts,
 * ordinary words) while hiding almost nothing a guesser could not try anyway.
 *
 * @example
 * ```ts
 * import { MIN_SECRET_LENGTH, Redactor } from "./redact.ts";
 * const r = new Redactor();
 * r.add("x".repeat(MIN_SECRET_LENGTH - 1));
 * if (r.size !== 0) throw new Error("short values are ignored");
 * ```
 */
export const MIN_SECRET_LENGTH = 4;

/** Word endings that make a name secret; see {@linkcode isSecretName}. */
const SECRET_WORDS = [
  "TOKEN",
  "SECRET",
  "PASSWORD",
  "PASSWD",
  "PASS",
  "KEY",
  "CREDENTIAL",
  "CREDENTIALS",
  "AUTH",
  "COOKIE",
  "SESSION",
  "SESSIONID",
];

/** Splits on `_`, `-`, `.` and where a lower-case letter meets an upper-case one. */
function words(name: string): string[] {
  return name.split(/[_.-]+|(?<=[a-z])(?=[A-Z])/).filter((w) => w !== "").map((w) =>
    w.toUpperCase()
  );
}

function hasSecretWord(name: string): boolean {
  return words(name).some((w) => SECRET_WORDS.some((s) => w.endsWith(s)));
}

/**
 * Whether an environment variable name looks secret.
 *
 * Rule: split the name into words on `_`, `-`, `.` and at every lower-case →
 * upper-case letter boundary (`apiKey` → `api`, `Key`), upper-case the words;
 * the name is secret when any word is, or ends with, one of TOKEN, SECRET,
 * PASSWORD, PASSWD, PASS, KEY, CREDENTIAL, CREDENTIALS, AUTH, COOKIE, SESSION,
 * SESSIONID.
 *
 * So `API_KEY`, `GITHUB_TOKEN`, `DB_PASSWORD`, `AWS_SECRET_ACCESS_KEY`,
 * `apiKey`, `X_AUTH`, `OAUTH_CLIENT_ID`, `MY_APIKEY`, `SESSIONID` and
 * `sessionId` are secret; `PATH`, `HOME`, `BASE_URL`, `KEYBOARD_LAYOUT`,
 * `PASSENGER`, `AUTHOR` and `KEYS` are not (a word must *end* with the
 * marker). SESSIONID is listed because session ids are bearer credentials
 * and the name is commonly written as one word. The suffix rule knowingly
 * over-matches words such as `MONKEY`, `TURKEY`, `BYPASS`, `COMPASS`:
 * masking a harmless value costs readability, missing a secret leaks it.
 *
 * @example
 * ```ts
 * import { isSecretName } from "./redact.ts";
 * if (!isSecretName("GITHUB_TOKEN") || !isSecretName("apiKey")) throw new Error();
 * if (isSecretName("BASE_URL") || isSecretName("KEYBOARD_LAYOUT")) throw new Error();
 * ```
 */
export function isSecretName(name: string): boolean {
  return hasSecretWord(name);
}

const SECRET_HEADERS = new Set([
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  "x-api-key",
]);

/**
 * Header names whose values are always secret: `authorization`,
 * `proxy-authorization`, `cookie`, `set-cookie`, `x-api-key`
 * (case-insensitive). Other headers are judged by their values, which the
 * redactor masks wherever a registered secret appears.
 *
 * @example
 * ```ts
 * import { isSecretHeader } from "./redact.ts";
 * if (!isSecretHeader("Authorization") || isSecretHeader("content-type")) throw new Error();
 * ```
 */
export function isSecretHeader(name: string): boolean {
  return SECRET_HEADERS.has(name.trim().toLowerCase());
}

/**
 * Capture names that look secret: `token`, `access_token`, `id_token`,
 * `refresh_token`, `session`, `password`, `secret`, `key` and any name
 * containing such a word. It is the same word rule as
 * {@linkcode isSecretName} (so `auth_token`, `sessionId`, `api_key`,
 * `apiKey`, `cookie` are secret; `id`, `name`, `status`, `keys` are not):
 * one rule is easier to predict than two.
 *
 * @example
 * ```ts
 * import { isSecretCaptureName } from "./redact.ts";
 * if (!isSecretCaptureName("refresh_token") || !isSecretCaptureName("sessionId")) {
 *   throw new Error();
 * }
 * if (isSecretCaptureName("item_id")) throw new Error();
 * ```
 */
export function isSecretCaptureName(name: string): boolean {
  return hasSecretWord(name);
}

// ---------------------------------------------------------------------------
// Encoded forms of a secret.

const lowerHex = (s: string) => s.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());

/** `encodeURIComponent` and friends throw on a lone surrogate; skip that form. */
function tryEncode(encode: (s: string) => string, s: string): string | undefined {
  try {
    return encode(s);
  } catch {
    return undefined;
  }
}

/** The inside of `JSON.stringify(s)`. */
const jsonInner = (s: string) => JSON.stringify(s).slice(1, -1);

/** A JSON form with every non-ASCII code unit as `\uXXXX` (Python's `ensure_ascii`). */
const jsonAscii = (json: string, upper: boolean) =>
  json.replace(/[\u007f-\uffff]/g, (c) => {
    const hex = c.charCodeAt(0).toString(16).padStart(4, "0");
    return `\\u${upper ? hex.toUpperCase() : hex}`;
  });

/**
 * Raw, JSON-escaped and XML-escaped forms, and their combinations: JSON
 * twice (a JSON response body kept as a string in the JSON report) and XML
 * of JSON (a body in a JUnit message).
 */
function textForms(value: string): string[] {
  // One-line report messages collapse whitespace runs to one space.
  const flat = value.replace(/\s+/g, " ");
  const out: string[] = [];
  for (const v of new Set([value, flat, flat.trim()])) {
    const once = jsonInner(v);
    const forms = [v];
    for (const json of [once, jsonInner(once)]) {
      forms.push(json, json.replaceAll("/", "\\/"), jsonAscii(json, false), jsonAscii(json, true));
    }
    for (const f of forms) out.push(f, xmlText(f), xmlAttr(f));
  }
  return out;
}

/** Percent-encoded forms: component, form (`+` for space), whole-URI; both hex cases. */
function urlForms(value: string): string[] {
  const component = tryEncode(encodeURIComponent, value);
  const forms = [
    component,
    component?.replaceAll("%20", "+"),
    new URLSearchParams({ v: value }).toString().slice(2),
    tryEncode(encodeURI, value),
  ].filter((f): f is string => f !== undefined);
  return [...forms, ...forms.map(lowerHex)];
}

/** Shortest base64 run accepted as a hit: fewer characters match by chance. */
const MIN_BASE64_RUN = 4;

/**
 * The characters of base64(…secret…) that depend only on the secret's bytes,
 * for each of the three positions the secret can start at within a 3-byte
 * group, in the standard and URL-safe alphabets. Character i covers bits
 * [6i, 6i+6); with p filler bytes before it the secret covers bits
 * [8p, 8(p+n)), so the fully determined characters are those with
 * 6i ≥ 8p and 6i+6 ≤ 8(p+n): the first 0/2/3 and the last ones that mix in
 * following bytes or padding are dropped.
 */
function base64Runs(value: string): string[] {
  const bytes = new TextEncoder().encode(value);
  const runs: string[] = [];
  for (let p = 0; p < 3; p++) {
    const buffer = new Uint8Array(Math.ceil((p + bytes.length) / 3) * 3);
    buffer.set(bytes, p);
    let binary = "";
    for (const b of buffer) binary += String.fromCharCode(b);
    const run = btoa(binary).slice(
      Math.ceil((8 * p) / 6),
      Math.floor((8 * (p + bytes.length)) / 6),
    );
    if (run.length < MIN_BASE64_RUN) continue;
    const url = run.replaceAll("+", "-").replaceAll("/", "_");
    const inQuery = encodeURIComponent(run);
    runs.push(run, url, inQuery, lowerHex(inQuery), run.replaceAll("/", "\\/"));
  }
  return runs;
}

/** Auth schemes whose credential follows one space: `Bearer abc`, `Basic dXNl…`. */
const AUTH_SCHEME = /^(Basic|Bearer|Token|ApiKey|DPoP|Negotiate|NTLM)\s+(\S+)$/i;

/** Decodes standard or URL-safe base64 as UTF-8, or undefined. */
function decodeBase64(text: string): string | undefined {
  try {
    const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** Two numbers for the four characters of `text` at `at`: the keys of the literal index. */
function keys(text: string, at: number): [number, number] {
  return [
    text.charCodeAt(at) * 65536 + text.charCodeAt(at + 1),
    text.charCodeAt(at + 2) * 65536 + text.charCodeAt(at + 3),
  ];
}

/** Characters a base64 blob is made of, used to widen a base64 hit. */
const BASE64_CHAR = /[A-Za-z0-9+/_-]/;

/**
 * Masks registered secret values, raw and encoded, in any text.
 *
 * @example
 * ```ts
 * import { Redactor } from "./redact.ts";
 * const r = new Redactor();
 * r.add("s3cr3t/+=& value");
 * const url = "https://api.test/?token=" + encodeURIComponent("s3cr3t/+=& value");
 * if (r.redact(url) !== "https://api.test/?token=***") throw new Error(r.redact(url));
 * if (r.redact(JSON.stringify({ p: "s3cr3t/+=& value" })) !== '{"p":"***"}') throw new Error();
 * ```
 */
export class Redactor {
  /** Registered values, in the order added. */
  #values = new Set<string>();
  /** Every literal to mask → whether it is a base64 run (masked a little wider). */
  #literals = new Map<string, boolean>();
  /**
   * The literals by their first four characters (every literal has at least
   * four), longest first in each bucket. A run registers thousands of secrets
   * (one token per flow, each in dozens of encoded forms); looking up the
   * four characters at each position keeps redaction linear in the text and
   * add() cheap, where one big alternation would be rebuilt after every add.
   */
  #index = new Map<number, Map<number, string[]>>();

  /**
   * Registers a secret value. Also registers its parts: the value trimmed;
   * for an Authorization-style value (`Basic|Bearer|Token|ApiKey|DPoP|
   * Negotiate|NTLM <credential>`) the credential; and for `Basic` the decoded
   * `user:password` and the password alone (the user name alone is not
   * secret). Values shorter than {@linkcode MIN_SECRET_LENGTH}, not counting
   * surrounding whitespace, are ignored. Idempotent.
   *
   * @example
   * ```ts
   * import { Redactor } from "./redact.ts";
   * const r = new Redactor();
   * r.add("Basic " + btoa("demo:hunter22"));
   * r.add("Basic " + btoa("demo:hunter22"));
   * // the value, the credential, "demo:hunter22" and "hunter22"
   * if (r.size !== 4) throw new Error(String(r.size));
   * if (r.redact("password=hunter22") !== "password=***") throw new Error();
   * ```
   */
  add(value: string): void {
    this.#register(value);
    const trimmed = value.trim();
    this.#register(trimmed);
    const auth = AUTH_SCHEME.exec(trimmed);
    if (!auth) return;
    this.#register(auth[2]);
    if (auth[1].toLowerCase() !== "basic") return;
    const decoded = decodeBase64(auth[2]);
    const colon = decoded?.indexOf(":") ?? -1;
    if (decoded === undefined || colon < 0) return;
    this.#register(decoded);
    this.#register(decoded.slice(colon + 1));
  }

  #register(value: string): void {
    if (value.trim().length < MIN_SECRET_LENGTH || this.#values.has(value)) return;
    this.#values.add(value);
    for (const f of [...textForms(value), ...urlForms(value)]) {
      if (f.length >= MIN_SECRET_LENGTH) this.#literal(f, false);
    }
    for (const run of base64Runs(value)) this.#literal(run, true);
  }

  #literal(literal: string, base64: boolean): void {
    if (this.#literals.has(literal)) return;
    this.#literals.set(literal, base64);
    const [high, low] = keys(literal, 0);
    let inner = this.#index.get(high);
    if (!inner) this.#index.set(high, inner = new Map());
    const bucket = inner.get(low);
    if (!bucket) inner.set(low, [literal]);
    else {
      const at = bucket.findIndex((l) => l.length < literal.length);
      bucket.splice(at === -1 ? bucket.length : at, 0, literal);
    }
  }

  /** The longest registered literal that starts at `at`, if any. */
  #longestAt(text: string, at: number): string | undefined {
    const [high, low] = keys(text, at);
    const bucket = this.#index.get(high)?.get(low);
    return bucket?.find((literal) => text.startsWith(literal, at));
  }

  /**
   * Number of distinct registered values, parts included (for tests).
   *
   * @example
   * ```ts
   * import { Redactor } from "./redact.ts";
   * const r = new Redactor();
   * r.add("Bearer abc123");
   * if (r.size !== 2) throw new Error(); // the value and "abc123"
   * ```
   */
  get size(): number {
    return this.#values.size;
  }

  /**
   * Replaces every occurrence of every registered secret in `text` with
   * {@linkcode MASK}: raw; percent-encoded (`encodeURIComponent`, form
   * encoding with `+` for space, `encodeURI`; upper- or lower-case hex);
   * JSON-escaped once or twice (also with `\/` and with `\uXXXX` for
   * non-ASCII); XML-escaped as text or attribute, also of the JSON form; with
   * whitespace runs collapsed to one space; and inside a larger base64 or
   * base64url string at any byte alignment (a hit there is widened by one
   * character each side plus `=` padding, since those characters mix the
   * secret's bits with its neighbours'). Overlapping hits merge into one
   * mask, so a secret containing another, or two overlapping ones, are
   * masked whole. Text with no hit is returned unchanged (the same string).
   *
   * @example
   * ```ts
   * import { Redactor } from "./redact.ts";
   * const r = new Redactor();
   * r.add("hunter22");
   * const header = "Basic " + btoa("demo:hunter22");
   * if (r.redact(header).includes(btoa("demo:hunter22"))) throw new Error();
   * const clean = "step login passed";
   * if (r.redact(clean) !== clean) throw new Error();
   * ```
   */
  redact(text: string): string {
    if (this.#literals.size === 0 || text.length < MIN_SECRET_LENGTH) return text;
    const spans: [number, number][] = [];
    const last = text.length - MIN_SECRET_LENGTH;
    // Every position is tried (not only after a hit) so overlapping secrets are all found.
    for (let i = 0; i <= last; i++) {
      const hit = this.#longestAt(text, i);
      if (hit === undefined) continue;
      let start = i;
      let end = i + hit.length;
      if (this.#literals.get(hit)) {
        if (start > 0 && BASE64_CHAR.test(text[start - 1])) start--;
        if (end < text.length && BASE64_CHAR.test(text[end])) end++;
        while (text[end] === "=") end++;
      }
      // Spans come in order of position; widening can reach back into the last ones.
      while (spans.length > 0 && start <= spans[spans.length - 1][1]) {
        const [s, e] = spans.pop()!;
        start = Math.min(start, s);
        end = Math.max(end, e);
      }
      spans.push([start, end]);
    }
    if (spans.length === 0) return text;
    let out = "";
    let at = 0;
    for (const [s, e] of spans) {
      out += text.slice(at, s) + MASK;
      at = e;
    }
    return out + text.slice(at);
  }

  /**
   * Deep-redacts a JSON-like (acyclic) value: every string in it, at any
   * depth of arrays and plain objects, goes through {@linkcode redact};
   * object keys stay as they are. Returns a new array or object only where
   * something changed, otherwise the same one. Values of other kinds (class
   * instances, Maps, Dates) are returned untouched: convert them first.
   *
   * @example
   * ```ts
   * import { Redactor } from "./redact.ts";
   * const r = new Redactor();
   * r.add("tok-1234");
   * const clean = { ok: true };
   * const v = r.redactValue({ headers: [["authorization", "Bearer tok-1234"]], clean });
   * if (v.headers[0][1] !== "Bearer ***" || v.clean !== clean) throw new Error();
   * ```
   */
  redactValue<T>(value: T): T {
    if (this.#literals.size === 0) return value;
    if (typeof value === "string") return this.redact(value) as T;
    if (Array.isArray(value)) {
      let changed = false;
      const out = value.map((item) => {
        const redacted = this.redactValue(item);
        if (redacted !== item) changed = true;
        return redacted;
      });
      return (changed ? out : value) as T;
    }
    if (value !== null && typeof value === "object") {
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return value;
      let changed = false;
      const entries = Object.entries(value).map(([key, item]) => {
        const redacted = this.redactValue(item);
        if (redacted !== item) changed = true;
        return [key, redacted];
      });
      // fromEntries defines properties, so a "__proto__" key stays a plain key.
      return (changed ? Object.fromEntries(entries) : value) as T;
    }
    return value;
  }
}
