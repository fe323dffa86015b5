/**
 * `pm.sendRequest(…)` in a pre-request script, as collections fetch a token
 * or an id before the request that needs it: Postman sends it, waits for its
 * callback, then sends the request. When its URL, method, headers and raw body
 * are text or variables known before it is sent, it is a request of its own
 * just before (flow.ts makes it a step), its callback the test script of that
 * step, with the response parameter read as `pm.response` and the error one as
 * `undefined` (a flow's step fails when no response comes).
 *
 * @module
 */
import { dotted, type EvalContext, evaluate } from "./eval.ts";
import type { Node } from "./parse.ts";
import { postmanText } from "./request_header.ts";
import { boundNow, closureNames, closureOf } from "./closure.ts";
import type { PmRequest } from "../model.ts";
import type { Sym } from "./sym.ts";

/** A context that may name a part of the response a test script's request reads (response_send.ts). */
export type SendContext = EvalContext & { part?: (s: Sym) => string | undefined };

/** A request a pre-request script sends first, in Postman text (`{{name}}` for a variable). */
export interface SideRequest {
  method: string;
  url: string;
  headers: { key: string; value: string }[];
  raw?: string;
  /** For a test script's: the conditions it is sent under (PmRequest's `sentIf`). */
  sentIf?: PmRequest["sentIf"];
  /** Set when `raw` is what `JSON.stringify(…)` writes (PmBody's `stringified`). */
  stringified?: true;
  /** `body.options.raw.language`: Postman sends the raw body with the type it names. */
  language?: string;
  /** The callback's body as a test script of the side request (empty without a callback). */
  callback: string;
  /**
   * Set when an `if` whose value is known here decides it (`if (!token) log in`, the token
   * unset): the call's source, so that a flow sends it once, as Postman does once it is cached.
   */
  once?: string;
}

/** A field of an object literal, by name. */
function field(obj: Node, name: string): Node | undefined {
  return obj.properties.find((p: Node) =>
    p.type === "Property" && !p.computed && (p.key.name ?? p.key.value) === name
  )?.value;
}

/**
 * `header: { "X": v }`, `[{ key, value }]`, or text (`'Content-Type:application/json'`, a
 * line each; a list may hold such lines too) as pairs; undefined when one is not text now.
 */
function headers(node: Node | undefined, ctx: SendContext): SideRequest["headers"] | undefined {
  if (!node) return [];
  const lines = headerLines(node, ctx);
  if (lines !== null) return lines;
  const pairs: [Node | string, Node | undefined][] = node.type === "ObjectExpression"
    ? node.properties.map((
      p: Node,
    ) => [p.computed ? p.key : String(p.key.name ?? p.key.value), p.value])
    : node.type === "ArrayExpression"
    ? node.elements.map((
      e: Node,
    ) => [
      e?.type === "ObjectExpression" ? field(e, "key")! : e,
      e?.type === "ObjectExpression" ? field(e, "value") : undefined,
    ])
    : [];
  if (pairs.length === 0 && node.type !== "ObjectExpression") return undefined;
  const out: SideRequest["headers"] = [];
  for (const [k, v] of pairs) {
    const key = typeof k === "string" ? k : postmanText(k ? evaluate(k, ctx, 0) : undefined);
    // A template literal (`Bearer ${token}`) is joined as Postman text, as a URL is.
    const value = v ? textOf(v, ctx) : undefined;
    if (!key || value === undefined) return undefined;
    out.push({ key, value });
  }
  return out;
}

/**
 * Headers given as text, as Postman's request reads them: one text holds a header a line
 * (`Header.parse`: the name runs to the line's last colon before a space, the value is
 * trimmed), a list's text element is one header split at its first colon
 * (`Header.parseSingle`). `null` when `node` holds no such text (an object, a list of
 * objects); undefined when the text is not known now.
 */
function headerLines(node: Node, ctx: SendContext): SideRequest["headers"] | undefined | null {
  if (node.type === "ArrayExpression") {
    const texts = node.elements.some((e: Node | null) => e && isText(e))
      ? node.elements.map((e: Node | null) => (e ? textOf(e, ctx) : undefined))
      : null;
    if (texts === null) return null;
    if (texts.includes(undefined)) return undefined;
    return (texts as string[]).map((t) => {
      const at = t.includes(":") ? t.indexOf(":") : t.length;
      return { key: t.slice(0, at).trim(), value: t.slice(at + 1).trim() };
    });
  }
  if (!isText(node)) return null;
  const text = textOf(node, ctx);
  if (text === undefined) return undefined;
  return [...text.replace(/\r\n([ \t])/g, "$1").matchAll(/^(\S+):(.*)$/gm)].map((m) => ({
    key: m[1],
    value: m[2].trim(),
  }));
}

/** Whether `node` is written as text: a string, a template, or text joined with `+`. */
function isText(node: Node): boolean {
  return (node.type === "Literal" && typeof node.value === "string") ||
    node.type === "TemplateLiteral" ||
    (node.type === "BinaryExpression" && node.operator === "+");
}

/**
 * Text as Postman sends it: a template literal (`\`http://localhost:${port}/users\``) joined
 * from its parts (each a variable's `{{name}}` or text known now), else the value's text.
 */
function textOf(node: Node | undefined, ctx: SendContext): string | undefined {
  if (node?.type !== "TemplateLiteral") {
    return postmanText(node && evaluate(node, ctx, 0), ctx.part);
  }
  const parts = node.expressions.map((e: Node) => postmanText(evaluate(e, ctx, 0), ctx.part));
  if (parts.includes(undefined)) return undefined;
  return node.quasis.map((q: Node, i: number) => q.value.cooked + (parts[i] ?? "")).join("");
}

/**
 * A raw body: text, or `JSON.stringify(…)` of a value known now or of variables' text
 * (`JSON.stringify(x, null, 2)` alike: the spaces change no JSON a server reads).
 *
 * @example
 * ```ts
 * import { rawText } from "./side_request.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript('JSON.stringify({ a: 1, b: pm.environment.get("b") }, null, 2)');
 * if (!p.ok) throw new Error(p.why);
 * const ctx = { scope: new Map(), tests: new Map(), variable: (n: string) => ({ k: "var" as const, name: n, expr: "" }) };
 * const raw = rawText(p.program.body[0].expression, ctx);
 * if (raw !== '{"a":1,"b":"{{b}}"}') throw new Error(raw);
 * ```
 */
export function rawText(node: Node, ctx: SendContext): string | undefined {
  const [value, replacer, space] = node.arguments ?? [];
  const json = node.type === "CallExpression" && dotted(node.callee) === "JSON.stringify" &&
    value !== undefined && (replacer === undefined || isNull(replacer)) &&
    (space === undefined || space.type === "Literal") && node.arguments.length <= 3;
  if (!json) return postmanText(evaluate(node, ctx, 0), ctx.part);
  return jsonText(value, ctx);
}

/** `null` (or `undefined`) as a replacer: JSON.stringify keeps every member. */
const isNull = (n: Node) =>
  (n.type === "Literal" && n.value === null) || (n.type === "Identifier" && n.name === "undefined");

/** An object literal as `JSON.stringify` writes it, member by member (jsonText). */
function objectText(node: Node, ctx: SendContext): string | undefined {
  const members: string[] = [];
  for (const p of node.properties) {
    if (p.type !== "Property" || p.computed || p.kind !== "init") return undefined;
    // JSON.stringify leaves out a member whose value is undefined (a variable nothing gives).
    const read = evaluate(p.value, ctx, 0);
    if (read?.k === "lit" && read.value === undefined) continue;
    const text = jsonText(p.value, ctx);
    if (text === undefined) return undefined;
    members.push(`${JSON.stringify(String(p.key.name ?? p.key.value))}:${text}`);
  }
  return `{${members.join(",")}}`;
}

/**
 * What `JSON.stringify` writes for `node` in Postman text: a literal as JSON, and a variable
 * (`pm.environment.get("name")`, a `const` read from one) as its text JSON-quoted, since a
 * value Postman keeps from an environment file or a response's text is a string; an object
 * or array of those member by member. `undefined` when a part is neither.
 */
function jsonText(node: Node, ctx: SendContext): string | undefined {
  const value = evaluate(node, ctx, 0);
  if (value?.k === "lit") {
    return value.value === undefined ? undefined : JSON.stringify(value.value);
  }
  if (node.type === "ArrayExpression") {
    const items = node.elements.map((e: Node | null) => (e ? jsonText(e, ctx) : undefined));
    return items.includes(undefined) ? undefined : `[${items.join(",")}]`;
  }
  if (node.type === "ObjectExpression") return objectText(node, ctx);
  // A part of the answer a test script's request sends (response_send.ts): its placeholder,
  // which a stringified body sends with the member's own JSON type, as JSON.stringify writes it.
  const part = (value?.k === "path" || value?.k === "pick") && ctx.part !== undefined;
  const text = value?.k === "var" || value?.k === "cat" || part
    ? postmanText(value, ctx.part)
    : undefined;
  return text === undefined ? undefined : JSON.stringify(text);
}

/** `{ url, method, header, body: { mode: "raw", raw } }`; undefined when a part is not known now. */
function objectRequest(arg: Node, ctx: SendContext): Omit<SideRequest, "callback"> | undefined {
  const url = textOf(field(arg, "url"), ctx);
  const m = field(arg, "method");
  const method = m ? evaluate(m, ctx, 0) : { k: "lit" as const, value: "GET" };
  const h = headers(field(arg, "header"), ctx);
  const body = rawBodyOf(field(arg, "body"), ctx);
  if (!url || method?.k !== "lit" || typeof method.value !== "string" || !h || !body) {
    return undefined;
  }
  return { method: method.value.toUpperCase(), url, headers: h, ...body };
}

/** The body's parts a side request sends: none, or a raw one; undefined when not known now. */
type RawParts = Pick<SideRequest, "raw" | "stringified" | "language">;

/** `body: { mode: "raw", raw, options }` as the side request's parts; undefined for another body. */
function rawBodyOf(body: Node | undefined, ctx: SendContext): RawParts | undefined {
  if (!body) return {};
  const part = (name: string) => body.type === "ObjectExpression" ? field(body, name) : undefined;
  const written = part("raw");
  const raw = written ? rawText(written, ctx) : undefined;
  const mode = part("mode");
  const language = rawLanguage(part("options"));
  if (mode?.type !== "Literal" || mode.value !== "raw" || raw === undefined || language === null) {
    return undefined;
  }
  const stringified = written?.type === "CallExpression" &&
    dotted(written.callee) === "JSON.stringify";
  return {
    raw,
    ...(stringified ? { stringified: true as const } : {}),
    ...(language ? { language } : {}),
  };
}

/**
 * `options: { raw: { language: 'json' } }` of a body: the language, which Postman sends the
 * raw body's Content-Type by (`application/json`), as for a request's own raw body; undefined
 * without one; `null` when it is not written as text (unknown here).
 */
function rawLanguage(options: Node | undefined): string | undefined | null {
  if (!options) return undefined;
  const raw = options.type === "ObjectExpression" ? field(options, "raw") : undefined;
  const language = raw?.type === "ObjectExpression" ? field(raw, "language") : undefined;
  if (
    options.type === "ObjectExpression" && (!raw || (raw.type === "ObjectExpression" && !language))
  ) {
    return undefined;
  }
  return language?.type === "Literal" && typeof language.value === "string" ? language.value : null;
}

/** The request `pm.sendRequest`'s first argument says: a URL, or `{ url, method, header, body }`. */
function requestOf(
  arg: Node | undefined,
  ctx: SendContext,
): Omit<SideRequest, "callback"> | undefined {
  if (!arg) return undefined;
  if (arg.type === "ObjectExpression") return objectRequest(arg, ctx);
  // `pm.sendRequest(requestParams, …)`: the object literal the script declared it with.
  const declared = arg.type === "Identifier" ? ctx.objects?.get(arg.name) : undefined;
  if (declared) return objectRequest(declared, ctx);
  const url = textOf(arg, ctx);
  return url ? { method: "GET", url, headers: [] } : undefined;
}

/** A node's child nodes, but a member's name and an object's key: no reads of a parameter. */
function childNodes(n: Node): Node[] {
  const out: Node[] = [];
  for (const [key, child] of Object.entries(n)) {
    if ((key === "property" || key === "key") && !n.computed) continue;
    for (const c of Array.isArray(child) ? child : [child]) {
      if (c && typeof c === "object" && typeof c.type === "string") out.push(c);
    }
  }
  return out;
}

/** The names a function declares as its parameters (plain names only). */
const paramNames = (fn: Node): string[] =>
  fn.params.flatMap((p: Node) => (p.type === "Identifier" ? [p.name] : []));

/**
 * Where `body` reads `res` (as `pm.response`) or `err` (as `undefined`): each read's span and
 * text. A function inside that names a parameter alike (a nested `pm.sendRequest`'s own
 * `(error, response) =>`) reads its own: it is left as written there.
 */
function paramReads(
  body: Node,
  err: string | undefined,
  res: string | undefined,
): [number, number, string][] {
  const edits: [number, number, string][] = [];
  const stack: [Node, string | undefined, string | undefined][] = [[body, err, res]];
  while (stack.length > 0) {
    const [n, e, r] = stack.pop()!;
    if (n.type === "Identifier" && (n.name === r || n.name === e)) {
      edits.push([n.start, n.end, n.name === r ? "pm.response" : "undefined"]);
      continue;
    }
    const own = /Function/.test(n.type) ? paramNames(n) : [];
    const [ne, nr] = [own.includes(e!) ? undefined : e, own.includes(r!) ? undefined : r];
    for (const c of childNodes(n)) stack.push([c, ne, nr]);
  }
  return edits.sort((a, b) => b[0] - a[0]);
}

/** The callback's body with its response parameter read as `pm.response`, its error one as `undefined`. */
function callbackSource(fn: Node | undefined, source: string): string | undefined {
  if (!fn) return "";
  if (fn.type !== "FunctionExpression" && fn.type !== "ArrowFunctionExpression") return undefined;
  const names = fn.params.map((p: Node) => (p.type === "Identifier" ? p.name : undefined));
  if (names.includes(undefined) || names.length > 2) return undefined;
  const body = fn.body;
  const block = body.type === "BlockStatement";
  const [from, to] = block ? [body.start + 1, body.end - 1] : [body.start, body.end];
  let text = source.slice(from, to);
  for (const [s, e, r] of paramReads(body, names[0], names[1])) {
    text = text.slice(0, s - from) + r + text.slice(e - from);
  }
  return text;
}

/**
 * The request a `pm.sendRequest(…)` call sends first; `undefined` when it is
 * one that cannot be said; `null` when the call is no `pm.sendRequest`.
 *
 * @example
 * ```ts
 * import { sideRequest } from "./side_request.ts";
 * import { parseScript } from "./parse.ts";
 * const source = 'pm.sendRequest(pm.environment.get("base") + "/uuid", (err, res) => pm.environment.set("id", res.json().uuid));';
 * const p = parseScript(source);
 * if (!p.ok) throw new Error(p.why);
 * const ctx = { scope: new Map(), tests: new Map(), variable: (n: string) => ({ k: "var" as const, name: n, expr: "" }) };
 * const side = sideRequest(p.program.body[0].expression, ctx, source);
 * if (side?.url !== "{{base}}/uuid" || side.callback !== 'pm.environment.set("id", pm.response.json().uuid)') throw new Error(JSON.stringify(side));
 * ```
 */
export function sideRequest(
  e: Node,
  ctx: SendContext,
  source: string,
): SideRequest | undefined | null {
  if (e.type !== "CallExpression" || dotted(e.callee) !== "pm.sendRequest") return null;
  const request = requestOf(e.arguments[0], ctx);
  const fn = e.arguments[1];
  const callback = callbackSource(fn, source);
  // The callback reads what its closure holds: the declarations before the call it names.
  const closure = callback && fn ? closureOf(source, e.start, fn.body, paramNames(fn)) : "";
  // And the values known now it reads that no top-level declaration gives: a loop's turn.
  const bound = callback && fn
    ? boundNow(fn.body, paramNames(fn), closureNames(closure), ctx.scope)
    : "";
  return request && callback !== undefined
    ? { ...request, callback: bound + closure + callback }
    : undefined;
}

/**
 * The request item a side request is, sent just before `r`: its callback is its test script.
 *
 * @example
 * ```ts
 * import { sideItem } from "./side_request.ts";
 * const r = { name: "Order", folders: ["Shop"], method: "GET", url: "{{base}}/o", headers: [], scripts: [] };
 * const side = sideItem(r, { method: "POST", url: "{{base}}/token", headers: [], raw: "{}", callback: "" });
 * if (side.name !== "Order (pm.sendRequest)" || side.body?.raw !== "{}" || side.scripts.length !== 0) throw new Error();
 * ```
 */
export function sideItem(r: PmRequest, side: SideRequest): PmRequest {
  const name = `${r.name} (pm.sendRequest)`;
  return {
    name,
    folders: r.folders,
    method: side.method,
    url: side.url,
    headers: side.headers,
    ...(side.raw !== undefined
      ? {
        body: {
          mode: "raw",
          raw: side.raw,
          ...(side.stringified ? { stringified: true } : {}),
          ...(side.language ? { language: side.language } : {}),
        },
      }
      : {}),
    scripts: side.callback.trim() ? [{ listen: "test", source: side.callback, owner: name }] : [],
    ...(r.followRedirects === false ? { followRedirects: false } : {}),
    ...(side.sentIf ? { sentIf: side.sentIf } : {}),
  };
}
