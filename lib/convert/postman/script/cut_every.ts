/**
 * Text cut from an answer's member that one pattern group cannot hold:
 * every occurrence removed (`json.id.replace(/-/g, "")`, `replaceAll("-", "")`,
 * `/\s/g`), and both bounds counted from the end (`json.token.slice(-6, -2)`).
 * A removal is the text joined from the pieces between occurrences, each a cut
 * of its own (cut_text.ts's `cut`, a capture each: set_value.ts); up to
 * `PIECES`, a piece past the text's occurrences empty, and a text with more
 * occurrences than that matches nothing, so the capture fails loudly instead
 * of keeping one. A replacement that is not empty is not expressed: its text
 * would stand between pieces that are not there.
 *
 * @module
 */
import type { Sym } from "./sym.ts";
import { escapeRegExp as escape } from "../../../_util/regex_escape.ts";

type Cut = Extract<Sym, { k: "cut" }>;
type Value = (regex: string) => Cut;
type Arg = { type: string; value?: unknown; regex?: { pattern: string; flags: string } };

const ANY = "[\\s\\S]";
/** How many pieces a removal is read in: a UUID's five, a date's or a phone's few, and more. */
export const PIECES = 8;

/**
 * `replace(/re/g, "")` and `replaceAll(text or /re/g, "")` as pieces joined; `null` when the
 * call replaces one occurrence only (cut_text.ts reads it), undefined when not expressed.
 *
 * @example
 * ```ts
 * import { everyRemoved } from "./cut_every.ts";
 * const value = (regex: string) => ({ k: "cut" as const, path: "$.json.id", stage: "value" as const, regex });
 * const re = { type: "Literal", regex: { pattern: "-", flags: "g" } };
 * const cut = everyRemoved("replace", [re, { type: "Literal", value: "" }], value);
 * if (cut?.k !== "cat") throw new Error();
 * const text = cut.parts.map((p) => (p.k === "cut" && new RegExp(p.regex!).exec("a-b-c")?.[1]) ?? "").join("");
 * if (text !== "abc") throw new Error(text);
 * ```
 */
export function everyRemoved(method: string, args: Arg[], value: Value): Sym | undefined | null {
  const [what, by] = args;
  const flags = what?.regex?.flags;
  if (method === "replace" && flags !== "g") return null;
  if (args.length !== 2 || by?.type !== "Literal" || by.value !== "") return undefined;
  const pattern = typeof what?.value === "string" && what.value !== "" && !what.regex
    ? escape(what.value)
    : flags === "g" && !/\((?!\?[:=!])|\\\d/.test(what.regex!.pattern)
    ? what.regex!.pattern
    : undefined;
  // A pattern that matches no text at all (`/x*/g`) replaces between every character: not expressed.
  if (pattern === undefined || new RegExp(pattern).test("")) return undefined;
  const free = `(?:(?!${pattern})${ANY})*`;
  const before = (i: number) => `(?:${free}(?:${pattern})){${i}}`;
  const parts: Sym[] = [];
  for (let i = 0; i < PIECES; i++) {
    // The piece after the i-th occurrence; none there: empty (the second branch has no group).
    const piece = i < PIECES - 1
      ? `^(?:${before(i)}(${free})|(?!${before(i)}))`
      : `^(?:${before(i)}(${free})$|(?!${before(i)}))`;
    parts.push(value(piece));
  }
  return { k: "cat", parts };
}

/**
 * `slice(-n, -m)`: from the n-th character from the end up to the m-th, as JavaScript reads
 * a shorter text (from its start; nothing when m reaches it); undefined for other bounds.
 *
 * @example
 * ```ts
 * import { bothFromEnd } from "./cut_every.ts";
 * const cut = bothFromEnd(6, 2, (regex) => ({ k: "cut", path: "$.json.t", stage: "value", regex }));
 * const re = new RegExp((cut as { regex: string }).regex);
 * if (re.exec("abcdefghij")?.[1] !== "efgh" || re.exec("abc")?.[1] !== "a") throw new Error();
 * ```
 */
export function bothFromEnd(n: number, m: number, value: Value): Cut {
  // The fewest characters skipped, then the fewest kept that leave exactly m (or fewer) after.
  return n <= m ? value("^()") : value(`^${ANY}*?(${ANY}{0,${n - m}}?)(?=${ANY}{0,${m}}$)`);
}
