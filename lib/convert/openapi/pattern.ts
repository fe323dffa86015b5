/**
 * A string for a schema's `pattern`: the shortest text the regular
 * expression's first alternatives give (a quantifier its least count, a
 * class its first character), checked against the expression itself.
 * Enough for the patterns documents write (ids `^(0|[1-9][0-9]*)$`, codes
 * `^[A-Z]{3}$`, dates, versions); a pattern it cannot read (a
 * backreference, a lookaround it cannot satisfy) gives undefined and the
 * caller keeps its value. So does a pattern past the bounds below (longer
 * than {@link MAX_PATTERN_LENGTH}, groups nested deeper than
 * {@link MAX_PATTERN_DEPTH}, a text longer than {@link MAX_PATTERN_TEXT}):
 * a hostile document ends in time instead of failing the conversion.
 *
 * @module
 */
import { isTame } from "../../_util/regex_shape.ts";
import { testPattern } from "../../_util/regex.ts";
import { ecmaPattern } from "../../_util/regex_dialect.ts";
import { table } from "../table.ts";

/** Longest pattern read; V8 refuses some longer ones only when they first run ("too large"). */
export const MAX_PATTERN_LENGTH = 4_096;

/** Deepest nesting of groups read, so the reader's recursion stays shallow. */
export const MAX_PATTERN_DEPTH = 64;

/** Longest text made: nested counts (`((a{1000}){1000}){1000}`) multiply. */
export const MAX_PATTERN_TEXT = 10_000;

/**
 * The pattern compiled as the `openapi:` checks compile it (with the `u`
 * flag, else without, for patterns like `\:` only the older syntax reads;
 * Python's and PCRE's anchors and named groups as ECMA-262 spells them:
 * `regex_dialect.ts`);
 * undefined when it is no regular expression, or one longer than
 * {@link MAX_PATTERN_LENGTH} or one V8 refuses to run.
 *
 * @example
 * ```ts
 * import { patternRegExp } from "./pattern.ts";
 * if (!patternRegExp("^\\:$")?.test(":") || patternRegExp("(") !== undefined) throw new Error();
 * if (!patternRegExp("^[\\w.@+-]+\\z")?.test("admin")) throw new Error(); // DRF's user name
 * ```
 */
export function patternRegExp(pattern: string): RegExp | undefined {
  if (pattern.length > MAX_PATTERN_LENGTH) return undefined;
  const source = ecmaPattern(pattern);
  for (const flags of ["u", ""]) {
    try {
      const re = new RegExp(source, flags);
      re.test(""); // V8 compiles on the first run, where "too large" is thrown
      return re;
    } catch {
      // the next flags
    }
  }
  return undefined;
}

/**
 * A string the pattern matches, or undefined.
 *
 * @example
 * ```ts
 * import { fromPattern } from "./pattern.ts";
 * if (fromPattern("^(0|[1-9][0-9]*)$") !== "0" || fromPattern("^[A-Z]{3}$") !== "AAA") throw new Error();
 * ```
 */
export function fromPattern(pattern: string): string | undefined {
  const re = patternRegExp(pattern);
  if (re === undefined) return undefined;
  const source = ecmaPattern(pattern);
  let text: string;
  try {
    text = new Reader(source).alternatives();
  } catch {
    return undefined;
  }
  return tameTest(re, source, text) ? text : undefined;
}

/**
 * Whether `re` matches `text`, under a time limit: a document's own pattern
 * may backtrack for ever (`^(\w+)+!$` on a thousand characters). A pattern
 * whose worst case on the text is small (`isTame`, as the runner decides
 * which matches may run on the calling thread) runs here; any other on the
 * time guard's helper thread for at most 200 ms (without the `u` flag, as
 * the runner's `matches` does; `prepareGuard` loads its module). Undefined
 * when that could not tell.
 *
 * @example
 * ```ts
 * import { tameTest } from "./pattern.ts";
 * import { prepareGuard } from "../../_util/time_guard.ts";
 * await prepareGuard(); // the helper thread, as convert openapi loads it first
 * if (tameTest(/^a+$/u, "^a+$", "aaa") !== true) throw new Error();
 * const phone = "^(\\d{3}-)?\\d{4}$"; // a quantified group: tried on the helper thread
 * if (tameTest(new RegExp(phone, "u"), phone, "555-0100") !== true) throw new Error();
 * ```
 */
export function tameTest(re: RegExp, pattern: string, text: string): boolean | undefined {
  // The text `re` was compiled from (callers pass the document's own pattern).
  const source = ecmaPattern(pattern);
  if (isTame(source, text.length)) return re.test(text);
  try {
    return testPattern(source, text, 200);
  } catch {
    return undefined;
  }
}

/** Thrown for what the reader does not read; the caller gives up. */
class Unreadable extends Error {}

const CLASS_ESCAPES = table<string>({
  d: "0",
  D: "a",
  w: "a",
  W: "-",
  s: " ",
  S: "a",
  n: "\n",
  r: "\r",
  t: "\t",
  f: "\f",
  v: "\v",
  "0": "\0",
});

/** A character no negated class refuses, if there is one among these. */
const CANDIDATES = ["a", "0", "A", "x", "_", "-", ".", " "];

class Reader {
  #at = 0;
  #depth = 0;
  constructor(readonly source: string) {}

  /** `a|b|…` up to a `)` or the end: the first alternative's text. */
  alternatives(): string {
    const first = this.#sequence();
    while (this.source[this.#at] === "|") {
      this.#at++;
      this.#sequence();
    }
    return first;
  }

  #sequence(): string {
    let out = "";
    while (this.#at < this.source.length) {
      const c = this.source[this.#at];
      if (c === "|" || c === ")") break;
      const atom = this.#atom();
      out += this.#repeat(atom);
      if (out.length > MAX_PATTERN_TEXT) throw new Unreadable("a text too long");
    }
    return out;
  }

  /** One atom's text once. */
  #atom(): string {
    const c = this.source[this.#at++];
    switch (c) {
      case "^":
      case "$":
        return "";
      case ".":
        return "a";
      case "(":
        return this.#group();
      case "[":
        return this.#class();
      case "\\":
        return this.#escape(false);
      case "*":
      case "+":
      case "?":
      case "{":
        if (c === "{" && !/^\d+(,\d*)?\}/.test(this.source.slice(this.#at))) return c;
        throw new Unreadable("a quantifier with nothing before it");
      default:
        return c;
    }
  }

  #group(): string {
    if (++this.#depth > MAX_PATTERN_DEPTH) throw new Unreadable("groups nested too deep");
    try {
      return this.#groupBody();
    } finally {
      this.#depth--;
    }
  }

  #groupBody(): string {
    const rest = this.source.slice(this.#at);
    const look = /^\?<?[=!]/.exec(rest);
    if (look) {
      // A lookaround adds nothing; whether it holds is what the final test checks.
      this.#at += look[0].length;
      this.alternatives();
      this.#expect(")");
      return "";
    }
    const named = /^\?(:|<[A-Za-z_$][\w$]*>)/.exec(rest);
    if (named) this.#at += named[0].length;
    const text = this.alternatives();
    this.#expect(")");
    return text;
  }

  #expect(c: string): void {
    if (this.source[this.#at] !== c) throw new Unreadable(`no "${c}"`);
    this.#at++;
  }

  /** `[…]`: its first character, or, negated, a common one the class accepts. */
  #class(): string {
    const open = this.#at - 1;
    const negated = this.source[this.#at] === "^";
    if (negated) this.#at++;
    let first: string | undefined;
    for (let n = 0; this.#at < this.source.length; n++) {
      const c = this.source[this.#at++];
      if (c === "]" && n > 0) break;
      const char = c === "\\" ? this.#escape(true) : c;
      first ??= char;
      if (this.#at >= this.source.length) throw new Unreadable("an unclosed class");
    }
    if (first === undefined) throw new Unreadable("an empty class");
    if (!negated) return first;
    const accepted = patternRegExp(this.source.slice(open, this.#at));
    const found = CANDIDATES.find((x) => accepted?.test(x));
    if (found === undefined) throw new Unreadable("a class refusing every candidate");
    return found;
  }

  /** The text of an escape whose `\` is read. */
  #escape(inClass: boolean): string {
    const c = this.source[this.#at++];
    if (c === undefined) throw new Unreadable("a trailing backslash");
    if (Object.hasOwn(CLASS_ESCAPES, c)) return CLASS_ESCAPES[c];
    if (c === "b" || c === "B") {
      if (inClass && c === "b") return "\b";
      return "";
    }
    if (/[1-9]/.test(c) || c === "k") throw new Unreadable("a backreference");
    if (c === "x") return this.#code(2);
    if (c === "u") return this.#unicode();
    if (c === "p" || c === "P") throw new Unreadable("a property escape");
    return c;
  }

  /** `\uXXXX` or `\u{…}`, its `\u` read. */
  #unicode(): string {
    if (this.source[this.#at] !== "{") return this.#code(4);
    const end = this.source.indexOf("}", this.#at);
    if (end < 0) throw new Unreadable("an unclosed \\u{");
    const code = parseInt(this.source.slice(this.#at + 1, end), 16);
    this.#at = end + 1;
    if (!Number.isFinite(code) || code > 0x10ffff) throw new Unreadable("a bad \\u{");
    return String.fromCodePoint(code);
  }

  #code(length: number): string {
    const hex = this.source.slice(this.#at, this.#at + length);
    if (!new RegExp(`^[0-9a-fA-F]{${length}}$`).test(hex)) throw new Unreadable("a bad escape");
    this.#at += length;
    return String.fromCharCode(parseInt(hex, 16));
  }

  /** The atom's text its least count of times (`+` once), the quantifier read. */
  #repeat(atom: string): string {
    const rest = this.source.slice(this.#at);
    const q = /^(?:([*?+])|\{(\d+)(?:,(\d*))?\})\??/.exec(rest);
    if (!q) return atom;
    this.#at += q[0].length;
    if (q[1] === "*" || q[1] === "?") return "";
    if (q[1] === "+") return atom;
    const least = Number(q[2]);
    if (least > 1_000 || atom.length * least > MAX_PATTERN_TEXT) {
      throw new Unreadable("a count too large");
    }
    return atom.repeat(least);
  }
}
