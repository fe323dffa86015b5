/**
 * A requirement's alternatives naming a scheme the document does not
 * declare, beside an alternative whose schemes it all declares. The
 * alternatives of a `security` list are each sufficient, so one naming an
 * undeclared scheme is one no caller can be told how to meet, and the
 * declared alternatives are the operation's requirement. A FastAPI team task
 * manager overrides `app.openapi` to declare `BearerAuth` alone and appends
 * `{BearerAuth: []}` to each operation after the `{OAuth2PasswordBearer: []}`
 * FastAPI wrote, whose declaration the override dropped: read by its first
 * alternative, no operation sent a token (401). A list of undeclared
 * alternatives only, or of one, is left as written (the step's comment says
 * the scheme is missing); so is a list whose declared alternatives are all
 * `{}` (no credential), which would make the operation open.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";

/** Whether each scheme `requirement` names is declared in `schemes`. */
function declared(requirement: unknown, schemes: Node): boolean {
  return isNode(requirement) && Object.keys(requirement).every((n) => Object.hasOwn(schemes, n));
}

/** `security` without its undeclared alternatives, when a declared one naming a scheme is left. */
function kept(security: unknown, schemes: Node): unknown {
  if (!Array.isArray(security) || security.every((r) => declared(r, schemes))) return security;
  const left = security.filter((r) => declared(r, schemes));
  return left.some((r) => Object.keys(r).length > 0) ? left : security;
}

/**
 * `doc`, or a copy whose requirements keep only their declared alternatives where one naming a
 * scheme is among them (see the module doc).
 *
 * @example
 * ```ts
 * import { withDeclaredAlternatives } from "./undeclared_alternatives.ts";
 * const doc = { components: { securitySchemes: { BearerAuth: { type: "http", scheme: "bearer" } } },
 *   paths: { "/a": { get: { security: [{ OAuth2PasswordBearer: [] }, { BearerAuth: [] }] } } } };
 * const got = withDeclaredAlternatives(doc) as typeof doc;
 * if (JSON.stringify(got.paths["/a"].get.security) !== '[{"BearerAuth":[]}]') throw new Error();
 * const alone = { ...doc, paths: { "/a": { get: { security: [{ Other: [] }] } } } };
 * if (withDeclaredAlternatives(alone) !== alone) throw new Error();
 * ```
 */
export function withDeclaredAlternatives(doc: Node): Node {
  const schemes = isNode(doc.components) && isNode(doc.components.securitySchemes)
    ? doc.components.securitySchemes
    : undefined;
  if (!schemes || !isNode(doc.paths)) return doc;
  let changed = false;
  const paths: Node = {};
  for (const [template, item] of Object.entries(doc.paths)) {
    paths[template] = !isNode(item) ? item : Object.fromEntries(
      Object.entries(item).map(([key, op]) => {
        if (!isNode(op) || op.security === undefined) return [key, op];
        const security = kept(op.security, schemes);
        if (security === op.security) return [key, op];
        changed = true;
        return [key, { ...op, security }];
      }),
    );
  }
  const security = kept(doc.security, schemes);
  if (!changed && security === doc.security) return doc;
  return { ...doc, paths, ...(security === undefined ? {} : { security }) };
}
