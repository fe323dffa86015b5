/**
 * `x.toString()` and `String(x)` of a value known as text already: a
 * variable's value (a flow reads it as text where a check compares it), a
 * made value, or a literal. A response part stays unknown (an object's text
 * is `[object Object]`, a number's a string: its type would change).
 *
 * @module
 */
import type { Sym } from "./sym.ts";

/**
 * The text of `on`, or undefined when `method` is not `toString` with no
 * argument or `on` is not a value known as text.
 *
 * @example
 * ```ts
 * import { toText } from "./to_text.ts";
 * const v = { k: "var" as const, name: "id", expr: "${vars.id}" };
 * if (toText("toString", v, 0) !== v) throw new Error();
 * if (JSON.stringify(toText("toString", { k: "lit", value: 7 }, 0)) !== '{"k":"lit","value":"7"}') throw new Error();
 * if (toText("toString", { k: "path", path: "$.json.id" }, 0) !== undefined) throw new Error();
 * ```
 */
export function toText(method: string, on: Sym | undefined, args: number): Sym | undefined {
  if (method !== "toString" || args !== 0) return undefined;
  if (on?.k === "var" || on?.k === "gen") return on;
  const value = on?.k === "lit" ? on.value : undefined;
  const plain = typeof value === "string" || typeof value === "number" ||
    typeof value === "boolean";
  return plain ? { k: "lit", value: String(value) } : undefined;
}
