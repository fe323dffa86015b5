/**
 * Values a script computes from what it already knows: `a || b` (and `??`) as
 * Postman reads a variable in two scopes or with a default, and a text method
 * on a literal (`'A'.repeat(1000)`, `'x'.toUpperCase()`), whose value is known
 * before the request and is sent as Newman sends it.
 *
 * @module
 */
import type { Node } from "./parse.ts";
import type { Sym } from "./sym.ts";
import { toText } from "./to_text.ts";

/** The longest text a literal's method may make: beyond it the value stays unknown. */
const MAX_MADE_TEXT = 100_000;

/**
 * `a || b`: `a` when it is known to be there or `b` is the same value; else
 * `undefined` (unknown). `right` evaluates `b`, only when it is read.
 *
 * @example
 * ```ts
 * import { either } from "./either.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("pm.environment.get('id') || pm.collectionVariables.get('id')");
 * if (!p.ok) throw new Error(p.why);
 * const id = { k: "var" as const, name: "id", expr: "${vars.id}" };
 * if (either(p.program.body[0].expression, id, () => id) !== id) throw new Error();
 * ```
 */
export function either(
  node: Node,
  a: Sym | undefined,
  right: () => Sym | undefined,
): Sym | undefined {
  // `json.user || {}`: a default for a missing part, which the checks on it report anyway.
  const fallback = node.right.type === "ObjectExpression" || node.right.type === "ArrayExpression";
  if (a?.k === "path" && fallback) return a;
  if (a?.k === "lit") return a.value ? a : right();
  // `pm.environment.get("id") || pm.collectionVariables.get("id")`: one variable read in two
  // scopes, or a default that is not there (a falsy literal): Newman sends the first's value.
  if (a?.k === "var") {
    const b = right();
    return (b?.k === "var" && b.name === a.name) || (b?.k === "lit" && !b.value) ? a : undefined;
  }
  // `headers.get('set-cookie') || headers.get('Set-Cookie')`: one header, whatever its case.
  const b = a?.k === "path" ? right() : undefined;
  return a?.k === "path" && b?.k === "path" && b.path === a.path ? a : undefined;
}

/** Text methods whose value, on a literal text with literal arguments, is known here. */
const TEXT_METHODS = new Set([
  "repeat",
  "toUpperCase",
  "toLowerCase",
  "trim",
  "padStart",
  "padEnd",
  "slice",
  "substring",
]);

/**
 * `'A'.repeat(1000)`: the text a method makes of a literal text, `undefined`
 * when the call is not one whose value is known here.
 *
 * @example
 * ```ts
 * import { literalText } from "./either.ts";
 * const made = literalText("repeat", { k: "lit", value: "ab" }, [{ k: "lit", value: 3 }]);
 * if (made?.k !== "lit" || made.value !== "ababab") throw new Error(JSON.stringify(made));
 * ```
 */
export function literalText(
  method: string,
  on: Sym | undefined,
  args: (Sym | undefined)[],
): Sym | undefined {
  // `x.toString()` of a value known as text (a variable's, a literal's) is that text.
  const known = toText(method, on, args.length);
  if (known) return known;
  if (on?.k !== "lit" || typeof on.value !== "string" || !TEXT_METHODS.has(method)) return;
  const values = args.map((a) => (a?.k === "lit" ? a.value : Symbol()));
  if (!values.every((v) => typeof v === "string" || typeof v === "number")) return;
  const count = method === "repeat" ? Number(values[0]) : 0;
  if (count * on.value.length > MAX_MADE_TEXT) return;
  try {
    const f = (on.value as unknown as Record<string, (...a: unknown[]) => unknown>)[method];
    const value = f.apply(on.value, values);
    return typeof value === "string" && value.length <= MAX_MADE_TEXT
      ? { k: "lit", value }
      : undefined;
  } catch {
    return undefined; // `'a'.repeat(-1)`: JavaScript throws; the value stays unknown
  }
}
