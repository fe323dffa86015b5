/**
 * Status bounds (`status: {gte: 200, lt: 300}`): their keys and how a
 * message says them (`>= 200 and < 300`), shared by the loader (a bound no
 * code meets) and the checker (a status outside them).
 *
 * @module
 */
import type { StatusBound } from "./checks.ts";

/** The keys of a status bound, in the order messages name them. */
export const STATUS_BOUND_KEYS = ["gt", "gte", "lt", "lte"] as const;

/** How a message writes each bound. */
const SIGNS: Record<StatusBound["op"], string> = { lt: "<", lte: "<=", gt: ">", gte: ">=" };

/**
 * The bounds as a message says them.
 *
 * @example
 * ```ts
 * import { boundsText } from "./status_bounds.ts";
 * const text = boundsText([{ op: "gte", value: 200 }, { op: "lt", value: 300 }]);
 * if (text !== ">= 200 and < 300") throw new Error(text);
 * ```
 */
export function boundsText(bounds: readonly Pick<StatusBound, "op" | "value">[]): string {
  return bounds.map((b) => `${SIGNS[b.op]} ${b.value}`).join(" and ");
}

/**
 * Whether `status` meets every bound.
 *
 * @example
 * ```ts
 * import { withinBounds } from "./status_bounds.ts";
 * if (!withinBounds(302, [{ op: "lt", value: 400 }])) throw new Error();
 * if (withinBounds(400, [{ op: "lt", value: 400 }])) throw new Error();
 * ```
 */
export function withinBounds(
  status: number,
  bounds: readonly Pick<StatusBound, "op" | "value">[],
): boolean {
  return bounds.every(({ op, value }) =>
    op === "lt"
      ? status < value
      : op === "lte"
      ? status <= value
      : op === "gt"
      ? status > value
      : status >= value
  );
}
