/**
 * OpenAPI lookups for schema checks: the response schema of the operation a
 * request reached (by its method and path, without the first server's base
 * path) and its status (exact, `2XX`, then `default`), compiled on first use.
 * The document is the user's JSON: every member is read as what it may be.
 *
 * @module
 */
import type { SchemaCheck, Validate } from "../model/flow.ts";
import { guardedValidator } from "../load/schema_compile.ts";
import { show } from "./json_value.ts";
import { isNode, matchOperation, member, responseKey } from "./openapi_operations.ts";

/**
 * The response schema of the OpenAPI operation for a request and a status,
 * or why the document has none.
 *
 * @example
 * ```ts
 * import { operationSchema } from "./openapi.ts";
 * const check = { kind: "openapi" as const, source: "api.yaml", file: "f.yaml", line: 1, column: 1,
 *   document: { paths: { "/items/{id}": { get: { responses: { "200": {}, "201": { content: { "text/plain": {} } } } } } } } };
 * const got = operationSchema(check, "GET", "http://x.test/items/7", 201);
 * if (!("missing" in got) || got.missing !== "api.yaml gives no JSON body for GET /items/{id} 201") {
 *   throw new Error(JSON.stringify(got));
 * }
 * // No schema documented: any JSON answer passes.
 * const any = operationSchema(check, "GET", "http://x.test/items/7", 200);
 * if (!("validate" in any) || any.validate({ a: 1 }).length !== 0) throw new Error(JSON.stringify(any));
 * ```
 */
export function operationSchema(
  check: Extract<SchemaCheck, { kind: "openapi" }>,
  method: string,
  requestUrl: string,
  status: number,
): { validate: Validate; where: string } | { missing: string } {
  const found = matchOperation(check.document, method, requestUrl);
  if ("path" in found) {
    return { missing: `${check.source} has no operation for ${method} ${found.path}` };
  }
  const { template, operation } = found;
  const responses = isNode(operation.responses) ? operation.responses : {};
  const code = responseKey(Object.keys(responses), status);
  if (!code) {
    return {
      missing: `${check.source} documents no response ${status} for ${method} ${template} (it has ${
        show(Object.keys(responses))
      })`,
    };
  }
  const at = ["paths", template, method.toLowerCase(), "responses", code];
  const where = `${method.toUpperCase()} ${template} ${code}`;
  const body = bodySchema(check.document, responses[code], at);
  if (body === "none") {
    return { missing: `${check.source} gives no JSON body for ${method} ${template} ${code}` };
  }
  // The document shows no schema (no content, examples only, a response without one):
  // it constrains nothing, so a right answer must not fail for how the document is written.
  if (body === "any") return { validate: ANY_JSON, where: `${where}, which has no schema` };
  const ref = `openapi#/${
    body.map((p) => p.replaceAll("~", "~0").replaceAll("/", "~1")).join("/")
  }`;
  const cache = check.compiled ??= new Map();
  let validate = cache.get(ref);
  if (!validate) cache.set(ref, validate = guardedValidator(check, ref));
  return { validate, where };
}

/** Any JSON: the validator of a response the document gives no schema. */
const ANY_JSON: Validate = () => [];

/** How many local `$ref`s from response to response are followed. */
const MAX_RESPONSE_REFS = 8;

/**
 * The JSON pointer of a response's JSON body schema, from the response's own
 * pointer `at` (or the one its local `$ref`s name): the first JSON media type
 * with a schema, then a range (`application/*`, `*∕*`) with one. `any` when
 * the response has no content, or only JSON types and ranges without a schema;
 * `none` when its content is only other types (text, images) or it is no object.
 */
function bodySchema(doc: unknown, response: unknown, at: string[]): string[] | "any" | "none" {
  let pointer = at;
  for (let n = 0; n < MAX_RESPONSE_REFS; n++) {
    const target = member(response, "$ref");
    if (typeof target !== "string" || !target.startsWith("#/")) break;
    pointer = target.slice(2).split("/").map(unescape);
    response = pointer.reduce<unknown>((node, p) => member(node, p), doc);
  }
  // A response that is no object (null, a `$ref` naming nothing) says nothing of a body.
  if (!isNode(response)) return "none";
  const content = member(response, "content");
  if (!isNode(content) || Object.keys(content).length === 0) return "any";
  const types = Object.keys(content).filter((t) => isNode(content[t]));
  const json = types.filter((t) => /json/i.test(t));
  const ranges = types.filter((t) => /^\s*(\*|application)\/\*\s*(;|$)/i.test(t));
  const type = [...json, ...ranges].find((t) => member(member(content, t), "schema") !== undefined);
  if (type !== undefined) return [...pointer, "content", type, "schema"];
  return json.length + ranges.length > 0 ? "any" : "none";
}

function unescape(segment: string): string {
  return segment.replaceAll("~1", "/").replaceAll("~0", "~");
}
