/**
 * Following a local `$ref` chain to the node it ends at, bounded
 * (`MAX_REF_CHAIN`); moved out of examples.ts, which re-exports it for the
 * modules that import it from there.
 *
 * @module
 */
import { member } from "../../check/openapi_operations.ts";
import { MAX_REF_CHAIN } from "./limits.ts";
import { atPointer } from "./refs.ts";

/**
 * The node a local `$ref` chain ends at (the node itself without one);
 * undefined for a chain that is broken, loops or is too long.
 *
 * @example
 * ```ts
 * import { deref } from "./deref.ts";
 * const doc = { components: { schemas: { A: { $ref: "#/components/schemas/B" }, B: { type: "string" } } } };
 * if ((deref(doc, { $ref: "#/components/schemas/A" }) as { type: string }).type !== "string") throw new Error();
 * ```
 */
export function deref(doc: unknown, node: unknown): unknown {
  for (let n = 0; n <= MAX_REF_CHAIN; n++) {
    const ref = member(node, "$ref");
    if (typeof ref !== "string") return node;
    if (!ref.startsWith("#")) return undefined;
    node = atPointer(doc, safeDecode(ref.slice(1)));
  }
  return undefined;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
