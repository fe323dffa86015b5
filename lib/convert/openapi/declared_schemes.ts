/**
 * A document that declares security schemes and requires none anywhere (no
 * `security` at its top, none on any operation) has forgotten to say so:
 * it declares them because its API takes them. Signal K's apps document
 * declares `bearerAuth` and `cookieAuth` with no requirement, and the
 * server answers `GET /plugins` 401 without one. Such a document is read
 * as requiring its first declared scheme. An explicit `security: []` of an
 * operation still means none there (and says the others need one), and a
 * document that requires a scheme anywhere is read as it says (what it
 * leaves bare it meant bare).
 *
 * The login that hands out a declared scheme's token, and its sign-up, are
 * the exception: they are how a client gets the credential, so they need
 * none. hapi-swagger's Swagger 2.0 of a Hapi API declares `Bearer` (the
 * `Authorization` header, "Bearer <token>"), requires it nowhere, and its
 * `POST /login` answers `{data: {accessToken}}`: read as requiring the
 * scheme at the login too, the document had no login, and the summary
 * asked for `API_KEY` for every flow. Such a document is read as requiring
 * the scheme the login serves, with `security: []` on the login and its
 * sign-up; so is a session login's sign-up (the cookie's login answering no
 * token, `session_login.ts`), by what the document as written requires of it.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { findLogin, registerFor } from "./login.ts";
import { type OpenApiOperation, operationsOf } from "./operations.ts";
import { sessionLogin } from "./session_login.ts";
import { documentPath } from "./fixed_segment.ts";

/** Whether a `security` value requires a scheme: a requirement naming one. */
function requires(security: unknown): boolean {
  return Array.isArray(security) && security.some((r) => isNode(r) && Object.keys(r).length > 0);
}

/** Whether any operation of `doc` requires a scheme of its own. */
function saysSecurity(doc: Node): boolean {
  const paths = isNode(doc.paths) ? Object.values(doc.paths) : [];
  return paths.some((item) =>
    isNode(item) && Object.values(item).some((op) => isNode(op) && requires(op.security))
  );
}

/**
 * `doc`, or a shallow copy of it requiring its first declared scheme when
 * it declares schemes and requires none anywhere (see the module doc).
 *
 * @example
 * ```ts
 * import { withDeclaredSecurity } from "./declared_schemes.ts";
 * const doc = { paths: { "/a": { get: {} } }, components: { securitySchemes: { key: {}, jwt: {} } } };
 * if (JSON.stringify(withDeclaredSecurity(doc).security) !== '[{"key":[]}]') throw new Error();
 * const own = { ...doc, paths: { "/a": { get: { security: [{ jwt: [] }] } }, "/b": { get: {} } } };
 * if (withDeclaredSecurity(own) !== own) throw new Error();
 * const json = (properties: object) => ({ content: { "application/json": { schema: { properties } } } });
 * const login = { requestBody: json({ email: {}, password: { format: "password" } }),
 *   responses: { "200": json({ accessToken: { type: "string" } }) } };
 * const signIn = { paths: { "/login": { post: login } },
 *   components: { securitySchemes: { Bearer: { type: "apiKey", in: "header", name: "Authorization" } } } };
 * const read = withDeclaredSecurity(signIn) as { paths: { "/login": { post: { security?: unknown } } } };
 * if (JSON.stringify(read.paths["/login"].post.security) !== "[]") throw new Error();
 * ```
 */
export function withDeclaredSecurity(doc: Node): Node {
  const schemes = isNode(doc.components) && isNode(doc.components.securitySchemes)
    ? Object.keys(doc.components.securitySchemes)
    : [];
  if (doc.security !== undefined || schemes.length === 0 || saysSecurity(doc)) return doc;
  const login = findLogin(doc, operationsOf(doc));
  const served = login ? [...login.schemes.keys()] : [];
  if (!login || served.length === 0) {
    return withOpenSessionSignUp(doc, { ...doc, security: [{ [schemes[0]]: [] }] });
  }
  const open = [login.op, login.register, login.credentials, login.alternate];
  return { ...doc, paths: withOpen(doc, open), security: [{ [served[0]]: [] }] };
}

/**
 * `required` (`doc` read as requiring its first scheme) with the sign-up of
 * its session login (`session_login.ts`) requiring none, when `doc` as
 * written has one: it is how a client gets the cookie, as a token login's
 * sign-up is how it gets the token. A FoalTS document declares its session
 * cookie's scheme and requires it nowhere; read as requiring it on the
 * sign-up too, no operation registered the account and the summary asked
 * for one made by hand.
 */
function withOpenSessionSignUp(doc: Node, required: Node): Node {
  const login = sessionLogin(required, operationsOf(required));
  if (!login) return required;
  const ops = operationsOf(doc);
  const own = ops.find((op) => op.method === login.op.method && op.template === login.op.template);
  const register = own && registerFor(doc, ops, own);
  return register ? { ...required, paths: withOpen(doc, [register]) } : required;
}

/** `doc`'s paths with `security: []` on each operation of `ops`. */
function withOpen(doc: Node, ops: (OpenApiOperation | undefined)[]): Node {
  const paths: Node = { ...(doc.paths as Node) };
  for (const op of ops) {
    if (!op) continue;
    const item = { ...(paths[documentPath(op)] as Node) };
    item[op.method.toLowerCase()] = { ...op.node, security: [] };
    paths[documentPath(op)] = item;
  }
  return paths;
}
