/**
 * Which variables hold credentials, by where the collection uses them, never
 * by their names: a variable in a credential field of an auth (a password, a
 * token, an API key's value, a client secret), in the value of a header that
 * carries credentials (`Authorization`, `Cookie`, `X-Api-Key`), or in a body
 * or query field that is a credential (`password`, `client_secret`). A
 * variable named `passwordMinLength` or `apiKeyColumn` that the collection
 * sends as ordinary data is not one, whatever its name or the shape of its
 * value: it is sent as the collection gives it, so the suite runs as written. Nor is a variable
 * the files give an ordinary word where a credential header holds words around its credential:
 * the scheme in front of it (`{{tokenType}} {{accessToken}}` with `tokenType` = `Bearer`) and a
 * cookie that is no session (`lang={{lang}}; sid={{sid}}` with `lang` = `en`). Both were asked for
 * as secrets: the flow did not run as printed, and `${ENV.LANG}` read the shell's locale. A JSON
 * Web Token the files give is one by what it is, wherever it is sent (`{"refresh": "{{rt}}"}`).
 *
 * @module
 */
import { isSecretHeader } from "../../secrets/names.ts";
import { isWrittenHeaderText } from "../../secrets/written_headers.ts";
import { isOrdinaryWord } from "../../secrets/public_parts.ts";
import type { PmCollection, PmPair, PmRequest } from "./model.ts";
import { placeholders } from "./template.ts";
import { isJwt } from "../jwt_literal.ts";
import { isAuthPath } from "../names.ts";
import { isWordedText, sendsAccount } from "../correlate/worded_fields.ts";

/** Auth settings that hold what the user typed as a credential, whatever the auth's type. */
const AUTH_FIELDS = new Set([
  "password",
  "token",
  "accessToken",
  "refreshToken",
  "clientSecret",
  "consumerSecret",
  "tokenSecret",
  "privateKey",
  "accessKey",
  "secretKey",
  "sessionToken",
  "authKey",
  "clientToken",
  "secret",
]);

/** Body and query fields whose value is a credential, by the field's whole name. */
const CREDENTIAL_FIELD =
  /^(password|passwd|pwd|pass|client[_-]?secret|api[_-]?key|access[_-]?key|access_token|refresh_token|id_token|secret|token)$/i;
/** Query parameters APIs read a key from (`?key=…` as Google's, `?appid=…` as OpenWeather's). */
const CREDENTIAL_QUERY = /^(key|appid|app[_-]?key|auth|sig|signature)$/i;

/** The value the files give each variable, by name (`undefined`: they give none). */
type Given = (name: string) => string | undefined;

/**
 * The `{{names}}` in a credential header's value that hold the credential: not a scheme word in
 * front of it (`{{scheme}} {{token}}`), nor a cookie whose value is a word (`lang={{lang}}`).
 */
function headerCredentials(key: string, value: string, given: Given): string[] {
  const word = (name: string) => isOrdinaryWord(given(name) ?? "");
  const plain = new Set<string>();
  const scheme = /^\{\{([^{}]+)\}\}\s+\S/.exec(value)?.[1];
  if (scheme !== undefined && word(scheme)) plain.add(scheme);
  if (/^cookie$/i.test(key.trim())) {
    for (const pair of value.split(";")) {
      const whole = /^[^=]*=\s*\{\{([^{}]+)\}\}$/.exec(pair.trim())?.[1];
      if (whole !== undefined && word(whole)) plain.add(whole);
    }
  }
  return placeholders(value).filter((name) => !plain.has(name));
}

/** The values the collection's variables and then `files` (its environment, globals) give. */
function givenBy(c: PmCollection, files: PmPair[][]): Given {
  const values = new Map<string, string>();
  for (const p of [...c.variables, ...files.flat()]) values.set(p.key, p.value);
  return (name) => values.get(name);
}

/** The `{{names}}` of the credentials one request sends. */
function requestCredentials(r: PmRequest, out: Set<string>, given: Given): void {
  const add = (text: string | undefined) => {
    for (const name of placeholders(text ?? "")) out.add(name);
  };
  for (const [key, value] of Object.entries(r.auth?.settings ?? {})) {
    if (AUTH_FIELDS.has(key) || (r.auth?.type === "apikey" && key === "value")) add(value);
  }
  const secretHeaders = r.headers.filter((h) =>
    !h.disabled && isSecretHeader(h.key) && !ownHeaderText(h.key, h.value, given)
  );
  for (const name of secretHeaders.flatMap((h) => headerCredentials(h.key, h.value, given))) {
    out.add(name);
  }
  const fields = fieldsSent(r);
  const place = credentialPlace(r, fields, given);
  for (const [key, value] of fields) {
    if (CREDENTIAL_FIELD.test(key) && !isWordedText(key, filled(value, given), place)) add(value);
  }
  for (const m of (r.url.split("?")[1] ?? "").matchAll(/(?:^|&)([^=&]+)=([^&#]*)/g)) {
    if (CREDENTIAL_QUERY.test(m[1])) add(m[2]);
  }
  for (const name of jwtsSent(r, given)) out.add(name);
}

/**
 * Whether the collection gives header `key` a value of its own, no credential: every variable in
 * it is given, and the filled text is what written_headers.ts calls the flow's own (a header named
 * only by `key`, `X-Request-Key: order-note-7`), as the run reads it.
 */
function ownHeaderText(key: string, value: string, given: Given): boolean {
  const names = placeholders(value);
  return names.length > 0 && names.every((name) => given(name) !== undefined) &&
    isWrittenHeaderText(key, filled(value, given));
}

/** `text` with each `{{name}}` the files give replaced by its value, as Postman sends it. */
function filled(text: string, given: Given): string {
  return text.replace(/\{\{([^{}]+)\}\}/g, (whole, name) => given(name) ?? whole);
}

/**
 * Whether `r` is a place where a word under a credential key is the credential the user typed
 * (worded_fields.ts): a login (by its path), or a body sending an account's name or address
 * beside it (a sign-up). Elsewhere a word the files give there is the API's text.
 */
function credentialPlace(r: PmRequest, fields: [string, string][], given: Given): boolean {
  const path = filled(r.url, given).replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, "").split("?")[0];
  return isAuthPath(path) || sendsAccount(fields.map(([k, v]) => [k, filled(v, given)]));
}

/** The `{{names}}` a request sends whose value the files give is a JSON Web Token, a credential by what it is. */
function jwtsSent(r: PmRequest, given: Given): string[] {
  const texts = [r.url, r.body?.raw ?? "", ...r.headers.map((h) => h.value)];
  return [...texts, ...(r.body?.pairs ?? []).map((p) => p.value)]
    .flatMap((text) => placeholders(text)).filter((name) => isJwt(given(name) ?? ""));
}

/** The body and query fields a request sends, as written: form pairs, query pairs, JSON strings. */
function fieldsSent(r: PmRequest): [string, string][] {
  const fields: [string, string][] = (r.body?.pairs ?? []).map((p) => [p.key, p.value]);
  for (const m of (r.url.split("?")[1] ?? "").matchAll(/(?:^|&)([^=&]+)=([^&#]*)/g)) {
    fields.push([m[1], m[2]]);
  }
  // A JSON body's "password": "{{pw}}" (at any depth; the key as written).
  for (const m of (r.body?.raw ?? "").matchAll(/"([^"\\]{1,64})"\s*:\s*"([^"\\]*)"/g)) {
    fields.push([m[1], m[2]]);
  }
  return fields;
}

/**
 * The variables the collection uses as credentials.
 *
 * @example
 * ```ts
 * import { credentialVariables } from "./credentials.ts";
 * const request = (over: object) => ({ name: "r", folders: [], method: "GET", url: "{{host}}/a?min={{passwordMinLength}}", headers: [], scripts: [], ...over });
 * const names = credentialVariables({ name: "c", version: "2.1", variables: [], depth: 0, units: [{ requests: [
 *   request({ auth: { type: "basic", settings: { username: "{{user}}", password: "{{pw}}" } } }),
 *   request({ headers: [{ key: "Authorization", value: "Bearer {{jwt}}" }, { key: "X-Column", value: "{{apiKeyColumn}}" }] }),
 *   request({ body: { mode: "raw", raw: '{"user": {"password": "{{PASSWORD}}"}}' } }),
 * ] }] });
 * if ([...names].sort().join() !== "PASSWORD,jwt,pw") throw new Error([...names].join());
 * const keyed = credentialVariables({ name: "c", version: "2.1", variables: [], depth: 0, units: [{ requests: [
 *   request({ url: "{{host}}/geo?key={{mapsKey}}&api-key={{k2}}&column={{apiKeyColumn}}" }),
 * ] }] });
 * if ([...keyed].sort().join() !== "k2,mapsKey") throw new Error([...keyed].join());
 * ```
 */
export function credentialVariables(c: PmCollection, ...files: PmPair[][]): Set<string> {
  const out = new Set<string>();
  const given = givenBy(c, files);
  for (const unit of c.units) for (const r of unit.requests) requestCredentials(r, out, given);
  return out;
}

/**
 * The variables each request sends beside a credential, in a body or query field or as a Basic
 * auth's user name (a login's user name beside its password), each with the credentials it was
 * sent with: a user who must fill the credential fills these too.
 *
 * @example
 * ```ts
 * import { companionVariables } from "./credentials.ts";
 * const r = { name: "r", folders: [], method: "POST", url: "{{host}}/auth", headers: [], scripts: [] };
 * const login = { ...r, body: { mode: "raw", raw: '{"username": "{{user}}", "password": "{{pw}}"}' } };
 * const basic = { ...r, auth: { type: "basic", settings: { username: "{{u2}}", password: "{{p2}}" } } };
 * const c = companionVariables({ name: "c", version: "2.1", variables: [], depth: 0, units: [{ requests: [login, basic, r] }] });
 * if ([...c.get("user") ?? []].join() !== "pw" || [...c.get("u2") ?? []].join() !== "p2" || c.has("host")) {
 *   throw new Error(JSON.stringify([...c]));
 * }
 * ```
 */
export function companionVariables(
  c: PmCollection,
  ...files: PmPair[][]
): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const given = givenBy(c, files);
  for (const unit of c.units) {
    for (const r of unit.requests) {
      const credentials = new Set<string>();
      requestCredentials(r, credentials, given);
      if (credentials.size === 0) continue;
      const fields = fieldsSent(r).map(([, value]) => value).concat(
        r.auth?.settings?.username ?? "",
      );
      for (const name of fields.flatMap((f) => placeholders(f))) {
        if (credentials.has(name)) continue;
        const of = out.get(name) ?? new Set<string>();
        for (const cred of credentials) of.add(cred);
        out.set(name, of);
      }
    }
  }
  return out;
}

/** A password field's whole name, as a login form or JSON body names it. */
const PASSWORD_FIELD = /^(password|passwd|pwd|pass)$/i;

/**
 * Whether `r` sends a password in its body or query (a login or a sign-up), not empty.
 *
 * @example
 * ```ts
 * import { sendsPassword } from "./credentials.ts";
 * const r = { name: "r", folders: [], method: "POST", url: "{{host}}/login", headers: [], scripts: [] };
 * if (!sendsPassword({ ...r, body: { mode: "raw", raw: '{"email": "a@b.c", "password": "pw"}' } })) throw new Error();
 * if (sendsPassword({ ...r, body: { mode: "raw", raw: '{"password": ""}' } })) throw new Error();
 * ```
 */
export function sendsPassword(r: PmRequest): boolean {
  return fieldsSent(r).some(([key, value]) => PASSWORD_FIELD.test(key) && value !== "");
}

/**
 * {@linkcode credentialVariables} and {@linkcode companionVariables} at once, the files' values
 * given in the order Postman lets them win (globals, then the environment).
 *
 * @example
 * ```ts
 * import { credentialsOf } from "./credentials.ts";
 * const r = { name: "r", folders: [], method: "GET", url: "{{host}}/a", scripts: [],
 *   headers: [{ key: "Authorization", value: "{{kind}} {{jwt}}" }, { key: "Cookie", value: "lang={{lang}}; sid={{sid}}" }] };
 * const c = { name: "c", version: "2.1", variables: [{ key: "kind", value: "Bearer" }], depth: 0, units: [{ requests: [r] }] };
 * const [credentials] = credentialsOf(c, [], [{ key: "lang", value: "en" }, { key: "sid", value: "s%3Aq8Zt1VbN0x" }]);
 * if ([...credentials].sort().join() !== "jwt,sid") throw new Error([...credentials].join());
 * ```
 */
export function credentialsOf(
  c: PmCollection,
  ...files: PmPair[][]
): [Set<string>, Map<string, Set<string>>] {
  return [credentialVariables(c, ...files), companionVariables(c, ...files)];
}
