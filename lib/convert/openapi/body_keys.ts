/**
 * A JSON body's property named as the key of an apiKey scheme the
 * operation sends (the scheme's `name`): the key itself, read from the
 * scheme's variable, never the document's example. A server may read the
 * key from the body whatever the scheme's `in` says (Express-Zod-API's
 * `key`, whose scheme is `in: query` and says "key MUST be supplied within
 * the request body"); the body naming it is the evidence.
 *
 * @module
 */
import type { YMap, YNode } from "../yaml_out.ts";
import type { AuthSchemes } from "./auth.ts";
import type { BodyFill } from "./body_fill.ts";

/**
 * Sets each top-level body property that names a key the operation's own
 * apiKey schemes send to that scheme's variable (`${ENV.API_KEY}`).
 *
 * @example
 * ```ts
 * import { AuthSchemes } from "./auth.ts";
 * import { fillBodyKeys } from "./body_keys.ts";
 * import { ymap } from "../yaml_out.ts";
 * const auth = new AuthSchemes({ components: { securitySchemes: {
 *   k: { type: "apiKey", in: "query", name: "key" } } } });
 * const body = { fields: [["body", ymap([["key", "1234-5678"], ["name", "Jo"]])]] as [string, never][] };
 * const op = { method: "PATCH", template: "/user", node: { security: [{ k: [] }] } } as never;
 * fillBodyKeys({ auth }, { op, body, guards: [], stepOf: new Map(), capture: () => "" });
 * const text = JSON.stringify(body.fields);
 * if (!text.includes('["key","${ENV.API_KEY}"]') || !text.includes('["name","Jo"]')) throw new Error(text);
 * ```
 */
export function fillBodyKeys(shared: { auth: AuthSchemes }, fill: BodyFill): void {
  const sent = new Set(
    fill.body.fields.flatMap(([field, value]) =>
      field === "body" && isMap(value) ? value.entries.map(([k]) => k.toLowerCase()) : []
    ),
  );
  const keys = new Map<string, string>();
  for (const place of shared.auth.forOperation(fill.op.node).places.keys()) {
    const name = place.slice(place.indexOf(" ") + 1);
    // keyAt asks the user for the key: only for a key the body sends, never for one a login gives.
    if (!sent.has(name.toLowerCase())) continue;
    const key = shared.auth.keyAt(place);
    if (key !== undefined) keys.set(name, key.env);
  }
  if (keys.size === 0) return;
  fill.body.fields = fill.body.fields.map(([field, value]): [string, YNode] => {
    if (field !== "body" || !isMap(value)) return [field, value];
    const entries = value.entries.map(([k, v]): [string, YNode] => {
      // A header's place is lower case (`placeOf`); a body property keeps its case.
      const env = keys.get(k) ?? keys.get(k.toLowerCase());
      return [k, env === undefined ? v : `\${ENV.${env}}`];
    });
    return [field, { ...value, entries }];
  });
}

function isMap(node: YNode): node is YMap {
  return node !== null && typeof node === "object" && !Array.isArray(node) && node.kind === "map";
}
