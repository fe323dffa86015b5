/**
 * An operation that states no requirement but takes, as a parameter of its own, the header (or
 * query parameter, or cookie) a declared scheme sends its credential in: signed in with that
 * scheme. A Hapi social API's `GET /auth/refresh-token` requires nothing in its document and
 * declares an optional `authorization` header, the place of its `BEARER` apiKey; it answers the
 * login's access token anew and takes the refresh token there. Read as open, the step was sent
 * no header, ran before the login and was refused 400 "Refresh token is required". Where the
 * parameter sits is the evidence, not its name: only a place a declared scheme fills
 * (`auth.ts`'s `placeOf`) counts. An operation's own `security` (`[]` included), a document's
 * top-level requirement, and a POST taking a password (the sign-in that hands the credential out)
 * are read as written.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { placeOf } from "./auth.ts";
import { deref } from "./examples.ts";
import { bodyFields } from "./login.ts";
import type { OpenApiOperation } from "./operations.ts";

/** The declared schemes by the place each sends its credential, the first declared of a place. */
function schemePlaces(doc: Node): Map<string, string> {
  const schemes = isNode(doc.components) ? doc.components.securitySchemes : undefined;
  const out = new Map<string, string>();
  for (const [name, scheme] of Object.entries(isNode(schemes) ? schemes : {})) {
    const place = isNode(scheme) ? placeOf(scheme) : undefined;
    if (place !== undefined && !out.has(place)) out.set(place, name);
  }
  return out;
}

/** The scheme whose place one of `params` is at; none for no such parameter. */
function placedScheme(doc: Node, params: unknown[], places: Map<string, string>) {
  for (const p of params.map((p) => deref(doc, p)).filter(isNode)) {
    if (typeof p.name !== "string" || typeof p.in !== "string") continue;
    const place = `${p.in} ${p.in === "header" ? p.name.toLowerCase() : p.name}`;
    const scheme = places.get(place);
    if (scheme !== undefined) return scheme;
  }
  return undefined;
}

/** `node` (of `method` at `template`, under path item `item`) requiring the scheme it takes. */
function signedIn(
  doc: Node,
  item: Node,
  method: string,
  template: string,
  places: Map<string, string>,
) {
  const node = item[method];
  if (!isNode(node) || node.security !== undefined) return node;
  const params = [item.parameters, node.parameters].flatMap((p) => Array.isArray(p) ? p : []);
  const scheme = placedScheme(doc, params, places);
  if (scheme === undefined) return node;
  const op = { method: method.toUpperCase(), template, node } as OpenApiOperation;
  if (op.method === "POST" && bodyFields(doc, op).has("\0password")) return node;
  return { ...node, security: [{ [scheme]: [] }] };
}

/** Whether a `security` value requires a scheme: a requirement naming one. */
function requires(security: unknown): boolean {
  return Array.isArray(security) && security.some((r) => isNode(r) && Object.keys(r).length > 0);
}

/**
 * `doc`, or a copy whose operations that take a declared scheme's credential place as a
 * parameter of their own, and state no requirement, require that scheme (see the module doc).
 *
 * @example
 * ```ts
 * import { withOwnAuthHeader } from "./own_auth_header.ts";
 * const h = (name: string) => ({ name, in: "header", schema: { type: "string" } });
 * const doc = {
 *   components: { securitySchemes: { key: { type: "apiKey", in: "header", name: "Authorization" } } },
 *   paths: { "/renew": { get: { parameters: [h("authorization")] } }, "/open": { get: { parameters: [h("x-trace")] } } },
 * };
 * const read = withOwnAuthHeader(doc) as typeof doc & { paths: { "/renew": { get: { security?: unknown } }; "/open": { get: { security?: unknown } } } };
 * if (JSON.stringify(read.paths["/renew"].get.security) !== '[{"key":[]}]') throw new Error();
 * if (read.paths["/open"].get.security !== undefined) throw new Error();
 * ```
 */
export function withOwnAuthHeader(doc: Node): Node {
  const places = schemePlaces(doc);
  if (places.size === 0 || requires(doc.security) || !isNode(doc.paths)) return doc;
  let changed = false;
  const paths: Node = {};
  for (const [template, item] of Object.entries(doc.paths)) {
    if (!isNode(item)) {
      paths[template] = item;
      continue;
    }
    const out: Node = {};
    for (const method of Object.keys(item)) {
      const verb = /^(get|put|post|delete|patch|head|options|trace)$/.test(method);
      out[method] = verb ? signedIn(doc, item, method, template, places) : item[method];
      if (out[method] !== item[method]) changed = true;
    }
    paths[template] = out;
  }
  return changed ? { ...doc, paths } : doc;
}
