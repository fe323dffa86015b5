/**
 * Whether a `oneOf` branch requires a reference to an item the suite
 * cannot make: a required text whose own sample (its `example`, `default`)
 * is a path (`/resources/waypoints/ac3a…`) that no path of the document
 * serves. Such an item belongs to another API (Signal K's course API sets a
 * destination by a waypoint's `href` from its resources API, or by a
 * position); a branch that needs none is the one to send, since the
 * sample names an item that does not exist on a fresh server.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { atPointer } from "./refs.ts";

/** A schema with its local `$ref`s followed (a few deep). */
function resolved(doc: unknown, node: unknown): unknown {
  let s = node;
  for (let n = 0; n < 8 && isNode(s) && typeof s.$ref === "string"; n++) {
    s = s.$ref.startsWith("#") ? atPointer(doc, s.$ref.slice(1)) : undefined;
  }
  return s;
}

/** The path a text schema's own sample is ("/a/b"), if it is one. */
function samplePath(s: Node): string | undefined {
  const sample = [s.example, s.default].find((v) => typeof v === "string");
  return typeof sample === "string" && /^\/[^/]/.test(sample) ? sample.split(/[?#]/)[0] : undefined;
}

/** Whether a path of the document serves `path`, at its end (under any base path). */
function served(doc: unknown, path: string): boolean {
  const paths = isNode(doc) && isNode(doc.paths) ? Object.keys(doc.paths) : [];
  return paths.some((template) => {
    const pattern = template.split(/\{[^}]*\}/)
      .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, "\\$&")).join("[^/]+");
    return new RegExp(`${pattern}/?$`).test(path);
  });
}

/**
 * Whether `branch` requires a text whose sample is a path no operation of
 * `doc` serves (see the module doc).
 *
 * @example
 * ```ts
 * import { requiresForeignPath } from "./foreign_refs.ts";
 * const branch = { required: ["href"], properties: { href: { type: "string", example: "/waypoints/w1" } } };
 * if (!requiresForeignPath({ paths: { "/course": {} } }, branch)) throw new Error();
 * if (requiresForeignPath({ paths: { "/waypoints/{id}": {} } }, branch)) throw new Error();
 * ```
 */
export function requiresForeignPath(doc: unknown, branch: unknown): boolean {
  const s = resolved(doc, branch);
  if (!isNode(s) || !Array.isArray(s.required) || !isNode(s.properties)) return false;
  const properties = s.properties;
  return s.required.some((name) => {
    const p = typeof name === "string" ? resolved(doc, properties[name]) : undefined;
    const path = isNode(p) && p.type === "string" ? samplePath(p) : undefined;
    return path !== undefined && !served(doc, path);
  });
}
