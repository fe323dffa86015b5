/**
 * The parts of a document an operation can use: everything but the
 * containers of reusable parts (`components`, and Swagger 2.0's
 * `definitions`, `parameters`, `responses`), and of those only what a
 * local `$ref` (or a discriminator's mapping) of a used part names,
 * transitively; security schemes are named by key, so they count as used.
 * A `$ref` that points to nothing in an unused part changes no flow: the
 * bundle drops it rather than refuse a document a server serves as it is
 * (Signal K's notifications document has a response no path names whose
 * schema is missing).
 *
 * @module
 */
import { isNode } from "../../check/openapi_operations.ts";
import { atPointer, pointerOf } from "./refs.ts";
import { leaveOutBroken } from "./broken_refs.ts";

// Top-level keys that hold parts used only when a `$ref` names them.
const CONTAINERS = new Set(["components", "definitions", "parameters", "responses"]);

function decoded(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

/** The pointers (`/components/schemas/Thing`) of the reusable parts a used part names. */
function namedBy(node: unknown, found: string[]): void {
  const stack = [node];
  while (stack.length > 0) {
    const current = stack.pop();
    if (Array.isArray(current)) stack.push(...current);
    else if (isNode(current)) {
      for (const [key, value] of Object.entries(current)) {
        if (key === "$ref" && typeof value === "string" && value.startsWith("#")) {
          found.push(decoded(value.slice(1)));
        } else if (key === "mapping" && isNode(value)) {
          for (const target of Object.values(value)) {
            if (typeof target !== "string") continue;
            found.push(target.startsWith("#") ? target.slice(1) : `/components/schemas/${target}`);
          }
        } else stack.push(value);
      }
    }
  }
}

/**
 * Whether the part at `where` (path segments) of `document` is used by an
 * operation (see the module doc).
 *
 * @example
 * ```ts
 * import { usedParts } from "./used_parts.ts";
 * const used = usedParts({
 *   paths: { "/a": { get: { responses: { 200: { $ref: "#/components/responses/A" } } } } },
 *   components: { responses: { A: { description: "a" }, B: { $ref: "#/nothing" } } },
 * });
 * if (!used(["components", "responses", "A"]) || used(["components", "responses", "B"])) throw new Error();
 * ```
 */
export function usedParts(document: unknown): (where: readonly string[]) => boolean {
  const used = new Set<string>();
  const queue: string[] = [];
  if (isNode(document)) {
    for (const key of Object.keys(document)) {
      if (!CONTAINERS.has(key)) queue.push(pointerOf([key]));
    }
    queue.push(pointerOf(["components", "securitySchemes"]));
  }
  for (let i = 0; i < queue.length; i++) {
    const pointer = queue[i];
    if (used.has(pointer)) continue;
    used.add(pointer);
    namedBy(atPointer(document, pointer), queue);
  }
  return (where) => {
    for (let n = 1; n <= where.length; n++) {
      if (used.has(pointerOf(where.slice(0, n)))) return true;
    }
    return false;
  };
}

/**
 * Removes from `document` (in place) each local `$ref` that points to
 * nothing in a part no operation uses, or in the schema of an optional
 * parameter an operation lists (which the suite leaves out, as it leaves
 * out every optional parameter nothing fills: Feathers' `feathers-swagger`
 * gives its OAuth service's `filter` query parameter a schema named for
 * the route, `#/components/schemas/:provider`, that it never writes),
 * leaving its siblings: a `$ref` alone becomes `{}`, any value. Then the
 * operations that still reach one are left out (`broken_refs.ts`), and
 * returned; the other `$ref`s stay, to be refused or followed.
 *
 * @example
 * ```ts
 * import { dropUnusedDangling } from "./used_parts.ts";
 * const filter = { in: "query", name: "filter", schema: { $ref: "#/components/schemas/:provider" } };
 * const doc = { paths: { "/a": { get: { parameters: [filter] } } }, components: { schemas: { A: { $ref: "#/gone" } } } };
 * if (dropUnusedDangling(doc).length > 0) throw new Error();
 * if (JSON.stringify(doc.components.schemas.A) !== "{}" || JSON.stringify(filter.schema) !== "{}") throw new Error();
 * ```
 */
export function dropUnusedDangling(document: unknown): string[] {
  const used = usedParts(document);
  const stack: [unknown, string[], boolean][] = [[document, [], false]];
  while (stack.length > 0) {
    const [node, where, optional] = stack.pop()!;
    if (Array.isArray(node)) {
      node.forEach((v, i) =>
        stack.push([v, [...where, String(i)], optional || optionalParameter(where, v)])
      );
    } else if (isNode(node)) {
      const ref = node.$ref;
      if (typeof ref === "string" && ref.startsWith("#") && (optional || !used(where))) {
        if (atPointer(document, decoded(ref.slice(1))) === undefined) delete node.$ref;
      }
      for (const [key, value] of Object.entries(node)) {
        stack.push([value, [...where, key], optional]);
      }
    }
  }
  return isNode(document) ? leaveOutBroken(document) : [];
}

/**
 * Whether `value`, an element of the list at `where`, is an optional
 * parameter an operation (or its path) lists: not required, not in the
 * path, and written out (a `$ref` to a shared one is followed as before).
 */
function optionalParameter(where: readonly string[], value: unknown): boolean {
  if (where[0] !== "paths" || where.at(-1) !== "parameters" || !isNode(value)) return false;
  return typeof value.in === "string" && value.in !== "path" && value.required !== true;
}
