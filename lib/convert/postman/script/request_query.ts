/**
 * A query parameter a pre-request script adds to its request:
 * `pm.request.url.query.add("from=" + new Date().toISOString())`, `upsert`,
 * `pm.request.addQueryParams({ key: "page", value: pm.environment.get("page") })`.
 * When it is text, Postman variables and the time of the request (written
 * back as Postman's `{{$isoTimestamp}}`, `{{$timestamp}}`), the step sends it
 * as `key=value` Postman text, resolved as the request's own URL is; anything
 * else stays a comment.
 *
 * @module
 */
import { dotted, type EvalContext, evaluate } from "./eval.ts";
import type { Node } from "./parse.ts";
import { postmanText } from "./request_header.ts";
import type { Sym } from "./sym.ts";

/** The calls that add (or replace) a query parameter of the request about to be sent. */
const ADDERS = new Set([
  "pm.request.url.query.add",
  "pm.request.url.addQueryParams",
  "pm.request.url.query.upsert",
  "pm.request.addQueryParams",
]);

/** Values made at run time that Postman writes as a dynamic variable. */
const DYNAMIC = new Map([
  ["NOW.ISO", "{{$isoTimestamp}}"],
  ["NOW.UNIX", "{{$timestamp}}"],
  ["RANDOM.UUID", "{{$guid}}"],
]);

/** A made value's flow text as Postman text; undefined when a part has no Postman spelling. */
function madeText(text: string): string | undefined {
  let ok = true;
  const out = text.replace(/\$\$\{|\$\{([^}]*)\}/g, (m, name) => {
    if (m === "$${") return "${";
    const dynamic = DYNAMIC.get(name);
    if (!dynamic) ok = false;
    return dynamic ?? "";
  });
  return ok ? out : undefined;
}

/**
 * A value as Postman text, a made one (the time, a UUID) included; undefined
 * when a part has no Postman spelling.
 *
 * @example
 * ```ts
 * import { queryText } from "./request_query.ts";
 * const t = queryText({ k: "cat", parts: [{ k: "lit", value: "a=" }, { k: "var", name: "x", expr: "" }] });
 * if (t !== "a={{x}}") throw new Error(String(t));
 * ```
 */
export function queryText(s: Sym | undefined): string | undefined {
  if (s?.k === "gen") return madeText(s.text);
  if (s?.k !== "cat") return postmanText(s);
  const parts = s.parts.map(queryText);
  return parts.every((p) => p !== undefined) ? parts.join("") : undefined;
}

/**
 * The `key=value` (Postman text) a query-adding call adds; `undefined` when it
 * cannot be said; `null` when the call adds no query parameter.
 *
 * @example
 * ```ts
 * import { addedQuery } from "./request_query.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript('pm.request.url.query.add("from=" + new Date().toISOString())');
 * if (!p.ok) throw new Error(p.why);
 * const ctx = { scope: new Map(), tests: new Map(), variable: (n: string) => ({ k: "var" as const, name: n, expr: "" }) };
 * const q = addedQuery(p.program.body[0].expression, ctx);
 * if (q !== "from={{$isoTimestamp}}") throw new Error(String(q));
 * ```
 */
export function addedQuery(e: Node, ctx: EvalContext): string | undefined | null {
  const callee = e.type === "CallExpression" ? dotted(e.callee) : undefined;
  if (!callee || !ADDERS.has(callee)) return null;
  const [arg] = e.arguments;
  if (e.arguments.length !== 1 || !arg) return undefined;
  // `addQueryParams([{ key, value }, …])`: each pair, in order.
  if (arg.type === "ArrayExpression" && callee.endsWith("addQueryParams")) {
    const pairs = (arg.elements as (Node | null)[]).map((el) => el ? pairText(el, ctx) : undefined);
    return pairs.length > 0 && pairs.every((p) => p !== undefined) ? pairs.join("&") : undefined;
  }
  return pairText(arg, ctx);
}

/** `key=value` of text or of one `{ key, value }`; undefined when it cannot be said. */
function pairText(arg: Node, ctx: EvalContext): string | undefined {
  if (arg.type !== "ObjectExpression") {
    const text = queryText(evaluate(arg, ctx, 0));
    return text && /^[^=&]+=/.test(text) ? text : undefined;
  }
  const field = (name: string) => {
    const p = arg.properties.find((p: Node) =>
      p.type === "Property" && !p.computed && (p.key.name ?? p.key.value) === name
    );
    return p ? queryText(evaluate(p.value, ctx, 0)) : undefined;
  };
  const key = field("key");
  const value = field("value");
  return key && value !== undefined ? `${key}=${value}` : undefined;
}

/**
 * `url` (Postman text) with the parameters a script added after its own.
 *
 * @example
 * ```ts
 * import { withQuery } from "./request_query.ts";
 * if (withQuery("{{base}}/a?x=1", ["y=2", "z=3"]) !== "{{base}}/a?x=1&y=2&z=3") throw new Error();
 * if (withQuery("{{base}}/a", []) !== "{{base}}/a") throw new Error();
 * ```
 */
export function withQuery(url: string, query: string[]): string {
  if (query.length === 0) return url;
  return `${url}${url.includes("?") ? "&" : "?"}${query.join("&")}`;
}
