/**
 * A document that declares no security at all, whose operations take the
 * credential as a header parameter of their own: FastAPI writes
 * `def read(token: str = Header(...))` as a required header parameter
 * `token` on each operation that reads it, and no scheme. Read as written,
 * each step sent the type's sample (`token: string`), the summary asked for
 * nothing, and the server answered 401 (an expense tracker: 2 of 8). The
 * evidence is where the header is required: on most operations, and on
 * none of the POSTs that take a password (the sign-up and the sign-in,
 * which are how a client gets it). Such a document is read as declaring an
 * apiKey scheme in that header, described as the sign-in's token, required
 * where the header was (and the parameter left to the scheme), so login.ts
 * reads the sign-in's token and sends it there alone, as the document
 * shows no word before it. Two such headers, or one a sign-in requires
 * too, are no evidence; a document declaring any security is read as it
 * says.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import { bodyFields } from "./login.ts";
import { type OpenApiOperation, operationsOf } from "./operations.ts";

/** The name the read scheme is declared under. */
export const HEADER_TOKEN = "header_token";

/** Whether `doc` declares a scheme or a requirement anywhere. */
function declaresSecurity(doc: Node, ops: OpenApiOperation[]): boolean {
  const schemes = isNode(doc.components) ? doc.components.securitySchemes : undefined;
  if (isNode(schemes) && Object.keys(schemes).length > 0) return true;
  return doc.security !== undefined || ops.some((op) => op.node.security !== undefined);
}

/** The names of the header parameters `op` requires, lowercased. */
function requiredHeaders(doc: Node, op: OpenApiOperation): string[] {
  const params = Array.isArray(op.node.parameters) ? op.node.parameters : [];
  return params.map((p) => deref(doc, p)).filter(isNode)
    .filter((p) => p.in === "header" && p.required === true && typeof p.name === "string")
    .map((p) => String(p.name).toLowerCase());
}

/** The one header most operations and no sign-in require, and the sign-ins. */
function credentialHeader(doc: Node, ops: OpenApiOperation[]) {
  const signIns = ops.filter((op) => op.method === "POST" && bodyFields(doc, op).has("\0password"));
  const others = ops.filter((op) => !signIns.includes(op));
  if (signIns.length === 0 || others.length < 2) return undefined;
  const counts = new Map<string, number>();
  for (const op of others) {
    for (const h of requiredHeaders(doc, op)) counts.set(h, (counts.get(h) ?? 0) + 1);
  }
  const signed = new Set(signIns.flatMap((op) => requiredHeaders(doc, op)));
  const headers = [...counts].filter(([h, n]) => n * 2 > others.length && !signed.has(h));
  return headers.length === 1 ? { header: headers[0][0], signIns } : undefined;
}

/** `op`'s node without the header parameter `header`, requiring the read scheme instead. */
function requiringScheme(doc: Node, node: Node, header: string): Node {
  const params = Array.isArray(node.parameters) ? node.parameters : [];
  const kept = params.filter((p) => {
    const d = deref(doc, p);
    return !(isNode(d) && d.in === "header" && String(d.name).toLowerCase() === header);
  });
  return { ...node, parameters: kept, security: [{ [HEADER_TOKEN]: [] }] };
}

/**
 * `doc`, or a copy reading its credential header as an apiKey scheme
 * (see the module doc).
 *
 * @example
 * ```ts
 * import { withHeaderToken } from "./header_token.ts";
 * const q = (name: string) => ({ name, in: "query", required: true, schema: { type: "string" } });
 * const h = { name: "token", in: "header", required: true, schema: { type: "string" } };
 * const doc = { paths: {
 *   "/login": { post: { parameters: [q("email"), q("password")], responses: {} } },
 *   "/notes": { get: { parameters: [h], responses: {} }, post: { parameters: [h], responses: {} } } } };
 * const read = withHeaderToken(doc) as { paths: { "/notes": { get: { security: unknown; parameters: unknown[] } } } };
 * if (JSON.stringify(read.paths["/notes"].get.security) !== '[{"header_token":[]}]') throw new Error();
 * if (read.paths["/notes"].get.parameters.length !== 0) throw new Error();
 * ```
 */
export function withHeaderToken(doc: Node): Node {
  const ops = operationsOf(doc);
  if (declaresSecurity(doc, ops)) return doc;
  const found = credentialHeader(doc, ops);
  if (!found) return doc;
  const { header, signIns } = found;
  const said = signIns.map((op) => `POST ${op.template}`).join(", ");
  const paths: Node = {};
  for (const [template, item] of Object.entries(isNode(doc.paths) ? doc.paths : {})) {
    if (!isNode(item)) continue;
    paths[template] = Object.fromEntries(
      Object.entries(item).map(([method, node]) =>
        isNode(node) && requiredHeaders(doc, { node } as OpenApiOperation).includes(header)
          ? [method, requiringScheme(doc, node, header)]
          : [method, node]
      ),
    );
  }
  const scheme = {
    type: "apiKey",
    in: "header",
    name: header,
    description: `The token ${said} answers, in the header every other operation requires.`,
  };
  const components = isNode(doc.components) ? doc.components : {};
  return {
    ...doc,
    paths,
    components: { ...components, securitySchemes: { [HEADER_TOKEN]: scheme } },
  };
}
