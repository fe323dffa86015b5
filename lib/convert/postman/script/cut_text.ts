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
import { escapeRegExp as escape } from "../../../_util/regex_escape.ts";
// `[i]` of a cut: the other step of reading one (cut.ts), beside the call.
export { cutMember } from "./cut.ts";

type Cut = Extract<Sym, { k: "cut" }>;
type Arg = { type: string; value?: unknown; regex?: { pattern: string; flags: string } };

const ANY = "[\\s\\S]";
const index = (a: Arg | undefined) =>
  a?.type === "Literal" && Number.isInteger(a.value) && (a.value as number) >= 0
    ? a.value as number
    : undefined;

/**
 * `x.substring(a[, b])` (`slice`, `substr`) with non-negative literal bounds and
 * `x.replace(text, "")` (the first occurrence removed; a text found elsewhere than at the start
 * matches nothing, so the capture fails loudly instead of holding another value) of a header,
 * the body or a JSON member: a `cut`; `null` when the call is none of these.
 *
 * @example
 * ```ts
 * import { textCut } from "./cut_text.ts";
 * const on = { k: "path" as const, path: "$.json.authorization" };
 * const tail = textCut("substring", on, [{ type: "Literal", value: 7 }]);
 * const bare = textCut("replace", on, [{ type: "Literal", value: "Bearer " }, { type: "Literal", value: "" }]);
 * if (!tail || !bare || new RegExp(bare.regex!).exec("Bearer abc")?.[1] !== "abc") throw new Error();
 * if (new RegExp(tail.regex!).exec("Bearer xyz")?.[1] !== "xyz") throw new Error();
 * ```
 */
export function textCut(method: string, on: Sym | undefined, args: Arg[]): Cut | undefined | null {
  if (!["substring", "slice", "substr", "replace"].includes(method)) return null;
  if (on?.k !== "path") return null;
  const value = (regex: string): Cut => ({ k: "cut", path: on.path, stage: "value", regex });
  if (method === "replace") return removed(args, value);
  const [a, b] = [index(args[0]), args.length > 1 ? index(args[1]) : undefined];
  if (a === undefined || args.length > 2 || (args.length === 2 && b === undefined)) {
    return undefined;
  }
  if (b === undefined) return value(`^${ANY}{0,${a}}(${ANY}*)`);
  // `substr`'s second is a length; `slice`/`substring`'s an end (a smaller end: not expressed).
  const length = method === "substr" ? b : b - a;
  return length < 0 ? undefined : value(`^${ANY}{0,${a}}(${ANY}{0,${length}})`);
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
export function anyCut(method: string, on: Sym | undefined, args: Arg[]): Cut | undefined | null {
  const cut = cutCall(method, on, args[0]);
  return cut === null ? textCut(method, on, args) : cut;
}

/** `replace(text or /^re/, "")`: the value without its start when the start is that, else whole. */
function removed(args: Arg[], value: (regex: string) => Cut): Cut | undefined {
  const [what, by] = args;
  if (args.length !== 2 || by?.type !== "Literal" || by.value !== "") return undefined;
  if (what?.type === "Literal" && typeof what.value === "string" && what.value !== "") {
    const lit = escape(what.value);
    return value(`^(?:${lit})?((?:(?!${lit})${ANY})*)$`);
  }
  const re = what?.type === "Literal" ? what.regex : undefined;
  // Only a pattern anchored at the start, with no groups of its own or flags, keeps group 1 ours.
  const plain = re && re.flags === "" && re.pattern.startsWith("^") &&
    !/\((?!\?[:=!])|\\\d/.test(re.pattern);
  return plain ? value(`^(?:${re.pattern.slice(1)})?(${ANY}*)$`) : undefined;
}
