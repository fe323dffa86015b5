/**
 * What a node under `status` may be: a code of the step's kind, or an
 * expression whose value is one when the check runs. Shared by the list of
 * codes (`status_check.ts`) and the bounds (`status_bounds.ts`).
 *
 * @module
 */
import type { Node, Scalar } from "yaml";
import { isScalar } from "./nodes.ts";
import type { StatusRange } from "../kinds/mod.ts";

/** HTTP's status codes: a step's, unless its kind carries others (gRPC's 0 to 16). */
export const HTTP_STATUSES: StatusRange = {
  min: 100,
  max: 599,
  what: "a status code from 100 to 599",
};

/**
 * Whether a node is a status code of the step's kind.
 *
 * @example
 * ```ts
 * import { HTTP_STATUSES, isCode } from "./status_code.ts";
 * import { scalarNode } from "./nodes.ts";
 * const code = (n: number) => scalarNode(n, "PLAIN", String(n), [0, 3, 3]);
 * if (!isCode(code(404), HTTP_STATUSES) || isCode(code(600), HTTP_STATUSES)) throw new Error();
 * ```
 */
export function isCode(n: Node | null, range: StatusRange): boolean {
  if (!isScalar(n) || !Number.isInteger(n.value)) return false;
  const code = n.value as number;
  return code >= range.min && code <= range.max;
}

/**
 * Whether a node is a string with an expression: a code known when the check runs.
 *
 * @example
 * ```ts
 * import { isExpression } from "./status_code.ts";
 * import { scalarNode } from "./nodes.ts";
 * const text = (s: string) => scalarNode(s, "QUOTE_DOUBLE", `"${s}"`, [0, 1, 1]);
 * if (!isExpression(text("${vars.max}")) || isExpression(text("400"))) throw new Error();
 * ```
 */
export function isExpression(n: Node | null): n is Scalar {
  return isScalar(n) && typeof n.value === "string" && /(^|[^$])\$\{/.test(n.value);
}
