/**
 * Pseudo-paths: `typeof x`, `x.indexOf(v)`, the status's reason phrase
 * (`pm.response.status`) and the day of a response's date
 * (`moment(x).format("YYYY-MM-DD")`, moment.ts) and a part's text (`x.toString()`, to_text.ts)
 * are carried as `typeof:<path>`, `indexOf:<path>:<v>`, `reason:<path>`, `day:<path>` and
 * `text:<path>` (not JSONPath) until a comparison says what they mean; this reads them into
 * the check flowrun has, so none reaches a flow.
 *
 * @module
 */
import { partTextEquals } from "./number_of.ts";
import { foldedCheck } from "./case_fold.ts";
import { reasonCode } from "./response.ts";
import { type Cond, flowText, isPseudo, type Sym } from "./sym.ts";

const TYPES = new Set(["string", "number", "boolean", "object"]);

/**
 * `typeof x === "string"` and `x.indexOf(v) !== -1`, carried as pseudo-paths
 * until compared: the check flowrun has for the comparison, or `undefined`.
 *
 * @example
 * ```ts
 * import { pseudo } from "./pseudo.ts";
 * const s = pseudo("typeof:$.json.a", "===", { k: "lit", value: "string" });
 * if (s?.k !== "cond" || s.conds[0].op !== "type") throw new Error();
 * if (pseudo("indexOf:$.json.a:\"x\"", "===", { k: "lit", value: 3 }) !== undefined) throw new Error();
 * ```
 */
export function pseudo(path: string, op: string, b: Sym): Sym | undefined {
  const typed = path.match(/^typeof:(.+)$/);
  if (typed) return typeofCheck(typed[1], op, b);
  if (path.startsWith("reason:")) return reasonCheck(path.slice("reason:".length), op, b);
  if (path.startsWith("day:")) return dayCheck(path.slice("day:".length), op, b);
  if (path.startsWith("text:")) return textCheck(path.slice("text:".length), op, b);
  if (/^(?:lower|upper):/.test(path)) return foldedEquals(path, op, b);
  if (!path.startsWith("indexOf:")) return undefined;
  // The path and the needle's JSON may both hold ":": the path ends where the rest is JSON.
  const rest = path.slice("indexOf:".length);
  for (let at = rest.indexOf(":"); at > 0; at = rest.indexOf(":", at + 1)) {
    const needle = jsonOf(rest.slice(at + 1));
    if (needle !== undefined) return indexOfCheck(rest.slice(0, at), needle.value, op, b);
  }
  return undefined;
}

/** The value of JSON text, boxed (it may be null), or undefined when it is none. */
function jsonOf(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/** Operators that compare `typeof x` for equality. */
const EQUALS = new Set(["===", "=="]);

/** What `typeof x <op> "undefined"` says of the part: there (`true`) or not. */
const THERE = new Map<string, boolean>([
  ["!==", true],
  ["!=", true],
  ["===", false],
  ["==", false],
]);

/** `typeof <path> <op> b`: a type check, or an existence check against `"undefined"`. */
function typeofCheck(path: string, op: string, b: Sym): Sym | undefined {
  if (b.k !== "lit") return undefined;
  if (b.value === "undefined") {
    const there = THERE.get(op);
    return there === undefined ? undefined : cond(path, "exists", there);
  }
  if (!TYPES.has(String(b.value)) || !EQUALS.has(op)) return undefined;
  return cond(path, "type", b.value);
}

/** The comparisons of `x.indexOf(v)` with a literal that mean `v` is found. */
const FOUND: [number, string][] = [[-1, "!=="], [-1, "!="], [-1, ">"], [0, ">="]];

/**
 * `<path>.indexOf(<needle>) <op> b`: a `contains` check when the comparison
 * means found; `needle` is the value looked for.
 */
function indexOfCheck(path: string, needle: unknown, op: string, b: Sym): Sym | undefined {
  const found = b.k === "lit" && FOUND.some(([value, o]) => b.value === value && op === o);
  return found ? cond(path, "contains", flowText(needle)) : undefined;
}

/**
 * `<reason> <op> "Not Found"`: a standard reason names one code (Postman gives it
 * from the code when the server sends none), so the check is of the code.
 */
function reasonCheck(path: string, op: string, b: Sym): Sym | undefined {
  const code = b.k === "lit" && typeof b.value === "string" ? reasonCode(b.value) : undefined;
  if (code === undefined) return undefined;
  if (EQUALS.has(op)) return cond(path, "equals", code);
  return THERE.get(op) ? cond(path, "notEquals", code) : undefined;
}

/** A check of one condition. */
function cond(path: string, op: string, value: unknown): Sym {
  return { k: "cond", conds: [{ path, op, value }] };
}

/**
 * `moment(x).format("YYYY-MM-DD") === day`: the response's date is that day, a date alone
 * (`2027-11-28`) or a date-time on it (`2027-11-28T10:00:00Z`). moment reads a date-time
 * with an offset in the runner's zone, which may be the next or the day before: the check
 * reads the day the text writes. The day is a flow expression (a var a script made) or a
 * literal day; anything else stays a comment.
 */
function dayCheck(path: string, op: string, b: Sym): Sym | undefined {
  const day = b.k === "var" ? b.expr : b.k === "lit" ? b.value : undefined;
  const known = typeof day === "string" &&
    (/^\$\{[^{}]+\}$/.test(day) || /^\d{4}-\d\d-\d\d$/.test(day));
  if (!known || !EQUALS.has(op)) return undefined;
  return cond(path, "matches", `^${day}(?:T|$)`);
}

/**
 * The values whose text (`toString()`, `String(x)`) is `t`: `t` itself, and the number or
 * boolean that writes `t` ("5": 5, "true": true; "05" and "5.0" no number writes).
 */
function textForms(t: string): unknown[] {
  const n = Number(t);
  if (t.trim() !== "" && Number.isFinite(n) && String(n) === t) return [t, n];
  return t === "true" || t === "false" ? [t, t === "true"] : [t];
}

/**
 * `<part>.toString() <op> "5"`: the part is "5" or 5 (`anyOf`), or neither. Compared with
 * anything but a literal text it stays a comment: a variable's value (`${vars.x}`, one whole
 * expression; a literal's `${` is written `$${`) may be a number or text when the flow runs.
 */
function textCheck(path: string, op: string, b: Sym): Sym | undefined {
  // A variable known to hold text (captured `as: string`): the part is it, or the number it writes.
  if (b.k === "var" && b.text && EQUALS.has(op)) {
    const conds = partTextEquals(path, b.expr);
    return conds ? { k: "cond", conds } : undefined;
  }
  const t = b.k === "lit" && typeof b.value === "string" ? b.value : undefined;
  if (t === undefined || /^\$\{[^{}]+\}$/.test(t)) return undefined;
  const forms = textForms(t);
  if (EQUALS.has(op)) {
    return forms.length === 1 ? cond(path, "equals", forms[0]) : cond(path, "anyOf", forms);
  }
  if (!THERE.get(op)) return undefined;
  return { k: "cond", conds: forms.map((value) => ({ path, op: "notEquals", value })) };
}

/** `x.toLowerCase() === "ok"` (case_fold.ts): a pattern on the part; another comparison, none. */
function foldedEquals(path: string, op: string, b: Sym): Sym | undefined {
  if (!EQUALS.has(op) || b.k !== "lit" || typeof b.value !== "string") return undefined;
  const conds = foldedCheck({ path, op: "equals", value: flowText(b.value) as string });
  return conds ? { k: "cond", conds } : undefined;
}

const JS_OPS: Record<string, string> = { equals: "===", notEquals: "!==", gt: ">", gte: ">=" };

/**
 * A check on `typeof x` or `x.indexOf(v)` (pseudo-paths, not JSONPath) as
 * the check flowrun has for it; `undefined` when it has none, so the line
 * stays a comment instead of a path `validate` refuses.
 *
 * @example
 * ```ts
 * import { settled } from "./pseudo.ts";
 * const c = settled({ path: "typeof:$.json.a", op: "equals", value: "string" });
 * if (c?.[0].op !== "type" || settled({ path: "$.json.a", op: "exists", value: true })?.length !== 1) throw new Error();
 * ```
 */
export function settled(c: Cond): Cond[] | undefined {
  if (!isPseudo(c.path)) return [c];
  if (/^(?:lower|upper):/.test(c.path)) return foldedCheck(c);
  const op = JS_OPS[c.op];
  const s = op ? pseudo(c.path, op, { k: "lit", value: c.value }) : undefined;
  return s?.k === "cond" ? s.conds : undefined;
}
