/**
 * A security requirement naming a scheme nobody declares, whose name says
 * it is a bearer token: `swagger-jsdoc` route comments write
 * `security: [{bearerAuth: []}]` on the operations that want the token,
 * while the scheme itself belongs in the definition's
 * `components.securitySchemes`, which course projects often leave out (the
 * comments are copied, the definition is not). Read as written, the
 * requirement matched nothing, no step sent a credential and the server
 * answered 401. Such a name is read as what it says: `bearer` or `jwt`
 * (`bearerAuth`, `BearerAuth`, `jwt_auth`, `JWT`), compared without case,
 * `_`, `-` or a trailing `auth`, declares an http bearer scheme under that
 * name, so the login's token serves it (login.ts) as it would a declared
 * one. A name saying nothing of its kind (`auth`, `api_key`, `token`:
 * a header of the API's own as often as a bearer) stays as written.
 * undeclared_schemes.ts runs first: where a declared scheme is of the kind
 * the name says, the requirement names that one.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { plainName } from "./producers.ts";

/** Plain names (no case, `_`, `-`, trailing `auth`) that say a bearer token. */
const BEARER_KINDS = new Set(["bearer", "jwt", "jwtbearer", "bearerjwt", "bearertoken"]);

/** Every scheme name the requirements of `doc` give, at its top and on each operation. */
function requiredNames(doc: Node): string[] {
  const items = isNode(doc.paths) ? Object.values(doc.paths).filter(isNode) : [];
  const all = [
    doc.security,
    ...items.flatMap((i) => Object.values(i).map((o) => isNode(o) && o.security)),
  ];
  return all.flatMap((sec) => Array.isArray(sec) ? sec.filter(isNode).flatMap(Object.keys) : []);
}

/**
 * `doc`, or a copy declaring an http bearer scheme under each required,
 * undeclared name that says it is one (see the module doc).
 *
 * @example
 * ```ts
 * import { withNamedBearer } from "./named_bearer.ts";
 * const doc = { paths: { "/books": { post: { security: [{ bearerAuth: [] }] } } } };
 * const got = withNamedBearer(doc) as { components?: { securitySchemes?: Record<string, { scheme: string }> } };
 * if (got.components?.securitySchemes?.bearerAuth.scheme !== "bearer") throw new Error();
 * const other = { paths: { "/books": { post: { security: [{ auth: [] }] } } } };
 * if (withNamedBearer(other) !== other) throw new Error();
 * ```
 */
export function withNamedBearer(doc: Node): Node {
  const components = isNode(doc.components) ? doc.components : {};
  const schemes = isNode(components.securitySchemes) ? components.securitySchemes : {};
  const named = [...new Set(requiredNames(doc))].filter((name) =>
    !Object.hasOwn(schemes, name) && BEARER_KINDS.has(plainName(name).replace(/auth$/, ""))
  );
  if (named.length === 0) return doc;
  const declared = Object.fromEntries(named.map((name) => [name, {
    type: "http",
    scheme: "bearer",
    description: `Named "${name}" by the document's requirements, declared nowhere in it.`,
  }]));
  const securitySchemes = { ...schemes, ...declared };
  return { ...doc, components: { ...components, securitySchemes } };
}
