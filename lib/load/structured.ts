/**
 * Structured var values: a var (its default under `vars`, or the value an
 * include's `with` gives it) may be a map or a list. Such a value is bounded
 * in depth and size when the flow loads, and its shape is compared with the
 * included flow's default where both are known.
 *
 * @module
 */
import type { Node } from "yaml";
import { isMap, isSeq } from "./nodes.ts";
import type { ValueTemplate } from "../model/template.ts";
import { MAX_VAR_DEPTH, MAX_VAR_ENTRIES } from "../model/limits.ts";
import { thousands } from "../_util/thousands.ts";

/** What reading a node's parts needs of the loading context (`Loading` in context.ts). */
interface Reader {
  deref(node: unknown): Node | null;
  problem(code: string, message: string, node: Node | null | undefined, hint?: string): void;
}

/**
 * Whether a var's value node is within {@linkcode MAX_VAR_DEPTH} levels and
 * {@linkcode MAX_VAR_ENTRIES} entries; when not, one `var-too-large`
 * problem at the value, naming `what`.
 *
 * @example
 * ```ts
 * import { withinBounds } from "./structured.ts";
 * import { parseDocument } from "yaml";
 * const problems: string[] = [];
 * const ctx = { deref: (n: unknown) => n as never, problem: (code: string) => void problems.push(code) };
 * const deep = parseDocument("[".repeat(70) + "]".repeat(70)).contents;
 * if (withinBounds(ctx, deep, 'var "a"') || problems.join() !== "var-too-large") throw new Error();
 * ```
 */
export function withinBounds(
  ctx: Reader,
  node: Node | null,
  what: string,
  hint = "Keep large or deep data in a data file or the request body, and pass the part needed.",
): boolean {
  const stack: [Node | null, number][] = [[node, 1]];
  let entries = 0;
  while (stack.length > 0) {
    const [n, depth] = stack.pop()!;
    if (!isMap(n) && !isSeq(n)) continue;
    if (depth > MAX_VAR_DEPTH || (entries += n.items.length) > MAX_VAR_ENTRIES) {
      const over = depth > MAX_VAR_DEPTH
        ? `is nested more than ${MAX_VAR_DEPTH} levels deep`
        : `has more than ${thousands(MAX_VAR_ENTRIES)} entries`;
      ctx.problem(
        "var-too-large",
        `The value of ${what} ${over}.`,
        node,
        hint,
      );
      return false;
    }
    for (const item of n.items) {
      const value = isMap(n) ? (item as { value: unknown }).value : item;
      stack.push([ctx.deref(value), depth + 1]);
    }
  }
  return true;
}

/** The shape of a value as far as the loader knows it; `unknown` for one expression alone. */
export type Shape = "map" | "list" | "scalar" | "null" | "unknown";

/**
 * The shape of a compiled value: a map, a list, a single value, `null`, or
 * unknown (an exact `${…}`, whose value keeps the type it has when the flow runs).
 *
 * @example
 * ```ts
 * import { shapeOf } from "./structured.ts";
 * import { compileValue } from "../expr/template.ts";
 * if (shapeOf(compileValue({ a: 1 })) !== "map" || shapeOf(compileValue("${vars.x}")) !== "unknown") {
 *   throw new Error();
 * }
 * if (shapeOf(compileValue("id-${vars.x}")) !== "scalar") throw new Error();
 * ```
 */
export function shapeOf(value: ValueTemplate): Shape {
  switch (value.kind) {
    case "map":
    case "list":
      return value.kind;
    case "template": {
      const { parts } = value.template;
      return parts.length === 1 && typeof parts[0] !== "string" ? "unknown" : "scalar";
    }
    case "const":
      return value.value === null
        ? "null"
        : Array.isArray(value.value)
        ? "list"
        : typeof value.value === "object"
        ? "map"
        : "scalar";
  }
}

/** How a shape is named in a message. */
export function shapeName(shape: Shape): string {
  return shape === "map" ? "a map" : shape === "list" ? "a list" : "a single value";
}

/**
 * Whether a value of shape `given` may set a var whose default has shape
 * `declared`: a map for a map, a list for a list, a single value for a
 * single value; anything for a `null` default or when either is unknown.
 *
 * @example
 * ```ts
 * import { fits } from "./structured.ts";
 * if (!fits("map", "map") || fits("map", "scalar") || !fits("null", "list") || !fits("list", "unknown")) {
 *   throw new Error();
 * }
 * ```
 */
export function fits(declared: Shape, given: Shape): boolean {
  if (declared === "null" || declared === "unknown" || given === "unknown" || given === "null") {
    return true;
  }
  return declared === given;
}
