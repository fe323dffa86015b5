/**
 * A path parameter at the end of a path whose parent's read answers one
 * text: that text is the parameter's value. Signal K's resources API
 * answers `GET /resources/{resourceType}/_providers/_default` with the
 * plugin id of the default provider, and `POST …/_default/{pluginId}` sets
 * it: the read names the one item under its path, as a listing of text
 * names its items (`listing_values.ts`). The read's 2xx answers, else its
 * `default` one when it documents no 2xx; each must be a text. Not for a
 * parameter the document gives a value.
 *
 * @module
 */
import { isNode } from "../../check/openapi_operations.ts";
import type { ParamLink } from "./document_links.ts";
import { deref } from "./examples.ts";
import { hasExample } from "./listing_values.ts";
import type { OpenApiOperation } from "./operations.ts";
import { jsonSchema } from "./responses.ts";
import { blanketDefault } from "./blanket_default.ts";

/** Whether every answer `read` documents (its 2xx, else its `default`) is a JSON text. */
function answersText(doc: unknown, read: OpenApiOperation): boolean {
  const responses = isNode(read.node.responses) ? read.node.responses : {};
  const successes = Object.keys(responses).filter((k) => /^2(\d\d|xx)$/i.test(k));
  // A `default` every operation writes alike says nothing of this read (blanket_default.ts).
  const stated = "default" in responses && !blanketDefault(doc, read.node);
  const keys = successes.length > 0 ? successes : stated ? ["default"] : [];
  const schemas = keys.map((k) => deref(doc, responses[k]))
    .map((r) => isNode(r) ? deref(doc, jsonSchema(doc, r)) : undefined);
  return schemas.length > 0 && schemas.every((s) => isNode(s) && s.type === "string");
}

/**
 * The link of `param` of `op` to the read of the path above it, when that
 * read answers one text (see the module doc).
 *
 * @example
 * ```ts
 * import { operationsOf } from "./operations.ts";
 * import { fromParentText } from "./parent_text.ts";
 * const text = { default: { description: "", content: { "application/json": { schema: { type: "string" } } } } };
 * const ops = operationsOf({ paths: {
 *   "/p/_default": { get: { responses: text } },
 *   "/p/_default/{id}": { post: { parameters: [{ name: "id", in: "path", required: true }] } },
 * } });
 * const link = fromParentText({}, ops, ops[1], "id");
 * if (link?.producer !== ops[0] || link.path.length !== 0) throw new Error();
 * ```
 */
export function fromParentText(
  doc: unknown,
  ops: readonly OpenApiOperation[],
  op: OpenApiOperation,
  param: string,
): ParamLink | undefined {
  const end = `/{${param}}`;
  const template = op.template.replace(/\/$/, "");
  if (!template.endsWith(end)) return undefined;
  const p = op.params.find((x) => x.in === "path" && x.name === param);
  if (p && hasExample(doc, p)) return undefined;
  const parent = template.slice(0, -end.length);
  const read = ops.find((o) => o.method === "GET" && o.template.replace(/\/$/, "") === parent);
  if (!read || !answersText(doc, read)) return undefined;
  return { param, producer: read, path: [], from: "listing" };
}
