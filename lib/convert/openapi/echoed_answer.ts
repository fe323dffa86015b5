/**
 * An answer a document describes only by what its request sends: every
 * member it shows readable is a member of the request's body. Such a schema
 * says nothing of what the server makes, as an undescribed answer says
 * nothing. drf-spectacular describes a login built on a subclass of
 * simplejwt's `TokenObtainPairSerializer` (simplejwt's own recipe for
 * custom claims) by that serializer's one readable field, the account's
 * name (`{email}`), or by the request's own schema, whose members are all
 * write-only; the `access` and `refresh` the server answers are never shown.
 * Read as describing an answer without a token, the login was no login and
 * the summary asked for `API_TOKEN`.
 *
 * @module
 */
import { isNode } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import type { OpenApiOperation } from "./operations.ts";
import { responseSchemas } from "./response_paths.ts";
import { properties } from "./schema_properties.ts";

/**
 * Whether `op` has a body and each of its successes is described by an
 * object schema whose readable members (none, or each not `writeOnly`) are
 * all members the request's body sends (not `readOnly`; see the module doc).
 *
 * @example
 * ```ts
 * import { echoesRequest } from "./echoed_answer.ts";
 * const json = (properties: object) => ({ content: { "application/json": { schema: { type: "object", properties } } } });
 * const op = (answer: object) => ({ node: { requestBody: json({ email: {}, password: { writeOnly: true } }),
 *   responses: { "200": json(answer) } } }) as never;
 * if (!echoesRequest({}, op({ email: { type: "string" } }))) throw new Error();
 * if (echoesRequest({}, op({ email: {}, token: {} }))) throw new Error();
 * const shared = { properties: { email: { writeOnly: true }, access: { readOnly: true } } };
 * const pair = { requestBody: { content: { "application/json": { schema: shared } } },
 *   responses: { "200": { content: { "application/json": { schema: shared } } } } };
 * if (echoesRequest({}, { node: pair } as never)) throw new Error();
 * ```
 */
export function echoesRequest(doc: unknown, op: OpenApiOperation): boolean {
  // A read-only member of the request's schema is never sent: it is the server's (simplejwt's
  // `access` and `refresh`, in the one `TokenObtainPair` drf-spectacular gives both ways).
  const sent = new Set(
    properties(doc, requestSchema(doc, op)).filter(([, p]) => p.readOnly !== true).map(([n]) => n),
  );
  if (sent.size === 0) return false;
  const schemas = responseSchemas(doc, op);
  return schemas.length > 0 && schemas.every((schema) => {
    const s = deref(doc, schema);
    if (!isNode(s) || (s.type !== undefined && s.type !== "object")) return false;
    const shown = properties(doc, s).filter(([, p]) => p.writeOnly !== true);
    return shown.every(([name]) => sent.has(name));
  });
}

/** The schema of `op`'s JSON or form body. */
function requestSchema(doc: unknown, op: OpenApiOperation): unknown {
  const body = deref(doc, op.node.requestBody);
  const content = isNode(body) && isNode(body.content) ? body.content : {};
  const type = Object.keys(content).find((t) => /json|form/i.test(t));
  const media = type === undefined ? undefined : content[type];
  return isNode(media) ? media.schema : undefined;
}
