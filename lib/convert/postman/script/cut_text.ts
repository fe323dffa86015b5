/**
 * A token's text cut by position or by removing its scheme, as testers keep a bearer token
 * from a JSON member or a header: `.substring(7)`, `.slice(7)`, `.substr(7)`,
 * `.substring(0, 12)`, `.replace('Bearer ', '')`, `.replace(/^Bearer /, '')`. Each is a
 * `cut` value whose pattern's first group is what JavaScript gives (a `{path, regex}` or
 * `{header, regex}` capture, cut.ts).
 *
 * @module
 */
import type { Sym } from "./sym.ts";
import { cutCall } from "./cut.ts";
import { bothFromEnd, everyRemoved } from "./cut_every.ts";
import { escapeRegExp as escape } from "../../../_util/regex_escape.ts";
// `[i]` of a cut: the other step of reading one (cut.ts), beside the call.
export { cutMember } from "./cut.ts";

type Cut = Extract<Sym, { k: "cut" }>;
type Value = (regex: string) => Cut;
type Arg = { type: string; value?: unknown; regex?: { pattern: string; flags: string } };

const ANY = "[\\s\\S]";
/** A whole-number bound written as a literal, `-6` included (a unary minus on one). */
function index(a: Arg | undefined): number | undefined {
  const minus = a?.type === "UnaryExpression" && (a as { operator?: string }).operator === "-";
  const lit = minus ? (a as unknown as { argument: Arg }).argument : a;
  if (lit?.type !== "Literal" || !Number.isInteger(lit.value)) return undefined;
  return minus ? -(lit.value as number) : lit.value as number;
}

/**
 * `x.substring(a[, b])` (`slice`, `substr`) with literal bounds, counted from the end where
 * `slice`/`substr` take a negative one (`slice(-6)`: the last six), and `x.replace(text, by)` (the
 * first occurrence replaced, wherever it is) of a header, the body or a JSON member: a `cut`, or
 * for a replace whose text may sit in the middle, the text joined from the cuts before and after
 * it; `null` when the call is none of these.
 *
 * @example
 * ```ts
 * import { textCut } from "./cut_text.ts";
 * const on = { k: "path" as const, path: "$.json.authorization" };
 * const tail = textCut("substring", on, [{ type: "Literal", value: 7 }]) as { regex?: string };
 * const bare = textCut("replace", on, [{ type: "Literal", value: "Bearer " }, { type: "Literal", value: "" }]) as { regex?: string };
 * const mid = textCut("replace", on, [{ type: "Literal", value: "-" }, { type: "Literal", value: "" }]);
 * if (mid?.k !== "cat" || mid.parts.length !== 2) throw new Error();
 * if (!tail || !bare || new RegExp(bare.regex!).exec("Bearer abc")?.[1] !== "abc") throw new Error();
 * if (new RegExp(tail.regex!).exec("Bearer xyz")?.[1] !== "xyz") throw new Error();
 * ```
 */
export function textCut(method: string, on: Sym | undefined, args: Arg[]): Sym | undefined | null {
  if (!["substring", "slice", "substr", "replace", "replaceAll"].includes(method)) return null;
  if (on?.k !== "path") return null;
  const value = (regex: string): Cut => ({ k: "cut", path: on.path, stage: "value", regex });
  // Every occurrence (`/-/g`, `replaceAll`): pieces joined (cut_every.ts).
  const every = method.startsWith("replace") ? everyRemoved(method, args, value) : null;
  if (every !== null) return every;
  if (method === "replace") return replaced(args, value);
  const [a, b] = [index(args[0]), args.length > 1 ? index(args[1]) : undefined];
  if (a === undefined || args.length > 2 || (args.length === 2 && b === undefined)) {
    return undefined;
  }
  // `substring` reads a negative bound as 0; `slice` and `substr` count it from the end.
  return method === "substring"
    ? positional(method, Math.max(a, 0), b === undefined ? b : Math.max(b, 0), value)
    : positional(method, a, b, value);
}

/** A cut by position, `a` and `b` as `slice`/`substr` read them (negative: from the end). */
function positional(method: string, a: number, b: number | undefined, value: Value) {
  if (a < 0) return fromEnd(method, -a, b, value);
  if (b !== undefined && b < 0) {
    // `slice(3, -2)`: the fewest characters at the end left out, the rest after the first 3.
    return method === "slice" ? value(`^${ANY}{0,${a}}(${ANY}*?)${ANY}{0,${-b}}$`) : undefined;
  }
  if (b === undefined) return value(`^${ANY}{0,${a}}(${ANY}*)`);
  // `substr`'s second is a length; `slice`/`substring`'s an end (a smaller end: not expressed).
  const length = method === "substr" ? b : b - a;
  return length < 0 ? undefined : value(`^${ANY}{0,${a}}(${ANY}{0,${length}})`);
}

/**
 * `slice(-n)` and `substr(-n)`: the last `n` characters (all of a shorter text), the fewest
 * skipped first; `slice(-n, -m)` (cut_every.ts); another second bound is not expressed.
 */
function fromEnd(method: string, n: number, b: number | undefined, value: Value) {
  if (method === "slice" && b !== undefined && b < 0) return bothFromEnd(n, -b, value);
  return b === undefined && method !== "substring"
    ? value(`^${ANY}*?(${ANY}{0,${n}})$`)
    : undefined;
}

/**
 * Any cut a call is (cut.ts's `split`/`match`/`pop`, or this file's); `null` when none.
 *
 * @example
 * ```ts
 * import { anyCut } from "./cut_text.ts";
 * const on = { k: "path" as const, path: "$.headers.location" };
 * if (anyCut("split", on, [{ type: "Literal", value: "/" }])?.k !== "cut") throw new Error();
 * if (anyCut("trim", on, []) !== null) throw new Error();
 * ```
 */
export function anyCut(method: string, on: Sym | undefined, args: Arg[]): Sym | undefined | null {
  const cut = cutCall(method, on, args[0]);
  return cut === null ? textCut(method, on, args) : cut;
}

/**
 * `replace(text, by)`: the text before the first occurrence, `by`, and the text after it, each
 * cut (joined, set_value.ts); without the occurrence Newman keeps the value whole, as the cut
 * before (up to the end) and an empty cut after do when `by` is empty, and where it is not the
 * cuts find nothing and the capture fails loudly. A scheme's word and its space
 * (`replace('Bearer ', '')`) is one cut of what follows it, as before: such text sits at a
 * token's start, never inside it (a token holds no space). `replace(/re/, by)` (no `g`) is
 * the same around the pattern's first match; `replace(/^re/, "")`: the value without its start
 * when the start is that, else whole.
 */
function replaced(args: Arg[], value: Value): Sym | undefined {
  const [what, by] = args;
  if (args.length !== 2 || by?.type !== "Literal" || typeof by.value !== "string") return undefined;
  // `$&`, `$1`, `$$` in the replacement are patterns of their own: not expressed.
  if (by.value.includes("$")) return undefined;
  if (what?.type === "Literal" && typeof what.value === "string" && what.value !== "") {
    const lit = escape(what.value);
    // A scheme's word and its space: one cut of what follows it.
    if (by.value === "" && /\s$/.test(what.value)) {
      return value(`^(?:${lit})?((?:(?!${lit})${ANY})*)$`);
    }
    return around(lit, by.value, value);
  }
  return what?.type === "Literal" ? patternReplaced(what.regex, by.value, value) : undefined;
}

/** `replace(/re/, by)`: around its first match; `/^re/` removed from the start only. */
function patternReplaced(
  re: { pattern: string; flags: string } | undefined,
  by: string,
  value: Value,
): Sym | undefined {
  // Only a pattern with no groups of its own, back-references or flags (`g`: every occurrence)
  // keeps group 1 ours and replaces what JavaScript's first match does.
  if (!re || re.flags !== "" || /\((?!\?[:=!])|\\\d/.test(re.pattern)) return undefined;
  if (!re.pattern.startsWith("^")) return around(`(?:${re.pattern})`, by, value);
  return by === "" ? value(`^(?:${re.pattern.slice(1)})?(${ANY}*)$`) : undefined;
}

/**
 * `replace(pattern, by)`, the pattern's first match anywhere: the cuts before and after it joined
 * with `by`.
 */
function around(pattern: string, by: string, value: Value): Sym {
  const upTo = `((?:(?!${pattern})${ANY})*)`;
  const [before, after] = by === ""
    ? [value(`^${upTo}`), value(`^(?:(?!${pattern})${ANY})*(?:${pattern})?(${ANY}*)$`)]
    : [value(`^${upTo}${pattern}`), value(`^(?:(?!${pattern})${ANY})*${pattern}(${ANY}*)$`)];
  const between = by === "" ? [] : [{ k: "lit" as const, value: by }];
  return { k: "cat", parts: [before, ...between, after] };
}
