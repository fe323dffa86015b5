/**
 * A number for a schema that gives none of its own: 1, or the nearest value its bounds allow
 * (`minimum`, `maximum`, and the exclusive ones of OpenAPI 3.0 and 3.1); whole for an integer.
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
  return s.type === "integer" ? Math.ceil(value) : value;
}
