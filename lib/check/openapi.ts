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
 *   document: { paths: { "/items/{id}": { get: { responses: { "200": {} } } } } } };
 * const got = operationSchema(check, "GET", "http://x.test/items/7", 200);
 * if (!("missing" in got) || got.missing !== "api.yaml gives no JSON body for GET /items/{id} 200") {
 *   throw new Error(JSON.stringify(got));
 * }
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
  const pointer = jsonSchemaPointer(check.document, responses[code], at);
  if (!pointer) {
    return { missing: `${check.source} gives no JSON body for ${method} ${template} ${code}` };
  }
  const ref = `openapi#/${
    pointer.map((p) => p.replaceAll("~", "~0").replaceAll("/", "~1")).join("/")
  }`;
  const cache = check.compiled ??= new Map();
  let validate = cache.get(ref);
  if (!validate) cache.set(ref, validate = guardedValidator(check, ref));
  return { validate, where: `${method.toUpperCase()} ${template} ${code}` };
}

/**
 * The JSON pointer of a response's JSON body schema, from the response's own
 * pointer `at` (or the one its local `$ref` names); none without a JSON body.
 */
function jsonSchemaPointer(doc: unknown, response: unknown, at: string[]): string[] | undefined {
  let pointer = at;
  const target = member(response, "$ref");
  if (typeof target === "string" && target.startsWith("#/")) {
    pointer = target.slice(2).split("/").map(unescape);
    response = pointer.reduce<unknown>((node, p) => member(node, p), doc);
  }
  const content = member(response, "content");
  const type = Object.keys(isNode(content) ? content : {}).find((t) =>
    /json/i.test(t) && isNode(member(content, t))
  );
  return type === undefined ? undefined : [...pointer, "content", type, "schema"];
}

function unescape(segment: string): string {
  return segment.replaceAll("~1", "/").replaceAll("~0", "~");
}
