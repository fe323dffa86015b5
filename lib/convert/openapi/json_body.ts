/**
 * An operation's JSON request body, as the converter's fills and rules read
 * it: the first media type naming JSON (`application/json`,
 * `application/merge-patch+json`, `text/json`…), whatever else it lists.
 * One reading, so every rule sees the same body.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref } from "./deref.ts";

/**
 * The JSON media object (`{schema, example, examples}`) of `node`'s
 * request body (a `$ref` followed), or undefined.
 *
 * @example
 * ```ts
 * import { jsonBodyMedia } from "./json_body.ts";
 * const op = { requestBody: { content: { "application/json": { schema: { type: "object" } } } } };
 * if (jsonBodyMedia({}, op)?.schema === undefined) throw new Error();
 * ```
 */
export function jsonBodyMedia(doc: unknown, node: Node): Node | undefined {
  const body = deref(doc, node.requestBody);
  const content = isNode(body) && isNode(body.content) ? body.content : {};
  const media = Object.entries(content).find(([type]) => /json/i.test(type))?.[1];
  return isNode(media) ? media : undefined;
}

/**
 * The schema of `node`'s JSON request body as written (a `$ref` kept), or
 * undefined.
 *
 * @example
 * ```ts
 * import { jsonBodySchema } from "./json_body.ts";
 * const op = { requestBody: { content: { "text/json": { schema: { $ref: "#/x" } } } } };
 * if (JSON.stringify(jsonBodySchema({}, op)) !== '{"$ref":"#/x"}') throw new Error();
 * ```
 */
export function jsonBodySchema(doc: unknown, node: Node): unknown {
  return jsonBodyMedia(doc, node)?.schema;
}
