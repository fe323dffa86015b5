/**
 * A security requirement naming a scheme the document does not declare,
 * where exactly one declared scheme is of the kind that name says:
 * `@nestjs/swagger` writes `security: [{bearer: []}]` for `@ApiBearerAuth()`
 * (its default name) while the app declares its bearer scheme under a name
 * of its own (`addBearerAuth({type: "http", scheme: "bearer"},
 * "access-token")`). Read as named, the requirement matched nothing, no step
 * sent a credential and the server answered 401. Such a requirement is read
 * as naming that scheme: the name is compared with each declared scheme's
 * `scheme` (http), `type`, `in` (an apiKey's `header`, `query`, `cookie`)
 * and `bearerFormat`, without case, `_` or `-`, whole or word by word (a
 * NestJS sales API's `@ApiBearerAuth('JWT Token')` beside its declared
 * `bearer`, `bearerFormat: JWT`); none or two alike leave it as written.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { plainName } from "./producers.ts";

/** The one declared scheme the undeclared `name` names by kind, if exactly one. */
function schemeOfKind(schemes: Node, name: string): string | undefined {
  const kind = plainName(name).replace(/auth$/, "");
  const words = new Set([kind, ...name.split(/[^A-Za-z0-9]+/).map(plainName)]);
  const matches = Object.entries(schemes).filter(([, s]) =>
    isNode(s) &&
    [s.scheme, s.type, s.in, s.bearerFormat].some((w) =>
      typeof w === "string" && words.has(plainName(w))
    )
  );
  return matches.length === 1 ? matches[0][0] : undefined;
}

/** A `security` value with each undeclared name read as its declared scheme. */
function renamed(security: unknown, schemes: Node): unknown {
  if (!Array.isArray(security)) return security;
  return security.map((r) =>
    isNode(r)
      ? Object.fromEntries(
        Object.entries(r).map(([name, scopes]) => [
          Object.hasOwn(schemes, name) ? name : schemeOfKind(schemes, name) ?? name,
          scopes,
        ]),
      )
      : r
  );
}

/** Whether a requirement of `doc` names a scheme it does not declare. */
function namesUndeclared(doc: Node, schemes: Node): boolean {
  const items = isNode(doc.paths) ? Object.values(doc.paths).filter(isNode) : [];
  const all = [
    doc.security,
    ...items.flatMap((i) => Object.values(i).map((o) => isNode(o) && o.security)),
  ];
  return all.some((sec) =>
    Array.isArray(sec) &&
    sec.some((r) => isNode(r) && Object.keys(r).some((name) => !Object.hasOwn(schemes, name)))
  );
}

/**
 * `doc`, or a copy whose requirements naming no declared scheme name the one declared scheme
 * of their kind (see the module doc).
 *
 * @example
 * ```ts
 * import { withDeclaredNames } from "./undeclared_schemes.ts";
 * const doc = { components: { securitySchemes: { "access-token": { type: "http", scheme: "bearer" } } },
 *   paths: { "/a": { get: { security: [{ bearer: [] }] } } } };
 * const got = withDeclaredNames(doc) as typeof doc;
 * if (Object.keys(got.paths["/a"].get.security[0]).join() !== "access-token") throw new Error();
 * ```
 */
export function withDeclaredNames(doc: Node): Node {
  const schemes = isNode(doc.components) && isNode(doc.components.securitySchemes)
    ? doc.components.securitySchemes
    : undefined;
  if (!schemes || !isNode(doc.paths) || !namesUndeclared(doc, schemes)) return doc;
  const paths: Node = {};
  for (const [template, item] of Object.entries(doc.paths)) {
    paths[template] = !isNode(item) ? item : Object.fromEntries(
      Object.entries(item).map((
        [key, op],
      ) => [
        key,
        isNode(op) && op.security ? { ...op, security: renamed(op.security, schemes) } : op,
      ]),
    );
  }
  const security = doc.security === undefined ? undefined : renamed(doc.security, schemes);
  return { ...doc, paths, ...(security === undefined ? {} : { security }) };
}
