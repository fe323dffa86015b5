/**
 * The names a login's form requires (OAuth2's password request, RFC 6749 4.3.2), apart from the
 * login rules that read them.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import type { OpenApiOperation } from "./operations.ts";
import { plainName } from "./producers.ts";

/**
 * The plain names a login's form requires, when it takes a form (not JSON).
 *
 * @example
 * ```ts
 * import { formRequired } from "./form_required.ts";
 * const schema = { required: ["username", "password"], properties: { username: {}, password: {}, scope: {} } };
 * const op = { node: { requestBody: { content: { "application/x-www-form-urlencoded": { schema } } } } };
 * if ([...formRequired({}, op as never) ?? []].join() !== "username,password") throw new Error();
 * ```
 */
export function formRequired(doc: Node, op: OpenApiOperation): Set<string> | undefined {
  const body = deref(doc, op.node.requestBody);
  const content = isNode(body) && isNode(body.content) ? body.content : {};
  const type = Object.keys(content).find((t) => /json|form/i.test(t));
  if (type === undefined || !/form/i.test(type)) return undefined;
  const media = content[type];
  const schema = deref(doc, isNode(media) ? media.schema : undefined);
  const required = isNode(schema) && Array.isArray(schema.required) ? schema.required : [];
  return new Set(required.filter((r): r is string => typeof r === "string").map(plainName));
}
