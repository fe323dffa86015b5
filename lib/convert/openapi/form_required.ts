/**
 * The names a login's form requires (OAuth2's password request, RFC 6749 4.3.2), apart from the
 * login rules that read them. A field whose value the schema fixes (a `const`, an `enum` of one,
 * a `pattern` that is one plain word) is the protocol's, not the account's: FastAPI's strict form
 * requires `grant_type` at `pattern: password`, and read as a field the account has, it hid a
 * book library's sign-up `{email, password}` (no account, the summary asked for one).
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
 * const strict = { required: ["grant_type", "username"], properties: { grant_type: { pattern: "password" } } };
 * const form = { node: { requestBody: { content: { "application/x-www-form-urlencoded": { schema: strict } } } } };
 * if ([...formRequired({}, form as never) ?? []].join() !== "username") throw new Error();
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
  const properties = isNode(schema) && isNode(schema.properties) ? schema.properties : {};
  const fixed = (r: string) =>
    Object.hasOwn(properties, r) && fixesValue(deref(doc, properties[r]));
  return new Set(
    required.filter((r): r is string => typeof r === "string" && !fixed(r)).map(plainName),
  );
}

/** A pattern that is one plain word, anchored or not: `password`, `^password$`. */
const ONE_WORD = /^\^?[A-Za-z0-9_-]+\$?$/;

/** Whether a schema allows one value: a `const`, an `enum` of one, a pattern of one plain word. */
function fixesValue(p: unknown): boolean {
  if (!isNode(p)) return false;
  if (Object.hasOwn(p, "const")) return true;
  if (Array.isArray(p.enum) && p.enum.length === 1) return true;
  return typeof p.pattern === "string" && ONE_WORD.test(p.pattern);
}
