/**
 * The fields of a collection item that v2.0 and v2.1 (and the exporters of
 * Postman, Bruno and Newman) write in more than one way, each read into one
 * shape. Anything unreadable reads as absent: a converter keeps going.
 *
 * @module
 */
import type { PmAuth, PmBody, PmPair, PmScript } from "./model.ts";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * A value as text: strings as they are, numbers and booleans written out, anything else "".
 *
 * @example
 * ```ts
 * import { str } from "./fields.ts";
 * if (str(5) !== "5" || str(undefined) !== "" || str("a") !== "a") throw new Error();
 * ```
 */
export function str(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return "";
}

/**
 * A `key`/`value` list, disabled entries marked; a non-list is empty.
 *
 * @example
 * ```ts
 * import { pairs } from "./fields.ts";
 * const p = pairs([{ key: "a", value: 1 }, { key: "b", value: "x", disabled: true }, 7]);
 * if (p.length !== 2 || p[0].value !== "1" || !p[1].disabled) throw new Error();
 * ```
 */
export function pairs(list: unknown): PmPair[] {
  if (!Array.isArray(list)) return [];
  const out: PmPair[] = [];
  for (const item of list) {
    if (!isObject(item)) continue;
    const key = str(item.key ?? item.id ?? item.name);
    if (key === "") continue;
    const src = Array.isArray(item.src) ? str(item.src[0]) : str(item.src);
    out.push({
      key,
      value: str(item.value),
      ...(str(item.type) ? { type: str(item.type) } : {}),
      ...(src ? { src } : {}),
      ...(str(item.contentType) ? { contentType: str(item.contentType) } : {}),
      ...(item.disabled === true || item.enabled === false ? { disabled: true } : {}),
    });
  }
  return out;
}

/**
 * Headers from a list or from v1-style text (`Name: value` lines).
 *
 * @example
 * ```ts
 * import { headers } from "./fields.ts";
 * if (headers("Accept: a\nX-Y: b")[1].value !== "b") throw new Error();
 * ```
 */
export function headers(value: unknown): PmPair[] {
  if (typeof value !== "string") return described(value);
  return value.split(/\r?\n/).flatMap((line) => {
    const at = line.indexOf(":");
    return at > 0 ? [{ key: line.slice(0, at).trim(), value: line.slice(at + 1).trim() }] : [];
  });
}

/**
 * A header list's pairs, each with its own description where it has one (v2.1's
 * `{content}` or v2.0's text): what the collection says a header holds (header_evidence.ts).
 */
function described(list: unknown): PmPair[] {
  const about = new Map<string, string>();
  for (const item of Array.isArray(list) ? list : []) {
    if (!isObject(item)) continue;
    const d = isObject(item.description) ? item.description.content : item.description;
    if (str(d).trim() !== "") about.set(str(item.key ?? item.id ?? item.name), str(d));
  }
  return pairs(list).map((p) => about.has(p.key) ? { ...p, description: about.get(p.key) } : p);
}

/**
 * A URL as text: a string, or an object's `raw` (else its parts joined).
 *
 * @example
 * ```ts
 * import { url } from "./fields.ts";
 * if (url({ raw: "{{base}}/a?x=1" }) !== "{{base}}/a?x=1") throw new Error();
 * if (url({ protocol: "https", host: ["a", "test"], path: ["v1", "x"] }) !== "https://a.test/v1/x") throw new Error();
 * if (url({ protocol: "https", host: "{{h}}", path: "/v3/user" }) !== "https://{{h}}/v3/user") throw new Error();
 * const hashed = { raw: "{{base}}/s?id=IS:#a", query: [{ key: "id", value: "IS:#a" }] };
 * if (url(hashed) !== "{{base}}/s?id=IS:%23a") throw new Error(url(hashed));
 * const parts = { host: ["{{base}}"], path: ["s"], query: [{ key: "id", value: "a&b#c" }] };
 * if (url(parts) !== "{{base}}/s?id=a%26b%23c") throw new Error(url(parts));
 * ```
 */
export function url(value: unknown): string {
  if (typeof value === "string") return value.trim();
  if (!isObject(value)) return "";
  if (typeof value.raw === "string" && value.raw.trim() !== "") return fromRaw(value);
  const host = Array.isArray(value.host) ? value.host.map(str).join(".") : str(value.host);
  // A path written as text loses one leading "/", as Postman reads it (Contentstack's "/v3/user").
  const path = Array.isArray(value.path)
    ? value.path.map(str).join("/")
    : str(value.path).replace(/^\/(?=.)/, "");
  const query = queryText(pairs(value.query).filter((q) => !q.disabled));
  const protocol = str(value.protocol);
  const port = str(value.port);
  return `${protocol ? `${protocol}://` : ""}${host}${port ? `:${port}` : ""}${
    path === "/" ? "/" : path ? `/${path}` : ""
  }${query ? `?${query}` : ""}`;
}

/**
 * What a query value cannot hold as it is in a URL's text: `&` ends it, `#`
 * begins the fragment, a line break or tab is dropped (and `=`, in a key).
 */
// deno-lint-ignore no-control-regex
const RESERVED = /[&#\x00-\x1f\x7f]/g;
/** The same in a key, and `=`. */
// deno-lint-ignore no-control-regex
const RESERVED_IN_KEY = /[&#=\x00-\x1f\x7f]/g;

/** `text` percent-encoded where `reserved` matches, its `{{variables}}` as they are (as Postman's query parameters do). */
function encodeReserved(text: string, reserved: RegExp): string {
  return text.split(/(\{\{[^{}]*\}\})/).map((part, i) =>
    i % 2 === 1 ? part : part.replace(
      reserved,
      (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`,
    )
  ).join("");
}

/** Query parts as a URL's query text, what it cannot carry percent-encoded (as Newman sends them). */
function queryText(query: PmPair[]): string {
  return query.map((q) =>
    `${encodeReserved(q.key, RESERVED_IN_KEY)}=${encodeReserved(q.value ?? "", RESERVED)}`
  ).join("&");
}

/**
 * A URL object's `raw` text; when one of its `query` parts holds what the
 * text cannot carry (`#`, `&`, a line break: Postman's importer writes
 * values made from a `pattern`), the query is made from the parts (see
 * {@linkcode queryText}).
 */
function fromRaw(value: Record<string, unknown>): string {
  const raw = (value.raw as string).trim();
  const query = pairs(value.query).filter((q) => !q.disabled);
  if (queryText(query) === query.map((q) => `${q.key}=${q.value ?? ""}`).join("&")) return raw;
  const at = raw.indexOf("?");
  const hash = str(value.hash);
  return `${at < 0 ? raw : raw.slice(0, at)}?${queryText(query)}${hash ? `#${hash}` : ""}`;
}

/**
 * An auth block: v2.1 writes each setting as a `{key, value}` list, v2.0 as a map.
 *
 * @example
 * ```ts
 * import { auth } from "./fields.ts";
 * const a = auth({ type: "bearer", bearer: [{ key: "token", value: "{{t}}" }] });
 * const b = auth({ type: "basic", basic: { username: "u", password: "p" } });
 * if (a?.settings.token !== "{{t}}" || b?.settings.password !== "p") throw new Error();
 * ```
 */
export function auth(value: unknown): PmAuth | undefined {
  if (!isObject(value) || typeof value.type !== "string") return undefined;
  const type = value.type;
  const own = value[type];
  const settings: Record<string, string> = {};
  if (Array.isArray(own)) {
    for (const item of own) {
      if (isObject(item) && typeof item.key === "string") settings[item.key] = str(item.value);
    }
  } else if (isObject(own)) {
    for (const [k, v] of Object.entries(own)) settings[k] = str(v);
  }
  return { type, settings };
}

/**
 * A body in any of Postman's modes.
 *
 * @example
 * ```ts
 * import { body } from "./fields.ts";
 * const b = body({ mode: "raw", raw: "{}", options: { raw: { language: "json" } } });
 * if (b?.language !== "json" || body({ mode: "file", file: { src: "a.png" } })?.file !== "a.png") throw new Error();
 * ```
 */
export function body(value: unknown): PmBody | undefined {
  if (!isObject(value) || typeof value.mode !== "string") return undefined;
  const mode = value.mode;
  const options = isObject(value.options) && isObject(value.options.raw) ? value.options.raw : {};
  switch (mode) {
    case "raw":
      return { mode, raw: str(value.raw), language: str(options.language) || undefined };
    case "urlencoded":
    case "formdata":
      return { mode, pairs: pairs(value[mode]) };
    case "file":
      return { mode, file: isObject(value.file) ? str(value.file.src) : undefined };
    case "graphql": {
      const g = isObject(value.graphql) ? value.graphql : {};
      return { mode, graphql: { query: str(g.query), variables: str(g.variables) || undefined } };
    }
    default:
      return { mode };
  }
}

/**
 * The `prerequest` and `test` scripts of an item's `event` list, `exec` lines joined.
 *
 * @example
 * ```ts
 * import { events } from "./fields.ts";
 * const s = events([{ listen: "test", script: { exec: ["a;", "b;"] } }], "Login");
 * if (s[0].source !== "a;\nb;" || s[0].owner !== "Login") throw new Error();
 * ```
 */
export function events(value: unknown, owner: string): PmScript[] {
  if (!Array.isArray(value)) return [];
  const out: PmScript[] = [];
  for (const event of value) {
    if (!isObject(event) || event.disabled === true) continue;
    const listen = event.listen;
    if (listen !== "prerequest" && listen !== "test") continue;
    const script = isObject(event.script) ? event.script : {};
    const exec = script.exec;
    const source = Array.isArray(exec) ? exec.map(str).join("\n") : str(exec);
    if (source.trim() !== "") out.push({ listen, source, owner });
  }
  return out;
}

/**
 * A URL with Postman's path variables (`/users/:id`, values in the URL
 * object's `variable` list) filled in, as Postman sends it.
 *
 * @example
 * ```ts
 * import { withPathVariables } from "./fields.ts";
 * const raw = { raw: "{{base}}/users/:id/posts/:post_id?x=:id", variable: [{ key: "id", value: "{{userId}}" }, { key: "post_id", value: "7" }] };
 * if (withPathVariables("{{base}}/users/:id/posts/:post_id?x=:id", raw) !== "{{base}}/users/{{userId}}/posts/7?x=:id") throw new Error();
 * ```
 */
export function withPathVariables(text: string, value: unknown): string {
  if (!isObject(value)) return text;
  const vars = pairs(value.variable).filter((v) => !v.disabled);
  if (vars.length === 0) return text;
  const values = new Map(vars.map((v) => [v.key, v.value]));
  const at = text.search(/[?#]/);
  const path = at < 0 ? text : text.slice(0, at);
  const rest = at < 0 ? "" : text.slice(at);
  return path.replace(/\/:([A-Za-z0-9_.-]+)(?=\/|$)/g, (whole, name) => {
    const v = values.get(name);
    return v === undefined ? whole : `/${v}`;
  }) + rest;
}
