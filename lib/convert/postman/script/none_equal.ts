/**
 * Whether some element of a response list matches, said as a JSONPath filter: `list.some(x =>
 * x.id === 4 && x.name === "Ada")` holds when `$.json[?@.id == 4 && @.name == 'Ada']` selects
 * something, and its negation (`.to.be.false`, `!found`) when the filter selects nothing. A
 * flow's `contains` on every element's member (`$.json[*].id` holding 4) has no negation of its
 * own; the filter selecting nothing is it.
 *
 * @module
 */
/** A check as sym.ts's `Cond` holds it (written out here: sym.ts imports this file). */
interface Cond {
  path: string;
  op: string;
  value: unknown;
}

/**
 * A value as a JSONPath filter writes it: a string single-quoted, a finite number, `true`,
 * `false` or `null`; `undefined` for anything else, and for text holding `$` (a flow reads
 * `${…}` in a check as a template, so the filter would not compare what the script does).
 *
 * @example
 * ```ts
 * import { filterLiteral } from "./none_equal.ts";
 * if (filterLiteral("O'Neil") !== "'O\\'Neil'" || filterLiteral(4) !== "4") throw new Error();
 * if (filterLiteral({ a: 1 }) !== undefined || filterLiteral("${x}") !== undefined) throw new Error();
 * ```
 */
export function filterLiteral(value: unknown): string | undefined {
  if (typeof value === "string") {
    return value.includes("$")
      ? undefined
      : `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  }
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : undefined;
  return typeof value === "boolean" || value === null ? String(value) : undefined;
}

/** `$.json.data[*].id`: the list before its one wildcard, and the members read after it. */
const EACH_MEMBER = /^(\$[^*?]*)\[\*\]((?:\.[A-Za-z_][A-Za-z0-9_]*|\['(?:[^'\\]|\\.)*'\])+)$/;

/**
 * The negation of `contains` of a plain value on each element's member of one list: no element
 * whose member equals it, the filter `[?@.member == value]` selecting nothing. `undefined` for
 * another path (no single wildcard followed by members) or value.
 *
 * @example
 * ```ts
 * import { noneEqual } from "./none_equal.ts";
 * const c = noneEqual({ path: "$.json[*].user.id", op: "contains", value: 4 });
 * if (c?.path !== "$.json[?@.user.id == 4]" || c.op !== "exists" || c.value !== false) throw new Error();
 * if (noneEqual({ path: "$.json.tags", op: "contains", value: "a" }) !== undefined) throw new Error();
 * ```
 */
export function noneEqual(c: Cond): Cond | undefined {
  const each = c.op === "contains" ? EACH_MEMBER.exec(c.path) : null;
  const value = filterLiteral(c.value);
  if (!each || value === undefined) return undefined;
  return { path: `${each[1]}[?@${each[2]} == ${value}]`, op: "exists", value: false };
}
