/**
 * Arithmetic on two numbers a script knows when converting (`price * 2` with
 * `const price = 10`, `100 - 1`), worked out as JavaScript works it out, so a
 * check may compare with the value. A flow's checks compute nothing, so
 * arithmetic on a value known only when the flow runs (a variable, a part of
 * the answer) is not worked out: its line stays a comment, named in the
 * summary (untranslated_idioms.ts). `+` is concat.ts's (it joins text too).
 *
 * @module
 */

/** The operators worked out, on two numbers. */
const OPS: Record<string, (a: number, b: number) => number> = {
  "-": (a, b) => a - b,
  "*": (a, b) => a * b,
  "/": (a, b) => a / b,
  "%": (a, b) => a % b,
  "**": (a, b) => a ** b,
};

/**
 * `a op b` when both are numbers and the result one (`1 / 0` is not), boxed;
 * else undefined.
 *
 * @example
 * ```ts
 * import { arithmetic } from "./arithmetic.ts";
 * if (arithmetic("*", 10, 2)?.value !== 20 || arithmetic("/", 5, 2)?.value !== 2.5) throw new Error();
 * if (arithmetic("*", "10", 2) !== undefined || arithmetic("/", 1, 0) !== undefined) throw new Error();
 * ```
 */
export function arithmetic(op: string, a: unknown, b: unknown): { value: number } | undefined {
  const f = Object.hasOwn(OPS, op) ? OPS[op] : undefined;
  if (!f || typeof a !== "number" || typeof b !== "number") return undefined;
  const value = f(a, b);
  return Number.isFinite(value) ? { value } : undefined;
}
