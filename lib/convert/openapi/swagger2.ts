/**
 * A Swagger 2.0 document made the OpenAPI 3.0 document it means, so that
 * `convert openapi` reads it like any other (and the flows' `openapi:`
 * checks, which read 3.x, read the upgrade): `host`, `basePath` and
 * `schemes` → `servers`; `definitions`, `parameters`, `responses` and
 * `securityDefinitions` → `components` (basic → http basic, oauth2's
 * `flow` → its `flows`); a `body` parameter → `requestBody` in each type
 * the operation `consumes`; `formData` parameters → a form or, with a
 * file, multipart body; a parameter's type, format and bounds → its
 * `schema` (`collectionFormat` → `style`); a response's `schema` → its
 * `content` in each type it `produces`. Every `$ref` follows its target.
 * An array schema's `items` written as a list (PowerDNS's statistics:
 * `items: [StatisticItem, MapStatisticItem, RingStatisticItem]`), which
 * neither 2.0 nor 3.0 allows and the checks could not compile, is
 * `items: {anyOf: […]}`: an item is one of those, as its author meant.
 *
 * @module
 */
import { isNode, type Node, OPENAPI_METHODS } from "../../check/openapi_operations.ts";
import { standardType } from "./common_types.ts";

/** The keys of a 2.0 parameter or header that are its schema in 3.0. */
const SCHEMA_KEYS = [
  "type",
  "format",
  "items",
  "enum",
  "default",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  "uniqueItems",
  "multipleOf",
];

/** Where a 2.0 `$ref` pointed, and where its target is in 3.0. */
const MOVED: [string, string][] = [
  ["#/definitions/", "#/components/schemas/"],
  ["#/parameters/", "#/components/parameters/"],
  ["#/responses/", "#/components/responses/"],
];

/**
 * The OpenAPI 3.0.3 document a Swagger 2.0 document means.
 *
 * @example
 * ```ts
 * import { upgradeSwagger2 } from "./swagger2.ts";
 * const doc = upgradeSwagger2({ swagger: "2.0", host: "x.test", basePath: "/v1", paths: { "/a": { post: {
 *   parameters: [{ name: "b", in: "body", schema: { $ref: "#/definitions/B" } }], responses: { "200": { description: "ok" } } } } },
 *   definitions: { B: { type: "object" } } });
 * const body = (doc.paths as any)["/a"].post.requestBody.content["application/json"].schema;
 * if (doc.openapi !== "3.0.3" || body.$ref !== "#/components/schemas/B") throw new Error(JSON.stringify(doc));
 * if ((doc.servers as any)[0].url !== "https://x.test/v1") throw new Error();
 * ```
 */
export function upgradeSwagger2(doc: Node): Node {
  const out: Node = { openapi: "3.0.3" };
  for (const [key, value] of Object.entries(doc)) {
    if (!KNOWN.has(key)) out[key] = value;
  }
  const servers = serversOf(doc);
  if (servers) out.servers = servers;
  const paths: Node = {};
  for (const [template, item] of Object.entries(isNode(doc.paths) ? doc.paths : {})) {
    paths[template] = isNode(item) ? pathItem(doc, item) : item;
  }
  out.paths = paths;
  out.components = components(doc);
  return moveRefs(out) as Node;
}

/** The 2.0 keys the upgrade rewrites; every other key is kept as it is. */
const KNOWN = new Set([
  "swagger",
  "host",
  "basePath",
  "schemes",
  "consumes",
  "produces",
  "paths",
  "definitions",
  "parameters",
  "responses",
  "securityDefinitions",
]);

/** `https://host/basePath` (the first scheme), or the base path alone with no host. */
function serversOf(doc: Node): Node[] | undefined {
  const base = typeof doc.basePath === "string" ? doc.basePath.replace(/\/+$/, "") : "";
  if (typeof doc.host !== "string" || doc.host === "") return base ? [{ url: base }] : undefined;
  const schemes = Array.isArray(doc.schemes) ? doc.schemes.map(String) : [];
  const scheme = schemes.includes("https") || schemes.length === 0 ? "https" : schemes[0];
  return [{ url: `${scheme}://${doc.host}${base}` }];
}

/** A path item: its operations upgraded, its shared parameters too (bodies join each operation). */
function pathItem(doc: Node, item: Node): Node {
  const shared = Array.isArray(item.parameters) ? item.parameters : [];
  const out: Node = {};
  for (const [key, value] of Object.entries(item)) {
    if (key === "parameters") continue;
    out[key] = OPENAPI_METHODS.includes(key as typeof OPENAPI_METHODS[number]) && isNode(value)
      ? operation(doc, value, shared)
      : value;
  }
  return out;
}

/** An operation: parameters, request body and responses in 3.0's form. */
function operation(doc: Node, op: Node, shared: unknown[]): Node {
  const own = Array.isArray(op.parameters) ? op.parameters : [];
  const names = new Set(own.map((p) => keyOf(resolve(doc, p))));
  const all = [...shared.filter((p) => !names.has(keyOf(resolve(doc, p)))), ...own];
  const consumes = typesOf(op.consumes ?? doc.consumes);
  const produces = typesOf(op.produces ?? doc.produces);
  const out: Node = { ...op };
  delete out.consumes;
  delete out.produces;
  delete out.schemes;
  const parameters: unknown[] = [];
  const form: Node[] = [];
  for (const p of all) {
    const param = resolve(doc, p);
    if (param?.in === "body") out.requestBody = bodyOf(param, consumes);
    else if (param?.in === "formData") form.push(param);
    else parameters.push(isNode(p) && typeof p.$ref === "string" ? p : parameter(p));
  }
  if (form.length > 0) out.requestBody = formBody(form, consumes);
  if (parameters.length > 0) out.parameters = parameters;
  else delete out.parameters;
  if (isNode(op.responses)) out.responses = responses(op.responses, produces);
  return out;
}

/** A parameter, following a `$ref` to the document's `parameters` (a body or form one is inlined). */
function resolve(doc: Node, p: unknown): Node | undefined {
  if (!isNode(p)) return undefined;
  if (typeof p.$ref !== "string" || !p.$ref.startsWith("#/parameters/")) return p;
  const name = decodeURIComponent(p.$ref.slice("#/parameters/".length)).replaceAll("~1", "/")
    .replaceAll("~0", "~");
  const found = isNode(doc.parameters) ? doc.parameters[name] : undefined;
  return isNode(found) ? found : undefined;
}

function keyOf(p: Node | undefined): string {
  return p ? `${p.in} ${p.name}` : "";
}

function typesOf(value: unknown): string[] {
  const types = Array.isArray(value) ? value.filter((t) => typeof t === "string") : [];
  return types.length > 0 ? types : ["application/json"];
}

/** A query, path, header or cookie parameter: its type and bounds become its schema. */
function parameter(p: unknown): unknown {
  if (!isNode(p)) return p;
  const out: Node = {};
  const schema: Node = {};
  for (const [key, value] of Object.entries(p)) {
    if (SCHEMA_KEYS.includes(key)) schema[key] = key === "items" ? itemsOf(value) : value;
    else if (key === "x-example") out.example = value;
    else if (key !== "collectionFormat" && key !== "allowEmptyValue") out[key] = value;
  }
  out.schema = standardType(schema);
  return { ...out, ...styleOf(p) };
}

/** 2.0's `items` may carry a `collectionFormat` of its own, which 3.0 has no place for. */
function itemsOf(items: unknown): unknown {
  if (!isNode(items)) return items;
  const { collectionFormat: _, ...rest } = items;
  return isNode(rest.items) ? { ...rest, items: itemsOf(rest.items) } : rest;
}

/** 2.0's `collectionFormat` of an array as 3.0's `style` and `explode`. */
function styleOf(p: Node): Node {
  if (p.type !== "array") return {};
  switch (p.collectionFormat) {
    case "multi":
      return { style: "form", explode: true };
    case "ssv":
      return { style: "spaceDelimited", explode: false };
    case "pipes":
      return { style: "pipeDelimited", explode: false };
    default:
      return p.in === "query" || p.in === "cookie" ? { style: "form", explode: false } : {};
  }
}

/** A `body` parameter as a request body, its schema in each type the operation consumes. */
function bodyOf(param: Node, consumes: string[]): Node {
  const content: Node = {};
  for (const type of consumes) content[type] = { schema: param.schema ?? {} };
  return {
    ...(param.description === undefined ? {} : { description: param.description }),
    required: param.required === true,
    content,
  };
}

/** `formData` parameters as one object: multipart when one is a file or the operation says so. */
function formBody(form: Node[], consumes: string[]): Node {
  const properties: Node = {};
  const required: string[] = [];
  for (const p of form) {
    const name = String(p.name);
    const schema = (parameter(p) as Node).schema as Node;
    properties[name] = p.type === "file" ? { type: "string", format: "binary" } : schema;
    if (p.required === true) required.push(name);
  }
  const multipart = form.some((p) => p.type === "file") ||
    consumes.includes("multipart/form-data");
  const type = multipart ? "multipart/form-data" : "application/x-www-form-urlencoded";
  const schema = { type: "object", properties, ...(required.length ? { required } : {}) };
  return { required: required.length > 0, content: { [type]: { schema } } };
}

/** Responses: a `schema` becomes `content` in each type produced, `examples` their example. */
function responses(all: Node, produces: string[]): Node {
  const out: Node = {};
  for (const [status, r] of Object.entries(all)) out[status] = response(r, produces);
  return out;
}

function response(r: unknown, produces: string[]): unknown {
  if (!isNode(r) || typeof r.$ref === "string") return r;
  const { schema, examples, headers, ...rest } = r;
  const out: Node = {
    ...rest,
    description: typeof r.description === "string" ? r.description : "",
  };
  if (schema !== undefined) {
    const content: Node = {};
    const body = isNode(schema) && schema.type === "file"
      ? { type: "string", format: "binary" }
      : schema;
    for (const type of produces) {
      const example = isNode(examples) ? examples[type] : undefined;
      content[type] = { schema: body, ...(example === undefined ? {} : { example }) };
    }
    out.content = content;
  } else if (produces.length > 1) {
    // No schema, several types (httpbin's GET /image): a server choosing by Accept; any body.
    out.content = Object.fromEntries(produces.map((type) => [type, {}]));
  }
  if (isNode(headers)) {
    out.headers = Object.fromEntries(
      Object.entries(headers).map(([name, h]) => [name, headerOf(h)]),
    );
  }
  return out;
}

function headerOf(h: unknown): unknown {
  if (!isNode(h)) return h;
  const { description, ...schema } = h;
  return { ...(description === undefined ? {} : { description }), schema };
}

/** `components`: schemas, the parameters and responses of no body, and the security schemes. */
function components(doc: Node): Node {
  const out: Node = {};
  if (isNode(doc.definitions)) out.schemas = doc.definitions;
  if (isNode(doc.parameters)) {
    const kept = Object.entries(doc.parameters).filter(([, p]) =>
      isNode(p) && p.in !== "body" && p.in !== "formData"
    );
    if (kept.length > 0) {
      out.parameters = Object.fromEntries(kept.map(([k, p]) => [k, parameter(p)]));
    }
  }
  if (isNode(doc.responses)) out.responses = responses(doc.responses, typesOf(doc.produces));
  if (isNode(doc.securityDefinitions)) {
    out.securitySchemes = Object.fromEntries(
      Object.entries(doc.securityDefinitions).map(([k, s]) => [k, securityScheme(s)]),
    );
  }
  return out;
}

/** 2.0's grant names, as 3.0's flows call them. */
const FLOWS: Record<string, string> = {
  implicit: "implicit",
  password: "password",
  application: "clientCredentials",
  accessCode: "authorizationCode",
};

/** basic → http basic; apiKey as it is; oauth2's one `flow` as 3.0's `flows`. */
function securityScheme(s: unknown): unknown {
  if (!isNode(s)) return s;
  if (s.type === "basic") {
    return {
      type: "http",
      scheme: "basic",
      ...(s.description ? { description: s.description } : {}),
    };
  }
  if (s.type !== "oauth2") return s;
  const { flow, authorizationUrl, tokenUrl, scopes, ...rest } = s;
  const urls = {
    ...(authorizationUrl === undefined ? {} : { authorizationUrl }),
    ...(tokenUrl === undefined ? {} : { tokenUrl }),
  };
  const name = FLOWS[String(flow)] ?? String(flow);
  return { ...rest, flows: { [name]: { ...urls, scopes: isNode(scopes) ? scopes : {} } } };
}

/**
 * Every `$ref` pointed where its target moved, 2.0's `discriminator` (a
 * property's name) made 3.0's object, and a list of `items` an `anyOf`;
 * iterative, so a deep document cannot overflow the stack.
 */
function moveRefs(root: unknown): unknown {
  const stack: unknown[] = [root];
  const seen = new Set<unknown>();
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== "object" || node === null || seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    const obj = node as Node;
    if (typeof obj.$ref === "string") {
      const ref = obj.$ref;
      const moved = MOVED.find(([from]) => ref.startsWith(from));
      if (moved) obj.$ref = moved[1] + ref.slice(moved[0].length);
    }
    if (typeof obj.discriminator === "string") {
      obj.discriminator = { propertyName: obj.discriminator };
    }
    oneItems(obj);
    typedChildren(obj);
    stack.push(...Object.values(obj));
  }
  return root;
}

/**
 * The schemas under a schema's `properties`, `items` or `additionalProperties`
 * (or a body's or response's `schema`) with their `type` standard: only there
 * is a `type` a schema's, not an example's data.
 */
function typedChildren(obj: Node): void {
  if (isNode(obj.properties)) {
    for (const [name, p] of Object.entries(obj.properties)) {
      if (isNode(p)) obj.properties[name] = standardType(p);
    }
  }
  for (const key of ["items", "additionalProperties", "schema"]) {
    const child = obj[key];
    if (isNode(child)) obj[key] = standardType(child);
  }
}

/** A list of `items` as one schema, `anyOf` them; only beside `type: array` (an example's list is data). */
function oneItems(obj: Node): void {
  const items = obj.items;
  if (obj.type !== "array" || !Array.isArray(items) || items.length === 0) return;
  if (items.every(isNode)) obj.items = items.length === 1 ? items[0] : { anyOf: items };
}
