/**
 * `x.toString()` and `String(x)` of a value known as text already: a
 * variable's value (a flow reads it as text where a check compares it), a
 * made value, or a literal. A response part's text is the pseudo-path
 * `text:<path>`, which only a comparison with a literal reads (pseudo.ts): a
 * number's text is no number, so the part's value is not its text.
 *
 * @module
 */
import { isPseudo, type Sym } from "./sym.ts";

/**
 * The text of `on`, or undefined when `method` is not `toString` with no
 * argument or `on` is not a value known as text.
 *
 * @example
 * ```ts
 * import { toText } from "./to_text.ts";
 * const v = { k: "var" as const, name: "id", expr: "${vars.id}" };
 * if (toText("toString", v, 0)?.k !== "var" || !("text" in toText("toString", v, 0)!)) throw new Error();
 * if (JSON.stringify(toText("toString", { k: "lit", value: 7 }, 0)) !== '{"k":"lit","value":"7"}') throw new Error();
 * const part = toText("toString", { k: "path", path: "$.json.id" }, 0);
 * if (part?.k !== "path" || part.path !== "text:$.json.id") throw new Error();
 * ```
 */
export function toText(method: string, on: Sym | undefined, args: number): Sym | undefined {
  if (method !== "toString" || args !== 0) return undefined;
  if (on?.k === "gen") return on;
  // A variable's value as text: the same text wherever it is sent; a comparison (number_of.ts,
  // mapped.ts) reads it as text, where a captured number would otherwise stay a number.
  if (on?.k === "var") return { ...on, text: true };
  if (on?.k === "path") {
    return isPseudo(on.path) ? undefined : { k: "path", path: `text:${on.path}` };
  }
  const value = on?.k === "lit" ? on.value : undefined;
  const plain = typeof value === "string" || typeof value === "number" ||
    typeof value === "boolean";
  return plain ? { k: "lit", value: String(value) } : undefined;
}
