/**
 * Which names mark a value as secret: environment variables and run
 * parameters, request and response headers, captures, keys of JSON bodies and
 * query parameters. One word rule serves them all, because one rule is easier
 * to predict than five; keys of bodies a target sends use a stricter variant
 * (the last word decides) so `token_type: Bearer` does not turn "Bearer" into
 * a secret.
 *
 * @module
 */
import { BoundedCache } from "../_util/bounded_cache.ts";

/** Word endings that make a name secret; see {@linkcode isSecretName}. */
const SECRET_WORDS = [
  "TOKEN",
  "SECRET",
  "PASSWORD",
  "PASSWD",
  "PASS",
  "PWD",
  "KEY",
  "CREDENTIAL",
  "CREDENTIALS",
  "AUTH",
  "AUTHORIZATION",
  "COOKIE",
  "SESSION",
  "SESSIONID",
  "JWT",
  "CSRF",
  "XSRF",
  "SIGNATURE",
  "PASSPHRASE",
  "PASSCODE",
];

/**
 * Short words that are a credential only as a whole word, never as an ending: `otp`, `pin`,
 * `sig` (an Azure SAS signature), `key_passphrase`'s kin; `spin`, `laptop` and `config` are not.
 */
const WHOLE_WORDS = new Set(["OTP", "TOTP", "HOTP", "PIN", "SIG", "MFA"]);

/** Words that, before KEY, make it public: `public_key`, `publishable_key`. */
const PUBLIC_WORDS = new Set(["PUBLIC", "PUBLISHABLE", "PRIMARY", "FOREIGN", "SORT", "PARTITION"]);

/** Names already split: the same keys and headers come back in every response. */
const split = new BoundedCache<string[]>(4096);

/** Splits on `_`, `-`, `.`, spaces and where a lower-case letter meets an upper-case one. */
function words(name: string): string[] {
  return split.get(
    name,
    () =>
      name.split(/[_.\s-]+|(?<=[a-z0-9])(?=[A-Z])/).filter((w) => w !== "").map((w) =>
        w.toUpperCase()
      ),
  );
}

/**
 * A name's words as every name rule here reads them: split on `_`, `-`, `.`, spaces and where a
 * lower-case letter or digit meets an upper-case one, upper-cased; so a rule about a word never
 * matches inside another one (`pin` in `spin`, `otp` in `footprint`).
 *
 * @example
 * ```ts
 * import { nameWords } from "./names.ts";
 * if (nameWords("X-Api-Key").join() !== "X,API,KEY" || nameWords("otp2Code").join() !== "OTP2,CODE") {
 *   throw new Error();
 * }
 * ```
 */
export function nameWords(name: string): string[] {
  return [...words(name)];
}

/** Any marker at the end of a word, in the singular or the plural. */
const MARKER_END = new RegExp(`(?:${SECRET_WORDS.join("|")})S?$`);

/**
 * Everyday words that end like a marker without being one (`valkey` is a database, `bypass` a
 * setting): a response's `valkey: {regions: [...]}` is no credential, and masking it hid `nyc3`
 * in every report of DigitalOcean's API.
 */
const LOOKALIKES = new Set([
  "VALKEY",
  "MONKEY",
  "TURKEY",
  "DONKEY",
  "HOCKEY",
  "JOCKEY",
  "WHISKEY",
  "LACKEY",
  "TURNKEY",
  "HOTKEY",
  "BYPASS",
  "COMPASS",
  "ENCOMPASS",
  "SURPASS",
  "OVERPASS",
  "UNDERPASS",
  "TRESPASS",
  "POSSESSION",
  "OBSESSION",
]);

/** The pattern of a word that ends with one of `markers`, or one of them plus S, by their list. */
const endings = new BoundedCache<RegExp>(64);

/**
 * Whether a word of `text` (split as {@linkcode nameWords} does, and at every other character that
 * is no letter or digit: `<token>`, `{{authToken}}`, `$ACCESS_TOKEN`) is or ends with one of
 * `markers` (upper case), or one of them plus S, and is no everyday word that only ends like one
 * (`MONKEY`, `BYPASS`): what a converter's rule about a name reads, so `AUTHOR` says no `AUTH`.
 *
 * @example
 * ```ts
 * import { saysWord } from "./names.ts";
 * const says = (t: string) => saysWord(t, ["AUTH", "TOKEN", "KEY"]);
 * if (!says("X-Auth-Token") || !says("{{authToken}}") || !says("YOURTOKEN") || !says("api_keys")) {
 *   throw new Error();
 * }
 * if (says("X-Author") || says("$AUTHORITY") || says("<monkey>") || says("keyboard")) throw new Error();
 * ```
 */
export function saysWord(text: string, markers: readonly string[]): boolean {
  const end = endings.get(markers.join("|"), () => new RegExp(`(?:${markers.join("|")})S?$`));
  return text.split(/[^A-Za-z0-9]+/).some((part) =>
    words(part).some((w) => end.test(w) && !LOOKALIKES.has(w) && !LOOKALIKES.has(w.slice(0, -1)))
  );
}

/** A word is a marker when it ends with one, in the singular or the plural (`api_keys`, `tokens`). */
const isMarker = (word: string) =>
  WHOLE_WORDS.has(word) ||
  MARKER_END.test(word) && !LOOKALIKES.has(word) && !LOOKALIKES.has(word.slice(0, -1));

/**
 * Answers already given: every request and response asks about the same few
 * header names and body keys.
 */
const names = new BoundedCache<boolean>(4096);
const keys = new BoundedCache<boolean>(4096);

/**
 * Whether an environment variable or parameter name looks secret.
 *
 * Rule: split the name into words on `_`, `-`, `.`, spaces and at every
 * lower-case → upper-case boundary (`apiKey` → `api`, `Key`), upper-case the
 * words; the name is secret when any word is, or ends with, one of TOKEN,
 * SECRET, PASSWORD, PASSWD, PASS, PWD, KEY, CREDENTIAL(S), AUTH,
 * AUTHORIZATION, COOKIE, SESSION, SESSIONID, JWT, CSRF, XSRF, SIGNATURE,
 * PASSPHRASE, PASSCODE, or one of them followed by S (`API_KEYS`, `TOKENS`);
 * or is exactly OTP, TOTP, HOTP, PIN, SIG or MFA.
 *
 * So `API_KEY`, `API_KEYS`, `GITHUB_TOKEN`, `DB_PASSWORD`,
 * `AWS_SECRET_ACCESS_KEY`, `apiKey`, `X_AUTH`, `OAUTH_CLIENT_ID`, `SESSIONID`
 * and `sessionId` are secret; `PATH`, `HOME`, `BASE_URL`, `KEYBOARD_LAYOUT`,
 * `PASSENGER` and `AUTHOR` are not (a word must *end* with the marker). The
 * suffix rule knowingly over-matches words such as `MONKEY` or `BYPASS`:
 * masking a harmless value costs readability, missing a secret leaks it.
 *
 * @example
 * ```ts
 * import { isSecretName } from "./names.ts";
 * if (!isSecretName("GITHUB_TOKEN") || !isSecretName("apiKey")) throw new Error();
 * if (!isSecretName("key_passphrase") || !isSecretName("otp") || isSecretName("spin")) {
 *   throw new Error();
 * }
 * if (isSecretName("BASE_URL") || isSecretName("KEYBOARD_LAYOUT") || isSecretName("valkey")) {
 *   throw new Error();
 * }
 * ```
 */
export function isSecretName(name: string): boolean {
  return names.get(name, () => words(name).some(isMarker));
}

const SECRET_HEADERS = new Set([
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  "x-api-key",
]);

/**
 * Header names whose values are secret: `authorization`,
 * `proxy-authorization`, `cookie`, `set-cookie`, `x-api-key`, and any name
 * the word rule of {@linkcode isSecretName} marks (`x-auth-token`,
 * `x-csrf-token`, `x-session-id`), case-insensitive; never a CORS header
 * (`access-control-…`).
 *
 * @example
 * ```ts
 * import { isSecretHeader } from "./names.ts";
 * if (!isSecretHeader("Authorization") || !isSecretHeader("X-Auth-Token")) throw new Error();
 * if (isSecretHeader("content-type") || isSecretHeader("x-request-id")) throw new Error();
 * if (isSecretHeader("Access-Control-Allow-Credentials")) throw new Error();
 * ```
 */
export function isSecretHeader(name: string): boolean {
  const lower = name.trim().toLowerCase();
  // CORS headers state a policy (`access-control-allow-credentials: true`), never a credential:
  // taking `true` for a secret masked every `true` of every report, JSON ones made invalid.
  if (lower.startsWith("access-control-")) return false;
  return SECRET_HEADERS.has(lower) || isSecretKey(lower);
}

/** Words of a header name that say the header carries a credential (`X-Auth-Token`, `X-Session`). */
const CREDENTIAL_WORDS = new Set([
  "auth",
  "authorization",
  "token",
  "secret",
  "password",
  "passwd",
  "pwd",
  "session",
  "sessionid",
  "apikey",
  "jwt",
  "bearer",
  "credential",
  "credentials",
  "csrf",
  "xsrf",
]);

/**
 * Headers that exist to carry a credential: whatever a flow sends in them is secret, written in
 * the flow or not. What a user types under `X-Auth-Token` is a typed credential; a header named
 * only by `key` (`Idempotency-Key`, `X-Request-Key`) holds what a flow writes in it as its own text
 * (see `written_headers.ts`): keys there name a request, not an account.
 *
 * @example
 * ```ts
 * import { isCredentialHeader } from "./names.ts";
 * if (!isCredentialHeader("Authorization") || !isCredentialHeader("X-API-Key")) throw new Error();
 * if (!isCredentialHeader("x-auth-token") || !isCredentialHeader("X-Session-Id")) throw new Error();
 * if (isCredentialHeader("Idempotency-Key") || isCredentialHeader("X-Request-Key")) throw new Error();
 * ```
 */
export function isCredentialHeader(name: string): boolean {
  const lower = name.trim().toLowerCase();
  if (lower === "set-cookie") return false;
  if (SECRET_HEADERS.has(lower)) return true;
  const words = lower.split(/[^a-z0-9]+/).filter(Boolean);
  return words.some((word, i) =>
    CREDENTIAL_WORDS.has(word) || (word === "api" && words[i + 1] === "key")
  );
}

/**
 * Capture names that look secret: the word rule of {@linkcode isSecretName}
 * (`token`, `auth_token`, `sessionId`, `api_key`, `api_keys`, `cookie` are
 * secret; `id`, `name`, `status` are not). A secret capture is secret whatever its
 * type: every string and number inside an object or list is masked
 * (`session: {id: …}`, `api_keys: [...]`).
 *
 * @example
 * ```ts
 * import { isSecretCaptureName } from "./names.ts";
 * if (!isSecretCaptureName("refresh_token") || !isSecretCaptureName("sessionId")) {
 *   throw new Error();
 * }
 * if (isSecretCaptureName("item_id")) throw new Error();
 * ```
 */
export function isSecretCaptureName(name: string): boolean {
  return isSecretName(name);
}

/**
 * Keys of JSON bodies, form fields and query parameters whose values are
 * secret the moment they are seen, in what a flow sends and what a target
 * returns: the *last* word must be a marker of {@linkcode isSecretName}, or
 * the key ends in SESSION + ID (`session_id`, `sessionId`). So `token`,
 * `access_token`, `refresh_token`, `id_token`, `password`, `client_secret`,
 * `api_key`, `session`, `cookie`, `csrfToken` are secret; `token_type`,
 * `expires_in`, `password_hint` and `public_key` are not.
 *
 * @example
 * ```ts
 * import { isSecretKey } from "./names.ts";
 * if (!isSecretKey("access_token") || !isSecretKey("sessionId")) throw new Error();
 * if (isSecretKey("token_type") || isSecretKey("public_key")) throw new Error();
 * ```
 */
export function isSecretKey(key: string): boolean {
  return keys.get(key, () => keyRule(key));
}

function keyRule(key: string): boolean {
  const ws = words(key);
  const last = ws[ws.length - 1];
  if (last === undefined) return false;
  if (last === "ID" && ws[ws.length - 2]?.endsWith("SESSION")) return true;
  if (!isMarker(last)) return false;
  return !(last === "KEY" && PUBLIC_WORDS.has(ws[ws.length - 2] ?? ""));
}
