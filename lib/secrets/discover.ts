/**
 * Finding secrets the moment they appear, so nothing is written before the
 * redactor knows them: in a request about to be sent (secret headers, cookies,
 * URL credentials, secret-named query parameters and body fields), in a
 * response as it arrives (`set-cookie`, secret headers, secret-named keys at
 * any depth of a JSON or form body), and ahead of time in a flow's own text
 * (values that a later step sends in a secret place are secret from the
 * start: `secretInputs` in `flow_inputs.ts`, re-exported here).
 *
 * @module
 */
import { isSecretHeader, isSecretKey } from "./names.ts";
import { userinfoSecrets } from "./userinfo.ts";
import { urlPasswords } from "./url_passwords.ts";
import { isJsonKeyData, isKeyData } from "./key_data.ts";
import { isPlainValue } from "./plain_values.ts";
import { isSentPathPiece } from "./sent_path.ts";
import { secretsInSetCookie } from "./set_cookie.ts";
import { clearLeaves, withClearTexts } from "./clear_texts.ts";
import { byCookie, secretsInCookieHeader } from "./cookie_header.ts";
import { writtenKey } from "./written_headers.ts";

export { type SecretInputs, secretInputs } from "./flow_inputs.ts";

/**
 * Receives each value found to be secret, and the texts inside it that are not (the redactor's
 * `add`: a Set-Cookie header's attributes).
 */
export type Register = (value: string, shown?: readonly string[]) => void;

/** How deep a body is walked; deeper parts of a hostile document are not searched by key. */
const MAX_DEPTH = 256;

/**
 * Registers every string and number inside a value (a secret capture of any
 * type, or what sits under a secret key), without recursion.
 *
 * @example
 * ```ts
 * import { secretLeaves } from "./discover.ts";
 * const found: string[] = [];
 * secretLeaves({ id: 123456, keys: ["k-1", { v: "k-2" }], ok: true }, (v) => void found.push(v));
 * if (found.sort().join() !== "123456,k-1,k-2") throw new Error(found.join());
 * ```
 */
export function secretLeaves(value: unknown, register: Register): void {
  leaves(value, register, false);
}

/**
 * Keys whose values describe a credential rather than being one: under
 * `auth: {access_token, token_type, expires_in}` only the token is secret,
 * or every "Bearer" and "3600" in the outputs would be masked; under an
 * API key object `key: {grants: [{bucket, permission: "read"}], secret}` the
 * grants are not, or every "read" (in `--allow-read` too) would be masked.
 */
const DESCRIPTIVE = new Set([
  "status",
  "state",
  "region",
  "permission",
  "permissions",
  "bucket",
  "updated_at",
  "token_type",
  "tokentype",
  "type",
  "scope",
  "scopes",
  "expires_in",
  "expiresin",
  "expires_at",
  "expiresat",
  "expires",
  "expiry",
  "issued_at",
  "created_at",
  "alg",
  "algorithm",
]);

/**
 * Registers the strings and numbers inside a value taken from a response under a name that looks
 * secret (a capture `api_token: $.json`): what the server issued, not the plain data around it
 * (ordinary words, timestamps: see `plain_values.ts`) nor what describes the credential
 * (`token_type`, `scope`), as under a secret key of the response itself.
 *
 * @example
 * ```ts
 * import { responseLeaves } from "./discover.ts";
 * const found: string[] = [];
 * const answer = { secret: "default:development.3b4b7b3e", type: "client", project: "default" };
 * responseLeaves({ ...answer, createdAt: "2026-11-26T08:01:49.210Z", scope: "read:all" }, (v) => void found.push(v));
 * if (found.join() !== "default:development.3b4b7b3e") throw new Error(found.join());
 * ```
 */
export function responseLeaves(
  value: unknown,
  register: Register,
  own?: ReadonlySet<string>,
): void {
  leaves(value, issuedOnly(register, own), true);
}

/**
 * `register` for values a server may have issued: a response value is a secret by what it is,
 * not by the key above it. An ordinary word under a key named like a secret (a table's name
 * under `foreign_key`, a cookie `theme=dark`, a token's `project: default`) or a timestamp
 * (its `createdAt`) is the API's data, and masking it hid it in every report of the run; so is
 * what the flow itself sends in the clear (`own`: the name it gave a token, echoed back).
 */
function issuedOnly(register: Register, own?: ReadonlySet<string>, sentUrl = ""): Register {
  return (value, shown) => {
    if (isPlainValue(value) || own?.has(value) || isSentPathPiece(value, sentUrl)) return;
    register(value, shown);
  };
}

function leaves(value: unknown, register: Register, skipDescriptive: boolean): void {
  const stack: unknown[] = [value];
  let budget = 100_000;
  while (stack.length > 0 && budget-- > 0) {
    const v = stack.pop();
    if (typeof v === "string") register(v);
    else if (typeof v === "number" && Number.isFinite(v)) register(String(v));
    else if (Array.isArray(v)) stack.push(...v);
    else if (v !== null && typeof v === "object") {
      for (const [key, item] of Object.entries(v)) {
        if (!skipDescriptive || !DESCRIPTIVE.has(key.toLowerCase())) stack.push(item);
      }
    }
  }
}

/**
 * Registers what sits under secret-looking keys (see `isSecretKey`) at any
 * depth of a parsed JSON document: `{"data": {"access_token": "…"}}`,
 * `{"session": {"id": "…"}}`.
 *
 * @example
 * ```ts
 * import { secretsInJson } from "./discover.ts";
 * const found: string[] = [];
 * secretsInJson({ user: { name: "ann", refresh_token: "rt-123" }, token_type: "Bearer" }, (v) => void found.push(v));
 * if (found.join() !== "rt-123") throw new Error(found.join());
 * ```
 */
export function secretsInJson(document: unknown, to: Register): void {
  // A structure's credential is reached twice: by its own name, and by what it is.
  const seen = new Set<string>();
  const register: Register = (value, shown) => {
    if (!seen.has(value)) [seen.add(value), to(value, shown)];
  };
  const stack: [unknown, number][] = [[document, 0]];
  let budget = 1_000_000;
  while (stack.length > 0 && budget-- > 0) {
    const [v, depth] = stack.pop()!;
    if (depth > MAX_DEPTH || v === null || typeof v !== "object") continue;
    if (Array.isArray(v)) {
      for (const item of v) stack.push([item, depth + 1]);
      continue;
    }
    for (const [key, item] of Object.entries(v)) {
      if (!isSecretKey(key)) stack.push([item, depth + 1]);
      else if (isJsonKeyData(key, item)) continue;
      else if (holdsMaps(item)) {
        // A structure under the name (`tokens: [{environment: development, projects: [default]}]`,
        // the description of tokens to issue): each field is a secret by its own name, or by
        // what it is; its ordinary words and dates are the request's data.
        stack.push([item, depth + 1]);
        leaves(item, issuedOnly(register), true);
      } else {
        // A `Cookie` header a server echoes is read cookie by cookie (`cookie_header.ts`).
        leaves(item, byCookie(register), true);
      }
    }
  }
}

/** Whether a value holds maps (itself, or items of its list): a structure, not a credential. */
function holdsMaps(value: unknown): boolean {
  const items = Array.isArray(value) ? value : [value];
  return items.some((item) => item !== null && typeof item === "object" && !Array.isArray(item));
}

/**
 * Registers the values of secret-looking fields of `a=b&c=d` text (a query, a form body); a key
 * word's data (a view's `keys=["a"]`, a range's `startkey`) is no credential (key_data.ts).
 */
function secretsInForm(text: string, register: Register): void {
  for (const [key, value] of new URLSearchParams(text)) {
    if (isSecretKey(key) && !isKeyData(key, value)) register(value);
  }
}

/** `written`: the flow's own text under names that merely look secret (see `written_headers.ts`). */
function secretsInHeaders(
  headers: Iterable<[string, string]>,
  register: Register,
  written?: ReadonlySet<string>,
): void {
  for (const [name, value] of headers) {
    const lower = name.toLowerCase();
    if (lower === "cookie") secretsInCookieHeader(value, register, written);
    else if (lower === "set-cookie") secretsInSetCookie(value, register);
    else if (isSecretHeader(lower) && !written?.has(writtenKey(lower, value))) register(value);
    else {
      urlPasswords(value, register);
      if (URL_HEADERS.has(lower)) secretsInUrl(value, register);
    }
  }
}

/** Headers whose value is a URL a server made, which may hand a credential over in it. */
const URL_HEADERS = new Set(["location", "content-location"]);

/**
 * Registers the secret-looking parameters of a URL's query and of its fragment (`#access_token=…`,
 * as an OAuth implicit grant writes it), relative or absolute.
 */
function secretsInUrl(value: string, register: Register): void {
  if (!value.includes("?") && !value.includes("#")) return;
  try {
    const url = new URL(value, "http://h/");
    secretsInForm(url.search, register);
    if (url.hash.includes("=")) secretsInForm(url.hash.slice(1), register);
  } catch {
    // No URL: its password was looked for as text above.
  }
}

/** A body and how to read it as JSON (a response parses once, lazily, for every reader). */
interface Body {
  text: string;
  contentType?: string;
  json: () => { ok: true; value: unknown } | { ok: false };
}

/**
 * Text in which no key can be secret: none of the marker words of
 * `isSecretKey` appears, and no escape (`\u0074oken`, `%74oken`) could spell
 * one. Such a body need not be parsed to look for secrets.
 */
const MAY_HOLD_SECRET_KEY =
  /token|secret|pass|pwd|key|credential|auth|cookie|session|jwt|csrf|xsrf|signature|\\u|%/i;

function secretsInBody(body: Body, register: Register): void {
  urlPasswords(body.text, register);
  if (!MAY_HOLD_SECRET_KEY.test(body.text)) return;
  const type = body.contentType?.toLowerCase() ?? "";
  const parsed = body.json();
  if (parsed.ok) secretsInJson(parsed.value, register);
  else if (type.includes("x-www-form-urlencoded")) secretsInForm(body.text, register);
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  const start = text.trimStart()[0];
  if (start !== "{" && start !== "[") return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * Registers the secrets of a request about to be sent: values of secret
 * headers (a `Cookie` also cookie by cookie), the password in the URL, values
 * of secret-named query parameters, and secret-named fields of a JSON or form
 * body; not the text the flow wrote under a header whose name merely looks
 * secret (`written`, from `secretInputs`: `Idempotency-Key: <string>`).
 *
 * @example
 * ```ts
 * import { secretsInRequest } from "./discover.ts";
 * const found: string[] = [];
 * secretsInRequest({
 *   url: "https://u:pw-123@api.test/x?api_key=k-123&page=2",
 *   headers: [["x-auth-token", "t-123"], ["content-type", "application/json"]],
 *   body: '{"user": "ann", "password": "p-123"}',
 * }, (v) => void found.push(v));
 * if (found.join() !== "t-123,pw-123,k-123,p-123") throw new Error(found.join());
 * ```
 */
export function secretsInRequest(
  request: {
    url: string;
    headers: [string, string][];
    body?: string;
    bodyKind?: "multipart" | "file";
  },
  register: Register,
  written?: ReadonlySet<string>,
): void {
  secretsInHeaders(request.headers, register, written);
  // Only a URL with a user part or a query can hold a secret of its own: most have neither.
  if (request.url.includes("@") || request.url.includes("?")) {
    // The password as written, as parsed and decoded: `pa@ss` whole, and `p%zz` too.
    for (const form of userinfoSecrets(request.url)) register(form);
    try {
      secretsInForm(new URL(request.url).search, register);
    } catch {
      // An unparsable URL fails when sent; its text is still masked by value.
    }
  }
  const { body } = request;
  if (body !== undefined && request.bodyKind !== "file") {
    // A multipart body's text is its fields, form-encoded.
    const contentType = request.bodyKind === "multipart"
      ? "application/x-www-form-urlencoded"
      : request.headers.find(([n]) => n.toLowerCase() === "content-type")?.[1];
    secretsInBody({ text: body, contentType, json: () => parseJson(body) }, register);
  }
}

/**
 * Registers the secrets of a response as it arrives, before any check or
 * report sees it: cookies it sets, values of secret headers, and values under
 * secret-looking keys of a JSON or form body; not plain data, nor the texts
 * `own` (what the flow itself sends in the clear), nor whole segments of the
 * path of `sentUrl`, the request's own URL (`sent_path.ts`).
 *
 * @example
 * ```ts
 * import { secretsInResponse } from "./discover.ts";
 * import { ReceivedResponse } from "../http/response.ts";
 * const found: string[] = [];
 * secretsInResponse(
 *   new ReceivedResponse(200, { "set-cookie": "sid=s-123; Path=/" }, '{"access_token": "a-123", "token_type": "Bearer"}'),
 *   (v) => void found.push(v),
 * );
 * if (!found.includes("s-123") || !found.includes("a-123") || found.includes("Bearer")) {
 *   throw new Error(found.join());
 * }
 * ```
 */
export function secretsInResponse(
  response: {
    headers: Record<string, string>;
    text: string;
    readonly json: { ok: true; value: unknown } | { ok: false };
  },
  register: Register,
  own?: ReadonlySet<string>,
  sentUrl?: string,
): void {
  // What the answer and the flow say in the clear is no part of a secret's own text.
  const clear = () => {
    const texts = response.json.ok ? clearLeaves(response.json.value) : new Set<string>();
    for (const text of own ?? []) texts.add(text);
    return texts;
  };
  const issued = issuedOnly(withClearTexts(register, clear), own, sentUrl);
  secretsInHeaders(Object.entries(response.headers), issued);
  const contentType = response.headers["content-type"];
  secretsInBody({ text: response.text, contentType, json: () => response.json }, issued);
}
