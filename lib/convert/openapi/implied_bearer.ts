/**
 * A document that declares no security at all (no `securitySchemes`, no
 * `security` on it or on any operation) though it has a login that says it
 * hands out a token: Django REST framework's own schema generator
 * (`manage.py generateschema`, `get_schema_view`) writes no security
 * whatever the API's authentication, and simplejwt's `POST /api/token/`
 * (`createTokenObtainPair`) takes a user name and a password and "returns
 * an access and refresh JSON web token pair" that every other view wants
 * as `Authorization: Bearer …`. Read as written, no step signed in and the
 * server refused each one 401. Such a document is read as declaring one
 * http bearer scheme, the token of that login, whose description names it
 * (so login.ts reads the token from the answer even where the answer's
 * schema does not show it); login_security.ts then requires it where the
 * document leaves writes bare. The evidence is the login's own words: a
 * POST taking a password whose summary, description, operation id or
 * schema names say `token` or `JWT`, or one named for signing in
 * (`/auth/login`, `signIn`) whose answer's schema shows a member named like
 * a token (`@fastify/swagger`'s `POST /auth/login` answering `{token}`,
 * described "Login", its token checked by a hook no schema mentions), and
 * that makes no item of a collection (a share made with a password is no
 * sign-in). Bearer is RFC 6750's word; a server
 * reading another (authtoken's `Token …`) says so nowhere in such a
 * document. A document declaring any security is read as it says.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { answersAToken, bodyFields } from "./login.ts";
import { makesItem } from "./makes_item.ts";
import { type OpenApiOperation, operationsOf } from "./operations.ts";

/** The name the implied scheme is declared under. */
export const IMPLIED_BEARER = "bearer";

/** Words that say an operation hands out a token. */
const SAYS_TOKEN = /token|jwt/i;

/** A path or name that says an operation signs in (`/auth/login`, `signIn`, `POST /session`). */
const SIGN_IN = /log_?in|sign_?in|session/i;

/** Whether `doc` declares a scheme or a requirement anywhere. */
function declaresSecurity(doc: Node, ops: OpenApiOperation[]): boolean {
  const schemes = isNode(doc.components) ? doc.components.securitySchemes : undefined;
  if (isNode(schemes) && Object.keys(schemes).length > 0) return true;
  return doc.security !== undefined || ops.some((op) => op.node.security !== undefined);
}

/** The last segment of each `$ref` in the operation's body and answers (`TokenObtainPair`). */
function refNames(op: OpenApiOperation): string[] {
  const text = JSON.stringify([op.node.requestBody, op.node.responses]);
  return [...text.matchAll(/"\$ref":"[^"]*\/([^"/]+)"/g)].map((m) => m[1]);
}

/** Whether a POST taking a password, and making no item, says it answers a token. */
function handsOutToken(doc: Node, op: OpenApiOperation): boolean {
  if (op.method !== "POST" || !bodyFields(doc, op).has("\0password")) return false;
  // A share or a user made with a password (ExaVault's `POST /shares`) signs nobody in.
  if (makesItem(doc, op)) return false;
  const words = [op.node.summary, op.node.description, op.node.operationId, ...refNames(op)];
  if (SAYS_TOKEN.test(words.filter((w) => typeof w === "string").join("\n"))) return true;
  return SIGN_IN.test(`${op.template} ${op.name}`) && answersAToken(doc, op);
}

/**
 * `doc`, or a shallow copy declaring an http bearer scheme named for the
 * logins that say they hand out a token, when it declares no security at
 * all (see the module doc).
 *
 * @example
 * ```ts
 * import { withImpliedBearer } from "./implied_bearer.ts";
 * const json = (properties: object) => ({ content: { "application/json": { schema: { properties } } } });
 * const doc = { paths: { "/api/token/": { post: { operationId: "createTokenObtainPair",
 *   requestBody: json({ username: {}, password: {} }), responses: {} } } } };
 * const read = withImpliedBearer(doc) as { components?: { securitySchemes?: Record<string, { scheme: string }> } };
 * if (read.components?.securitySchemes?.bearer.scheme !== "bearer") throw new Error();
 * const declared = { ...doc, security: [] };
 * if (withImpliedBearer(declared) !== declared) throw new Error();
 * ```
 */
export function withImpliedBearer(doc: Node): Node {
  const ops = operationsOf(doc);
  if (declaresSecurity(doc, ops)) return doc;
  const logins = ops.filter((op) => handsOutToken(doc, op));
  if (logins.length === 0) return doc;
  const said = logins.map((op) => `POST ${op.template}`).join(", ");
  const scheme = {
    type: "http",
    scheme: "bearer",
    description: `The token ${said} answers (the document declares no security).`,
  };
  const components = isNode(doc.components) ? doc.components : {};
  return { ...doc, components: { ...components, securitySchemes: { [IMPLIED_BEARER]: scheme } } };
}
