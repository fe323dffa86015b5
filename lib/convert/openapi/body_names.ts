/**
 * An item the client names in its create's body: the POST on a collection
 * sends a text property of the very name of a parameter that addresses the
 * collection's items, and answers nothing of it (PowerDNS's
 * `POST /autoprimaries {ip, nameserver, account}`, then
 * `DELETE /autoprimaries/{ip}/{nameserver}`; the create answers 201 with no
 * body). The run names it: one var of its own per parameter, sent in the
 * body and in the paths after (`ip-${RANDOM.HEX_8}`). It was `{}` (422: the
 * server needs both) and the paths' parameters placeholders to fill in.
 * The evidence is the document's own: the same name in the body and in the
 * item's path, under the path the create posts to; a property of an enum,
 * a format or a pattern keeps the value the document's schema gives.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import { clientNames, type OpenApiOperation, operationsOf } from "./operations.ts";
import { jsonSchema, successes } from "./responses.ts";
import { properties } from "./schema_properties.ts";
import { showsValue } from "./prose_sample.ts";
import type { YNode } from "../yaml_out.ts";
import { rpcNamed } from "./rpc_names.ts";
import { plainNoun } from "./collection_nouns.ts";
import { statedText } from "./stated_value.ts";
import { jsonBodySchema } from "./json_body.ts";
import { patternRegExp, tameTest } from "./pattern.ts";

/**
 * Whether a body property is text the client chooses freely as `own`'s name: no enum, format or
 * pattern the run's own name breaks, and no value of the document's (its example may name one
 * that must exist: a tag's `type`, `simple`).
 */
function freeText(p: Node, own: string): boolean {
  return (p.type === "string" || p.type === undefined) && !Array.isArray(p.enum) &&
    p.format === undefined && fitsOwnName(p, own) && p.readOnly !== true &&
    p.default === undefined && !showsValue(p);
}

/**
 * Whether the run's own name for `own` (`confKey-` and eight hex digits, as the flow's var
 * makes it) meets the property's pattern. A pattern it fits only spells what a key may look
 * like (LemonLDAP::NG's `confKey`, `^\w[\w\.\-]*$`), no value the server dictates; one it breaks
 * (`^[0-9]+$`), or one that cannot be read, keeps the property the document's.
 */
function fitsOwnName(p: Node, own: string): boolean {
  if (p.pattern === undefined) return true;
  if (typeof p.pattern !== "string") return false;
  const pattern = p.pattern;
  const re = patternRegExp(pattern);
  const name = own.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^(?![A-Za-z_])/, "p_");
  // Digits and letters both, as RANDOM.HEX_8 gives either.
  const samples = ["0123abcd", "abcdef01", "98765432"].map((hex) => `${name}-${hex}`);
  return re !== undefined && samples.every((s) => tameTest(re, pattern, s) === true);
}

/** What a create's body names its item by: the property, and the document's value kept, if any. */
export interface NamedBy {
  prop: string;
  /** The value the document states for the property (`stated_value.ts`), sent as the item's name. */
  kept?: string;
}

/** A name's words, lower case: `legalValue`, `legal-values`, `tag_name` → `legal value(s)`, `tag name`. */
function words(name: string): string[] {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * Whether `param` is spelled from the noun of the collection the create
 * posts to (`segment`) and `prop`: the noun and the property (`{tagName}`
 * of `/tags`, `name`), or the noun alone whose last word is the property
 * (`{legalValue}` of `/legal-values`, `value`).
 */
function spelledFrom(param: string, segment: string, prop: string): boolean {
  const noun = plainNoun(segment);
  const [p, own] = [words(param), words(prop).join("")];
  // An `id` (`{environmentId}` ← `id`) is what an answer the document leaves undescribed is
  // searched for (undescribed_answer.ts): the server may assign it, so it is no name the body gives.
  if (p.length < 2 || noun === "" || own === "" || own === "id") return false;
  if (p.join("") === noun) return p.at(-1) === own;
  return p.some((_, i) => i > 0 && p.slice(0, i).join("") === noun && p.slice(i).join("") === own);
}

/** Whether a success answer of the create has a body (any content). */
function answers(doc: unknown, create: OpenApiOperation): boolean {
  return successes(doc, create.node).responses.some((r) =>
    isNode(r.content) && Object.keys(r.content).length > 0
  );
}

/**
 * What the create's body names its item by `param` with: a free text
 * property of that name, or one the parameter is spelled from (see
 * `spelledFrom`; the value the document states for it kept, else free text)
 * where the create answers no body, which no success answer holds nor a
 * `Location` names (the item is read from there, as the server may change
 * it).
 */
function naming(doc: unknown, create: OpenApiOperation, param: string): NamedBy | undefined {
  const props = properties(doc, jsonBodySchema(doc, create.node));
  const segment = create.template.replace(/\/$/, "").split("/").at(-1) ?? "";
  let by: NamedBy | undefined;
  const same = props.find(([name]) => name === param)?.[1];
  if (same && freeText(same, param)) by = { prop: param };
  // Spelled so, only where the create answers no body at all: an answer (an Operation, `data.id`)
  // may hold the name the server gave, and `certificate` of `{sslCertificate}` is no name.
  for (const [name, p] of same || answers(doc, create) ? [] : props) {
    if (by || p.readOnly === true || !spelledFrom(param, segment, name)) continue;
    // A value the document states (an example, an enum, a kind it names in words) may be the only
    // one the server takes (PowerDNS's metadata `kind`): the item is sent that value; free text
    // alone is the run's own.
    const kept = statedText(doc, name, p, (n) => deref(doc, n));
    if (kept !== undefined) by = { prop: name, kept };
    else if (freeText(p, param)) by = { prop: name };
  }
  if (!by) return undefined;
  const answered = successes(doc, create.node).responses.some((r) =>
    properties(doc, jsonSchema(doc, r)).some(([name]) => name === param || name === by.prop) ||
    (isNode(r.headers) && Object.keys(r.headers).some((h) => /^location$/i.test(h)))
  );
  return answered ? undefined : by;
}

/**
 * The collections an item's parameter may be of: the one its parameter run follows (`/a` of
 * `/a/{x}/{y}/b` for `x` or `y`), and the path right before it (`/a/{x}` for `y`: the items a
 * `POST /a/{x}` files under `x`, LemonLDAP::NG's menu applications under their category).
 */
function collectionsOf(template: string, param: string): string[] {
  const segments = template.split("/");
  let at = segments.indexOf(`{${param}}`);
  if (at < 0) return [];
  const before = segments.slice(0, at).join("/");
  while (at > 0 && /^\{[^}]+\}$/.test(segments[at - 1])) at--;
  return [segments.slice(0, at).join("/"), before];
}

/**
 * The create among `ops` that names the parameter in its body (see the
 * module), if any.
 *
 * @example
 * ```ts
 * import { operationsOf } from "./operations.ts";
 * import { namingCreate } from "./body_names.ts";
 * const body = { content: { "application/json": { schema: { properties: { ip: { type: "string" } } } } } };
 * const doc = { paths: { "/masters": { post: { requestBody: body }, get: {} }, "/masters/{ip}": { delete: {} } } };
 * const ops = operationsOf(doc);
 * const post = ops.find((op) => op.method === "POST");
 * const del = ops.find((op) => op.method === "DELETE")!;
 * if (namingCreate(doc, ops, del, "ip") !== post || namingCreate(doc, ops, del, "x")) throw new Error();
 * ```
 */
export function namingCreate(
  doc: unknown,
  ops: Iterable<OpenApiOperation>,
  op: OpenApiOperation,
  param: string,
): OpenApiOperation | undefined {
  const collections = collectionsOf(op.template, param);
  for (const create of ops) {
    if (create.method !== "POST") continue;
    if (!collections.includes(create.template.replace(/\/$/, ""))) continue;
    if (create !== op && naming(doc, create, param)) return create;
  }
  return undefined;
}

/**
 * The body properties of a create that name its items (see the module):
 * those a path under its collection has as the parameters after it; of a
 * PUT or PATCH to an item the client names, the one of its own parameter's
 * name (the path's value: the write names the item it is sent to).
 *
 * @example
 * ```ts
 * import { operationsOf } from "./operations.ts";
 * import { namedInBody } from "./body_names.ts";
 * const body = { content: { "application/json": { schema: { properties: {
 *   ip: { type: "string" }, nameserver: { type: "string" }, account: { type: "string" } } } } } };
 * const doc = { paths: { "/masters": { post: { requestBody: body } }, "/masters/{ip}/{nameserver}": { delete: {} } } };
 * if ([...namedInBody(doc, operationsOf(doc)[0]).keys()].join() !== "ip,nameserver") throw new Error();
 * ```
 */
export function namedInBody(doc: unknown, create: OpenApiOperation): Map<string, NamedBy> {
  const found = new Map<string, NamedBy>();
  if (create.method === "PUT" || create.method === "PATCH") {
    for (const own of keepsItsName(doc, create)) found.set(own, { prop: own });
    return found;
  }
  if (create.method !== "POST") return found;
  const params = itemParams(doc).get(create.template.replace(/\/$/, "")) ?? [];
  for (const param of params) {
    const by = naming(doc, create, param);
    if (by) found.set(param, by);
  }
  return found;
}

/**
 * A write to an item the client names (`PATCH /contents/{path}`, made by a
 * `PUT` there) whose body has a text property of the very name of the
 * item's own, last, parameter (`{path: …}`, "New path for file or
 * directory"): the path's value, so the write names the item it is sent
 * to. A made-up `string` renamed Jupyter's file, and every step after it
 * named one gone (404), as did a second run (409: `string` exists).
 */
function keepsItsName(doc: unknown, op: OpenApiOperation): Set<string> {
  const own = /\{([^}]+)\}$/.exec(op.template)?.[1];
  if (own === undefined || !isNode(doc)) return new Set();
  let ops = opsOf.get(doc);
  if (!ops) opsOf.set(doc, ops = operationsOf(doc));
  const prop = properties(doc, jsonBodySchema(doc, op.node)).find(([name]) => name === own)?.[1];
  const text = prop && (prop.type === "string" || prop.type === undefined) &&
    !Array.isArray(prop.enum);
  return text && clientNames(ops, op, own) ? new Set([own]) : new Set();
}

/** Each document's operations, read once. */
const opsOf = new WeakMap<Node, OpenApiOperation[]>();

/** Each document's collections and the parameters of the item paths under them, read once. */
const itemParamsOf = new WeakMap<Node, Map<string, Set<string>>>();

/** Collection path → the parameters a path has after it (`/a` → `x`, `y`; `/a/{x}` → `y`). */
function itemParams(doc: unknown): Map<string, Set<string>> {
  if (!isNode(doc)) return new Map();
  let index = itemParamsOf.get(doc);
  if (index) return index;
  index = new Map();
  for (const path of isNode(doc.paths) ? Object.keys(doc.paths) : []) {
    const segments = path.split("/");
    const param = (i: number) => /^\{([^}]+)\}$/.exec(segments[i] ?? "")?.[1];
    for (let i = 1; i < segments.length; i++) {
      // Also a run's later parameters after an earlier one (`/a/{x}` → `y` of `/a/{x}/{y}`).
      if (param(i) === undefined) continue;
      const collection = segments.slice(0, i).join("/");
      const set = index.get(collection) ?? new Set<string>();
      for (let j = i; param(j) !== undefined; j++) set.add(param(j)!);
      index.set(collection, set);
    }
  }
  itemParamsOf.set(doc, index);
  return index;
}

/**
 * A request's fields with each body property of `keys` the var `varOf`
 * names for it (`ip: ${vars.ip}`), added where the body left it out.
 *
 * @example
 * ```ts
 * import { withNamed } from "./body_names.ts";
 * import { ymap } from "../yaml_out.ts";
 * const fields = withNamed([["body", ymap([["account", "a"]])]], new Set(["ip"]), (k) => k);
 * if (!JSON.stringify(fields).includes('["ip","${vars.ip}"]')) throw new Error(JSON.stringify(fields));
 * ```
 */
export function withNamed(
  fields: [string, YNode][],
  keys: Set<string>,
  varOf: (key: string) => string,
): [string, YNode][] {
  if (keys.size === 0) return fields;
  return fields.map(([field, node]): [string, YNode] => {
    if (field !== "body" || node === null || typeof node !== "object" || Array.isArray(node)) {
      return [field, node];
    }
    if (node.kind !== "map") return [field, node];
    const sent = (key: string): YNode => `\${vars.${varOf(key)}}`;
    const entries = node.entries.map(([k, v]): [string, YNode] => [k, keys.has(k) ? sent(k) : v]);
    for (const key of keys) {
      if (!node.entries.some(([k]) => k === key)) entries.push([key, sent(key)]);
    }
    return [field, { ...node, entries }];
  });
}

/**
 * A request's fields with each body property that names the item `create`
 * makes (`namedInBody`) sent as the var `varOf` names for its parameter,
 * given the document's example where it is kept.
 *
 * @example
 * ```ts
 * import { operationsOf } from "./operations.ts";
 * import { withBodyNamed } from "./body_names.ts";
 * import { ymap } from "../yaml_out.ts";
 * const body = { content: { "application/json": { schema: { properties: { value: { type: "string", example: "red" } } } } } };
 * const doc = { paths: { "/legal-values": { post: { requestBody: body } }, "/legal-values/{legalValue}": { delete: {} } } };
 * const fields = withBodyNamed(doc, operationsOf(doc)[0], [["body", ymap([])]], (p, kept) => `${p}=${kept}`);
 * if (!JSON.stringify(fields).includes('["value","${vars.legalValue=red}"]')) throw new Error(JSON.stringify(fields));
 * ```
 */
export function withBodyNamed(
  doc: unknown,
  create: OpenApiOperation,
  fields: [string, YNode][],
  varOf: (param: string, kept?: string) => string,
): [string, YNode][] {
  const named = namedInBody(doc, create);
  const paramOf = new Map([...named].map(([param, by]) => [by.prop, param]));
  return withNamed(fields, new Set(paramOf.keys()), (prop) => {
    const param = paramOf.get(prop)!;
    return varOf(param, named.get(param)!.kept);
  });
}

/**
 * A request's fields with each body property `rpcNamed` (rpc_names.ts) ties to a
 * noun sent as the var `varOf` names for that noun (`role: ${vars.role}`).
 *
 * @example
 * ```ts
 * import { operationsOf } from "./operations.ts";
 * import { withRpcNamed } from "./body_names.ts";
 * import { ymap } from "../yaml_out.ts";
 * const body = (properties: object) => ({ requestBody: { content: { "application/json": {
 *   schema: { properties } } } } });
 * const doc = { paths: {
 *   "/auth/role/add": { post: body({ name: { type: "string", description: "name is the name of the role." } }) },
 *   "/auth/role/get": { post: body({ role: { type: "string" } }) },
 * } };
 * const fields = withRpcNamed(doc, operationsOf(doc)[1], [["body", ymap([])]], (noun) => noun);
 * if (!JSON.stringify(fields).includes('["role","${vars.role}"]')) throw new Error(JSON.stringify(fields));
 * ```
 */
export function withRpcNamed(
  doc: Node,
  op: OpenApiOperation,
  fields: [string, YNode][],
  varOf: (noun: string) => string,
): [string, YNode][] {
  const named = rpcNamed(doc, op);
  return withNamed(fields, new Set(named.keys()), (key) => varOf(named.get(key)!));
}
