/**
 * A document with a login (no credentials in, a token out) and no
 * top-level `security` that leaves writes bare besides the login and its
 * sign-up has lost its top-level requirement: an API that hands out a
 * token to sign in with does not let anyone change its data without one.
 * Directus 10's own document (`/server/specs/oas`) declares `Auth`,
 * requires it on its presets only and leaves `POST /roles`,
 * `DELETE /users` and the rest bare; the server refuses them all 403
 * without the token. Such a document is read as requiring, where an
 * operation says nothing, the scheme the login's token serves (one the
 * document requires elsewhere first); the login and sign-up need none. A
 * document whose only bare writes are its login and sign-up (RealWorld's)
 * is read as it says: what it leaves bare is public. An explicit
 * `security: []` still means none.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { findLogin } from "./login.ts";
import { operationsOf } from "./operations.ts";
import { documentPath } from "./fixed_segment.ts";

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * `doc`, or a copy requiring the login's scheme at its top and none on the
 * login and its sign-up, when it has lost that requirement (see the
 * module doc).
 *
 * @example
 * ```ts
 * import { withLoginSecurity } from "./login_security.ts";
 * const json = (properties: object) => ({ content: { "application/json": { schema: { properties } } } });
 * const doc = { components: { securitySchemes: { Auth: { type: "apiKey", in: "header", name: "Authorization" } } },
 *   paths: { "/login": { post: { requestBody: json({ email: {}, password: { format: "password" } }),
 *     responses: { "200": json({ access_token: { type: "string" } }) } } },
 *   "/roles": { post: { responses: {} } } } };
 * const read = withLoginSecurity(doc) as typeof doc & { security: unknown; paths: { "/login": { post: { security: unknown } } } };
 * if (JSON.stringify(read.security) !== '[{"Auth":[]}]') throw new Error();
 * if (JSON.stringify(read.paths["/login"].post.security) !== "[]") throw new Error();
 * ```
 */
export function withLoginSecurity(doc: Node): Node {
  if (doc.security !== undefined) return doc;
  const ops = operationsOf(doc);
  const login = findLogin(doc, ops);
  if (!login || login.schemes.size === 0) return doc;
  const own = [login.op, login.register, login.credentials, login.alternate].filter((op) =>
    op !== undefined
  );
  const bareWrite = ops.some((op) =>
    !own.includes(op) && WRITES.has(op.method) && op.node.security === undefined
  );
  if (!bareWrite) return doc;
  const served = [...login.schemes.keys()];
  const required = ops.flatMap((op) => Array.isArray(op.node.security) ? op.node.security : [])
    .filter(isNode).flatMap((r) => Object.keys(r));
  const scheme = required.find((name) => served.includes(name)) ?? served[0];
  const paths: Node = { ...(doc.paths as Node) };
  for (const op of own) {
    const item = { ...(paths[documentPath(op)] as Node) };
    item[op.method.toLowerCase()] = { ...op.node, security: [] };
    paths[documentPath(op)] = item;
  }
  return { ...doc, security: [{ [scheme]: [] }], paths };
}
