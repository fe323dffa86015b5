/**
 * YAML's merge keys in a document read as YAML: `<<: *anchor` puts the
 * anchored map's keys into the map it is written in (a key written there
 * wins; of a list of maps, the first that has a key). PowerDNS's own
 * document (`/api/docs`, YAML unless JSON is asked for) shares its error
 * answers so: `responses: {<<: *commonErrors, "200": …}`. The parser reads
 * YAML 1.2, which has no merge keys, and kept a response named `<<`: the
 * upgraded document had none of the 400, 404, 422 and 500 its JSON form
 * has. JSON has no anchors, so a `<<` key there is data and stays.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";

/** How deep merges are followed: a document nests at most a few hundred levels. */
const MAX_DEPTH = 1_000;

/**
 * Applies every merge key of a parsed YAML document in place (see the module).
 *
 * @example
 * ```ts
 * import { applyMergeKeys } from "./yaml_merge.ts";
 * const shared = { "400": "bad", "404": "gone" };
 * const doc = { responses: { "<<": shared, "200": "ok", "404": "not here" } };
 * applyMergeKeys(doc);
 * // The merged keys join, a key of the map's own wins, and the "<<" key is gone.
 * if (JSON.stringify(doc) !== '{"responses":{"200":"ok","400":"bad","404":"not here"}}') {
 *   throw new Error(JSON.stringify(doc));
 * }
 * ```
 */
export function applyMergeKeys(root: unknown): void {
  const done = new Set<unknown>();
  const visit = (node: unknown, depth: number): void => {
    if (typeof node !== "object" || node === null || done.has(node) || depth > MAX_DEPTH) return;
    done.add(node);
    if (Array.isArray(node)) {
      for (const item of node) visit(item, depth + 1);
      return;
    }
    const map = node as Node;
    if (Object.hasOwn(map, "<<")) merge(map, (source) => visit(source, depth + 1));
    for (const value of Object.values(map)) visit(value, depth + 1);
  };
  visit(root, 0);
}

/** The keys of the map's `<<` sources it does not have, each source's own merges applied first. */
function merge(map: Node, resolve: (source: unknown) => void): void {
  const given = map["<<"];
  const sources = (Array.isArray(given) ? given : [given]).filter(isNode);
  // A `<<` of no map (a scalar) is no merge: it stays as written.
  if (sources.length === 0) return;
  delete map["<<"];
  for (const source of sources) {
    resolve(source);
    for (const [key, value] of Object.entries(source)) {
      if (!Object.hasOwn(map, key)) map[key] = value;
    }
  }
}
