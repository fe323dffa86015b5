/**
 * Operations a document cannot describe: one that reaches, through any chain
 * of local `$ref`s, a `$ref` that points to nothing. A generator's slip in
 * a few operations refused the whole document: Feathers 5's
 * `feathers-swagger` 3 names the OAuth service's answers after its route
 * (`#/components/schemas/:providerList`, `:provider`) and never writes
 * them, so a Feathers application's document of 16 operations converted
 * none. Those operations are now left out (removed from the document, named
 * in the summary) and the rest convert; a document whose every operation
 * reaches one is still refused, naming the first. A `$ref` to another file
 * is the bundle's to follow or refuse.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { atPointer } from "./refs.ts";

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

// Values that are data, not schema: a "$ref" key inside them is no reference.
const DATA_KEYS = new Set(["example", "default", "enum", "const"]);

function decoded(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

/** Whether `node`, or what its local `$ref`s name transitively, holds a `$ref` to nothing. */
function reachesNothing(document: unknown, node: unknown): string | undefined {
  const seen = new Set<string>();
  const stack = [node];
  while (stack.length > 0) {
    const current = stack.pop();
    if (Array.isArray(current)) stack.push(...current);
    else if (isNode(current)) {
      const ref = current.$ref;
      if (typeof ref === "string" && ref.startsWith("#") && !seen.has(ref)) {
        seen.add(ref);
        const target = atPointer(document, decoded(ref.slice(1)));
        if (target === undefined) return ref;
        stack.push(target);
      }
      for (const [key, value] of Object.entries(current)) {
        if (key !== "$ref" && !DATA_KEYS.has(key)) stack.push(value);
      }
    }
  }
  return undefined;
}

/**
 * Removes from `document` (in place) each operation that reaches a local
 * `$ref` to nothing, unless every operation does; returns each removed one
 * as `GET /oauth/{provider} (#/components/schemas/:providerList)`.
 *
 * @example
 * ```ts
 * import { leaveOutBroken } from "./broken_refs.ts";
 * const ok = { responses: { "200": { description: "ok" } } };
 * const broken = { responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/:x" } } } } } };
 * const doc = { paths: { "/a": { get: ok }, "/b": { get: broken } } };
 * const out = leaveOutBroken(doc);
 * if (out.join() !== "GET /b (#/components/schemas/:x)" || "/b" in doc.paths) throw new Error(out.join());
 * ```
 */
export function leaveOutBroken(document: Node): string[] {
  const paths = isNode(document.paths) ? document.paths : {};
  const found: [string, string, string][] = [];
  let operations = 0;
  for (const [template, item] of Object.entries(paths)) {
    if (!isNode(item)) continue;
    const shared = reachesNothing(document, item.parameters);
    for (const method of METHODS.filter((m) => isNode(item[m]))) {
      operations++;
      const ref = shared ?? reachesNothing(document, item[method]);
      if (ref !== undefined) found.push([template, method, ref]);
    }
  }
  if (found.length === 0 || found.length === operations) return [];
  for (const [template, method] of found) {
    const item = paths[template] as Node;
    delete item[method];
    if (!METHODS.some((m) => isNode(item[m]))) delete paths[template];
  }
  return found.map(([template, method, ref]) => `${method.toUpperCase()} ${template} (${ref})`);
}
