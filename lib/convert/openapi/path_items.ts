/**
 * Path items and operations kept behind a `$ref`, put in place after
 * bundling, so coverage and matching see their operations; a `$ref` that
 * names a place holding it is refused, since putting it in place would
 * make the document a cycle.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { MAX_REF_CHAIN } from "./limits.ts";
import { atPointer, pointerOf, refError } from "./refs.ts";

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/**
 * Path items kept elsewhere, put in place: coverage and matching read `paths` directly. So are
 * operations kept elsewhere (`get: {$ref: ops/list.yml}`): OpenAPI has no `$ref` for an
 * operation, but real documents written a file per operation use one (DigitalOcean's), and
 * bundlers put it in place.
 *
 * @example
 * ```ts
 * import { inlinePathItems } from "./path_items.ts";
 * const ok = { responses: {} };
 * const doc: Record<string, Record<string, Record<string, unknown>>> = {
 *   paths: { "/a": { get: { $ref: "#/paths/~1b/get" } }, "/b": { get: ok } },
 * };
 * inlinePathItems(doc);
 * if (JSON.stringify(doc.paths["/a"]) !== '{"get":{"responses":{}}}') throw new Error();
 * ```
 */
export function inlinePathItems(document: Node): void {
  const paths = document.paths;
  if (!isNode(paths)) return;
  for (const template of Object.keys(paths)) {
    const item = inPlace(document, paths[template], ["paths", template]);
    if (isNode(item)) {
      for (const method of METHODS) {
        if (method in item) {
          item[method] = inPlace(document, item[method], ["paths", template, method]);
        }
      }
    }
    paths[template] = item;
  }
}

/**
 * A value whose `$ref` (and its target's, up to the chain limit) is replaced by what it names.
 * A target holding the place `at` (`#`, `#/paths`, its own path item) would make the document a
 * cycle: a `bad-openapi-ref` error naming both.
 */
function inPlace(document: Node, value: unknown, at: string[]): unknown {
  let item = value;
  for (let n = 0; n < MAX_REF_CHAIN && isNode(item) && typeof item.$ref === "string"; n++) {
    const { $ref, ...rest } = item;
    const pointer = pointerSegmentsOf($ref as string);
    const place = pointerOf(at);
    if (place === pointer || place.startsWith(`${pointer}/`)) {
      throw refError(
        `The $ref "${$ref}" at #${place} names a place that holds it, so putting it in place never ends.`,
        "Point it at the operation or path item itself (#/components/pathItems/NAME, or a file of its own).",
      );
    }
    const target = atPointer(document, pointer);
    item = isNode(target) ? { ...target, ...rest } : rest;
  }
  return item;
}

function pointerSegmentsOf(ref: string): string {
  return ref.startsWith("#") ? decodeURIComponent(ref.slice(1)) : "";
}
