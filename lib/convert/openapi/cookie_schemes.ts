/**
 * A document's apiKey schemes sent in a cookie, read as the session a
 * login's answer sets: a cookie is made by the server (`Set-Cookie`), never
 * handed to a user as a key, so where the document's login answers no token
 * (session_login.ts) the cookie scheme is that login's session, kept by each
 * flow's cookie jar, and asked of nobody. tududi's `swagger-jsdoc` document
 * declares `cookieAuth` (`in: cookie`, `connect.sid`, "Session cookie
 * authentication") beside a bearer no operation answers, requires either on
 * every operation but its login, and the summary asked for `API_KEY`, which
 * no user holds.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import type { OpenApiOperation } from "./operations.ts";

/** The names of `doc`'s apiKey schemes sent in a cookie. */
function cookieSchemes(doc: Node): Set<string> {
  const components = isNode(doc.components) ? doc.components : {};
  const schemes = isNode(components.securitySchemes) ? components.securitySchemes : {};
  return new Set(
    Object.entries(schemes).filter(([, s]) => isNode(s) && s.type === "apiKey" && s.in === "cookie")
      .map(([name]) => name),
  );
}

/**
 * Whether the requirement `alternative` (one entry of a `security` list)
 * names cookie apiKey schemes of `doc` and nothing else.
 *
 * @example
 * ```ts
 * import { cookiesOnly } from "./cookie_schemes.ts";
 * const doc = { components: { securitySchemes: {
 *   sid: { type: "apiKey", in: "cookie", name: "connect.sid" }, jwt: { type: "http", scheme: "bearer" } } } };
 * if (!cookiesOnly(doc, { sid: [] }) || cookiesOnly(doc, { jwt: [] }) || cookiesOnly(doc, {})) throw new Error();
 * ```
 */
export function cookiesOnly(doc: Node, alternative: unknown): boolean {
  const cookies = cookieSchemes(doc);
  const names = isNode(alternative) ? Object.keys(alternative) : [];
  return names.length > 0 && names.every((n) => cookies.has(n));
}

/**
 * Whether a session cookie meets every requirement `doc` declares: some
 * operation requires a cookie apiKey scheme, and each `security` list (the
 * document's, each operation's) is empty or has an alternative of nothing
 * or of cookie schemes only.
 *
 * @example
 * ```ts
 * import { sessionSecured } from "./cookie_schemes.ts";
 * import { operationsOf } from "./operations.ts";
 * const doc = { components: { securitySchemes: { sid: { type: "apiKey", in: "cookie", name: "sid" },
 *   key: { type: "apiKey", in: "header", name: "X-Key" } } },
 *   paths: { "/a": { get: { security: [{ sid: [] }, { key: [] }], responses: {} } } } };
 * if (!sessionSecured(doc, operationsOf(doc))) throw new Error();
 * if (sessionSecured({ ...doc, security: [{ key: [] }] }, operationsOf(doc))) throw new Error();
 * ```
 */
export function sessionSecured(doc: Node, ops: OpenApiOperation[]): boolean {
  const lists = [doc.security, ...ops.map((op) => op.node.security)].filter(Array.isArray);
  const met = (list: unknown[]) =>
    list.length === 0 ||
    list.some((a) => (isNode(a) && Object.keys(a).length === 0) || cookiesOnly(doc, a));
  return lists.some((l) => l.some((a) => cookiesOnly(doc, a))) && lists.every(met);
}

/**
 * Whether `op` requires a cookie apiKey scheme of `doc` alone (its own
 * `security`, else the document's), as tududi's blanket `cookieAuth` does
 * of its login.
 *
 * @example
 * ```ts
 * import { cookieRequired } from "./cookie_schemes.ts";
 * const doc = { security: [{ sid: [] }], components: { securitySchemes: {
 *   sid: { type: "apiKey", in: "cookie", name: "sid" } } } };
 * if (!cookieRequired(doc, { node: {} } as never) || cookieRequired(doc, { node: { security: [] } } as never)) {
 *   throw new Error();
 * }
 * ```
 */
export function cookieRequired(doc: Node, op: OpenApiOperation): boolean {
  const security = Array.isArray(op.node.security) ? op.node.security : doc.security;
  return Array.isArray(security) && security.length > 0 &&
    security.every((a) => cookiesOnly(doc, a));
}
