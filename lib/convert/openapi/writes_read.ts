/**
 * Which writes send back what their path's read answers (read_back.ts
 * fills their bodies; operations.ts runs them after the read, as no
 * create): a POST, PUT or PATCH whose JSON body schema says nothing (no
 * type, no properties, or a list of such items) beside a GET of the same
 * path.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { documentPath } from "./fixed_segment.ts";

const WRITES = new Set(["POST", "PUT", "PATCH"]);
/** Keys that describe a schema without saying what it holds. */
const WORDS = new Set(["description", "title", "nullable"]);

/** Whether a schema says nothing of what it holds (`{}`, or a list of `{}`). */
function saysNothing(schema: unknown, list = true): boolean {
  if (!isNode(schema)) return false;
  const keys = Object.keys(schema).filter((k) => !WORDS.has(k));
  if (keys.length === 0) return true;
  const items = keys.length === 2 && schema.type === "array" && list;
  return items && saysNothing(schema.items, false);
}

/** The JSON body schema of `node` (an operation), written in place (no `$ref`). */
function bodySchema(node: Node): unknown {
  const body = node.requestBody;
  const content = isNode(body) && isNode(body.content) ? body.content : {};
  const type = Object.keys(content).find((t) => /json/i.test(t));
  const media = type === undefined ? undefined : content[type];
  return isNode(media) ? media.schema : undefined;
}

/**
 * Whether `op` writes back the resource a GET of its own path reads: a
 * POST, PUT or PATCH whose JSON body schema says nothing, beside a GET.
 *
 * @example
 * ```ts
 * import { writesReadBack } from "./writes_read.ts";
 * const post = { requestBody: { content: { "application/json": { schema: {} } } } };
 * const paths = { "/config": { get: {}, post } };
 * if (!writesReadBack({ method: "POST", template: "/config", node: post } as never, paths)) throw new Error();
 * if (writesReadBack({ method: "POST", template: "/config", node: post } as never, { "/config": { post } })) throw new Error();
 * ```
 */
export function writesReadBack(
  op: { method: string; template: string; path?: string; node: Node },
  paths: unknown,
): boolean {
  if (!WRITES.has(op.method) || !saysNothing(bodySchema(op.node))) return false;
  const item = isNode(paths) ? paths[documentPath(op)] : undefined;
  return isNode(item) && isNode(item.get);
}
