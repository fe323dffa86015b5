/**
 * A number for a schema that gives none of its own: 1, or the nearest value its bounds allow
 * (`minimum`, `maximum`, and the exclusive ones of OpenAPI 3.0 and 3.1); whole for an integer; a
 * multiple of its `multipleOf` where one lies within them (Joi's `.multiple(n)`, TypeBox's option).
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";

/**
 * A number within the bounds of schema `s`.
 *
 * @example
 * ```ts
 * import { numberValue } from "./number_value.ts";
 * if (numberValue({ type: "integer", minimum: 5 }) !== 5) throw new Error();
 * if (numberValue({ type: "number", exclusiveMaximum: 1 }) !== 0.5) throw new Error();
 * if (numberValue({ type: "integer", minimum: 5, multipleOf: 4 }) !== 8) throw new Error();
 * if (numberValue({ type: "number", minimum: 7, multipleOf: 2.5 }) !== 7.5) throw new Error();
 * ```
 */
export function numberValue(s: Node): number {
  const exclusive = (key: string, bound: string) =>
    typeof s[key] === "number" ? s[key] as number : s[key] === true ? s[bound] : undefined;
  const low = exclusive("exclusiveMinimum", "minimum");
  const high = exclusive("exclusiveMaximum", "maximum");
  const step = s.type === "integer" ? 1 : 0.5;
  let value = 1;
  if (typeof s.minimum === "number") value = Math.max(value, s.minimum);
  if (typeof low === "number") value = Math.max(value, low + step);
  if (typeof s.maximum === "number" && value > s.maximum) value = s.maximum;
  if (typeof high === "number" && value >= high) value = high - step;
  if (s.type === "integer") value = Math.ceil(value);
  const m = s.multipleOf;
  if (typeof m !== "number" || !(m > 0) || Number.isInteger(Number((value / m).toPrecision(12)))) {
    return value;
  }
  const within = (v: number) =>
    (typeof low !== "number" || v > low) && (typeof high !== "number" || v < high) &&
    (typeof s.minimum !== "number" || v >= s.minimum) &&
    (typeof s.maximum !== "number" || v <= s.maximum);
  // The nearest multiple above, else below; none within the bounds keeps the value they allow.
  const up = Number((Math.ceil(value / m) * m).toPrecision(12));
  const down = Number((Math.floor(value / m) * m).toPrecision(12));
  return [up, down].find(within) ?? value;
}
