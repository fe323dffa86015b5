/**
 * The parts of a step that do not depend on the flow being built: its
 * headers, its `assert` (the first schema check apart), and why a request
 * cannot be sent at all.
 *
 * @module
 */
import { isSecretHeader } from "../../secrets/names.ts";
import { ymap, ymapOf, type YNode } from "../yaml_out.ts";
import { yamlValue } from "./body.ts";
import { checksYaml } from "./checks_yaml.ts";
import { isTypePlaceholder } from "./header_evidence.ts";
import type { PmPair, PmRequest } from "./model.ts";
import type { CheckItem } from "./script/translate.ts";
import { render } from "./template.ts";

/** An HTTP token: what a header name or a method may be. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Methods the HTTP client refuses to send. */
const UNSENDABLE = new Set(["CONNECT", "TRACE", "TRACK"]);

/** Methods flowrun sends no body with. */
export const NO_BODY = new Set(["GET", "HEAD"]);

/**
 * A request's headers: its own (a multipart body's stale `Content-Type`
 * left out, since the boundary is the runner's), then the auth's and the
 * body's content type where it sets none. A name that is no HTTP token, or a
 * value that is not Latin-1 text, is left out with a note in `comments`.
 *
 * @example
 * ```ts
 * import { headersOf } from "./step_parts.ts";
 * const r = { name: "r", folders: [], method: "GET", url: "https://a.test", scripts: [],
 *   headers: [{ key: "X-Id", value: "{{id}}" }, { key: "Bad Name", value: "v" }] };
 * const notes: string[] = [];
 * const h = headersOf(r, (n) => `\${vars.${n}}`, [["Authorization", "Bearer t"]], undefined, notes);
 * if (h.get("X-Id") !== "${vars.id}" || !h.has("Authorization") || notes.length !== 1) throw new Error();
 * ```
 */
export function headersOf(
  r: PmRequest,
  resolve: (name: string) => string,
  auth: [string, string][],
  contentType: string | undefined,
  comments: string[],
  secret?: (key: string, scheme: string, value: string) => string,
): Map<string, string> {
  const headers = new Map<string, string>();
  for (const h of r.headers) {
    if (!isSent(h, r)) continue;
    const key = h.key.trim();
    const value = oneLine(h.value);
    // A name holding `{{x}}` is filled as Postman fills it: the flow's name holds the expression.
    const name = /\{\{/.test(key) ? render(key, resolve) : key;
    const why = leftOutWhy(key, value, headers, name);
    if (why) {
      comments.push(`note: the header "${key}" is left out: ${why}`);
      continue;
    }
    headers.set(name, headerValue(key, value, resolve, h.asWritten ? undefined : secret));
  }
  addDefaults(headers, auth, contentType);
  return headers;
}

/**
 * Whether a header of `r` is sent: not disabled, named, and not a multipart
 * body's stale `Content-Type` (the boundary is the runner's).
 */
function isSent(h: PmPair, r: PmRequest): boolean {
  if (h.disabled || h.key.trim() === "") return false;
  return !(/^content-type$/i.test(h.key) && r.body?.mode === "formdata");
}

/** A header is one line: Postman's multi-line values are sent joined. */
function oneLine(value: string): string {
  return value.replace(/[\r\n]+\s*/g, " ");
}

/** Why a header is left out, first match wins; none matching keeps it. */
const LEFT_OUT: [
  (key: string, value: string, seen: Map<string, string>, name: string) => boolean,
  string,
][] = [
  // The written parts must be a name's: each `{{x}}` stands for the text its variable holds.
  [(key) => !TOKEN.test(key.replace(/\{\{[^{}]*\}\}/g, "x")), "it is not a header name"],
  [(_key, _value, seen, name) => seen.has(name), "it is given twice"],
  [
    (_key, value) => [...value].some((c) => c.charCodeAt(0) > 0xff),
    "its value is not Latin-1 text, which HTTP headers hold",
  ],
];

/** Why the header `key: value` is left out, or `undefined` when it is kept. */
function leftOutWhy(
  key: string,
  value: string,
  seen: Map<string, string>,
  name: string,
): string | undefined {
  return LEFT_OUT.find(([test]) => test(key, value, seen, name))?.[1];
}

/**
 * What a kept header's value becomes: a credential written out is read from
 * the environment (when `secret` is given: not for an importer's placeholder
 * the collection ties to no credential, header_evidence.ts), anything else rendered.
 */
function headerValue(
  key: string,
  value: string,
  resolve: (name: string) => string,
  secret?: (key: string, scheme: string, value: string) => string,
): string {
  if (secret && isLiteralSecret(key, value)) return secretHeader(key, value.trim(), secret);
  return render(value, resolve);
}

/**
 * A secret header whose value is written out, not a `{{variable}}` nor empty, nor a scheme's
 * word alone (`Authorization: Basic`): with no credential after it, nothing in it is secret.
 */
function isLiteralSecret(key: string, value: string): boolean {
  // Only an Authorization header is `scheme credential`; an API key's whole value is its key.
  const bare = /^(proxy-)?authorization$/i.test(key) && BARE_SCHEME.test(value.trim());
  return isSecretHeader(key) && !/\{\{/.test(value) && value.trim() !== "" && !bare;
}

/**
 * The auth's headers, then the body's content type, each only where the
 * headers already set hold none of that name (in any case).
 */
function addDefaults(
  headers: Map<string, string>,
  auth: [string, string][],
  contentType: string | undefined,
): void {
  const has = (n: string) => [...headers.keys()].some((k) => k.toLowerCase() === n.toLowerCase());
  for (const [k, v] of auth) if (!has(k)) headers.set(k, v);
  if (contentType && !has("content-type")) headers.set("Content-Type", contentType);
}

/**
 * Authorization schemes kept in front of a credential written out. A credential never starts
 * with `=`: `token = abc` is a name and its value (a cookie), not the scheme `Token`.
 */
const SCHEME = /^(Bearer|Basic|Token|Digest|OAuth|Bot|JWT|ApiKey|AWS4-HMAC-SHA256|Hawk)\s+[^\s=]/i;
/** A scheme's word with nothing after it: no credential is written. */
const BARE_SCHEME = /^(Bearer|Basic|Token|Digest|OAuth|Bot|JWT|ApiKey|AWS4-HMAC-SHA256|Hawk)$/i;

/**
 * A credential written into a secret header (`Authorization: Bearer abc…`,
 * `X-Api-Key`, `Cookie`): never copied into the flow, but read from the
 * environment, its scheme kept.
 */
function secretHeader(
  key: string,
  value: string,
  secret: (key: string, scheme: string, value: string) => string,
): string {
  // A Cookie header holds `name=value` pairs, never a scheme: its whole value is the secret.
  const scheme = /^cookie$/i.test(key) ? "" : value.match(SCHEME)?.[1] ?? "";
  const credential = value.slice(scheme.length).trim();
  // An importer's placeholder (`<string>`) is asked for here but hidden nowhere else: the same
  // text in a header sent as written, or in a body, is no credential.
  const hidden = isTypePlaceholder(credential) ? "" : credential;
  const env = `\${ENV.${secret(key, scheme, hidden)}}`;
  return scheme ? `${scheme} ${env}` : env;
}

/**
 * The step's first body schema check, apart from the others (one `schema` per step);
 * `extra` counts those of another schema.
 *
 * @example
 * ```ts
 * import { splitSchema } from "./step_parts.ts";
 * const schema = { cond: { path: "$.json", op: "schema", value: { type: "object" } } };
 * const other = { cond: { path: "$.json", op: "schema", value: { type: "array" } } };
 * const out = splitSchema([schema, schema, other, { cond: { path: "$.status", op: "equals", value: 200 } }]);
 * if (out.checks.length !== 1 || out.extra !== 1) throw new Error();
 * ```
 */
export function splitSchema(
  items: CheckItem[],
): { checks: CheckItem[]; schema?: unknown; extra: number } {
  const schemas = items.filter((i) => "cond" in i && i.cond.op === "schema");
  const checks = items.filter((i) => !("cond" in i && i.cond.op === "schema"));
  const first = schemas[0];
  const schema = first && "cond" in first ? first.cond.value : undefined;
  // The same schema checked twice (`jsonSchema(s)`, then `tv4.validate(json, s)`) is one check.
  const same = JSON.stringify(schema);
  const others = schemas.filter((i) => "cond" in i && JSON.stringify(i.cond.value) !== same);
  return { checks, schema, extra: others.length };
}

/**
 * The step's `assert`: its schema, then its checks; `undefined` when it has neither.
 *
 * @example
 * ```ts
 * import { assertOf } from "./step_parts.ts";
 * if (assertOf([], undefined) !== undefined || assertOf([], { type: "object" }) === undefined) throw new Error();
 * ```
 */
export function assertOf(checks: CheckItem[], schema: unknown): YNode | undefined {
  if (checks.length === 0 && schema === undefined) return undefined;
  return ymap([
    ["schema", schema === undefined ? undefined : yamlValue(schema)],
    ["json", checks.length > 0 ? checksYaml(checks) : undefined],
  ]);
}

/**
 * Why flowrun cannot send `r` as Postman would, or `undefined` when it can.
 *
 * @example
 * ```ts
 * import { unsendable } from "./step_parts.ts";
 * const r = { name: "r", folders: [], method: "GET", url: "ftp://a.test/f", headers: [], scripts: [] };
 * if (!unsendable(r)?.includes("ftp") || unsendable({ ...r, url: "{{base}}/a" }) !== undefined) throw new Error();
 * if (!unsendable({ ...r, url: "/v3/a" })?.includes("no host")) throw new Error();
 * ```
 */
export function unsendable(r: PmRequest): string | undefined {
  if (!TOKEN.test(r.method) || UNSENDABLE.has(r.method)) {
    return `flowrun cannot send the method "${r.method}"`;
  }
  if (r.url.trim() === "") return "it has no URL";
  // Postman's importer makes one from a relative server (`/v3`); Postman cannot send it either.
  if (r.url.startsWith("/")) return `its URL has no host: ${r.url}`;
  const scheme = r.url.match(/^([A-Za-z][A-Za-z0-9+.-]*):\/\//)?.[1];
  if (scheme && !/^https?$/i.test(scheme)) return `flowrun sends http and https, not ${scheme}`;
  return undefined;
}

/**
 * A step's `options`: redirects not followed where Postman was told not to, and headers that
 * render empty left out where the auth's token may be empty (Newman sends no bearer header then).
 *
 * @example
 * ```ts
 * import { stepOptions } from "./step_parts.ts";
 * if (stepOptions(false, false) !== undefined) throw new Error();
 * if (!JSON.stringify(stepOptions(true, true)).includes("omit_empty_headers")) throw new Error();
 * ```
 */
export function stepOptions(noRedirects: boolean, omitEmpty = false): YNode | undefined {
  const entries: [string, YNode][] = [];
  if (noRedirects) entries.push(["follow_redirects", false]);
  if (omitEmpty) entries.push(["omit_empty_headers", true]);
  return ymapOf(entries);
}

/**
 * Whether the step leaves out every header that renders empty (`omit_empty_headers`), as Newman
 * leaves out an empty bearer token: only when the auth's header is the one that may be empty.
 * Another header that may be empty Newman sends empty, and the option would leave it out too, so
 * then the auth's header is dropped from `headers` instead and the option is not set.
 *
 * @example
 * ```ts
 * import { omitEmptyAuth } from "./step_parts.ts";
 * const headers = new Map([["Authorization", "Bearer ${ENV.T:-}"], ["X-Tenant", "${ENV.X:-}"]]);
 * if (omitEmptyAuth(true, headers, (v) => v.includes(":-}")) || headers.has("Authorization")) {
 *   throw new Error();
 * }
 * ```
 */
export function omitEmptyAuth(
  wanted: boolean | undefined,
  headers: Map<string, string>,
  mayBeEmpty: (value: string) => boolean,
): boolean {
  if (!wanted) return false;
  const other = [...headers].some(([k, v]) => !/^authorization$/i.test(k) && mayBeEmpty(v));
  if (other) headers.delete("Authorization");
  return !other;
}

/**
 * The body fields a step sends: none with a method flowrun sends no body with, said in a comment.
 *
 * @example
 * ```ts
 * import { sentFields } from "./step_parts.ts";
 * const comments: string[] = [];
 * if (sentFields("GET", [["body", "x"]], comments).length !== 0 || comments.length !== 1) {
 *   throw new Error();
 * }
 * ```
 */
export function sentFields<F>(method: string, fields: F[], comments: string[]): F[] {
  if (!NO_BODY.has(method) || fields.length === 0) return fields;
  comments.push(`the ${method} request's body is left out: flowrun sends no body with ${method}`);
  return [];
}
