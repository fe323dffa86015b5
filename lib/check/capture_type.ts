/**
 * A capture's `as`: its value turned into the type a later request needs.
 * An id cut from a `Location` path or a header is text; a JSON body that
 * sends it as a number (`{"order_id": 1042}`) needs `as: number`, and a
 * numeric id compared with a header needs `as: string`; a count kept to
 * compare a later list with needs `as: length`.
 *
 * @module
 */
import type { CaptureType } from "../model/checks.ts";
import { tell, type Told, told } from "../model/told.ts";
import { htmlDecoded } from "../_util/html_references.ts";

/** A JSON number, as text (RFC 8259 §6), with blanks around it allowed. */
const JSON_NUMBER = /^\s*-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?\s*$/;

/** How a value is shown in a reason: short, quoted. */
function shown(value: unknown): string {
  const text = typeof value === "string" ? JSON.stringify(value) : String(JSON.stringify(value));
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/** What a value of the wrong type gives: the reason, and its words apart from the value it quotes. */
interface Refused {
  value?: undefined;
  why: string;
  said: Told;
}

/**
 * A refusal whose reason quotes the value: the value is the response's and is masked where
 * the reason is shown, the rest is flowrun's words (a short password `number` is no value of
 * `"ord_1" is not a number`).
 */
function refused(said: Told): Refused {
  return { why: tell(said), said };
}

/**
 * `value` as `as` says, or why it cannot be (a sentence without its final
 * period). A number written with more digits than a JavaScript number
 * holds exactly is refused rather than rounded: sent back, it would name
 * another resource.
 *
 * @example
 * ```ts
 * import { asType } from "./capture_type.ts";
 * if (asType("1042", "number").value !== 1042) throw new Error();
 * if (asType(7, "string").value !== "7") throw new Error();
 * if (asType("ord_1", "number").why !== '"ord_1" is not a number') throw new Error("not a number");
 * // The value it quotes apart from the words, to be masked where the reason is shown.
 * if (asType("ord_1", "number").said?.values[0] !== '"ord_1"') throw new Error();
 * if (asType("12345678901234567890", "number").why === undefined) throw new Error("not exact");
 * if (asType("ab1+\\\\", "json-string").value !== "ab1+\\") throw new Error("escapes undone");
 * if (asType("%2Aab12%2A+x", "url-decoded").value !== "*ab12* x") throw new Error("decoded");
 * if (asType("&lt;m.1&gt;", "html-decoded").value !== "<m.1>") throw new Error("read");
 * if (asType([1, 2], "length").value !== 2 || asType({ a: 1 }, "length").why === undefined) throw new Error();
 * ```
 */
export function asType(
  value: unknown,
  as: CaptureType,
): { value?: unknown; why?: undefined; said?: undefined } | Refused {
  if (as === "json-string") return unescaped(value);
  if (as === "url-decoded") return urlDecoded(value);
  if (as === "html-decoded") {
    return typeof value === "string"
      ? { value: htmlDecoded(value) }
      : refused(told`${shown(value)} is not text`);
  }
  if (as === "length") return lengthOf(value);
  if (as === "string") {
    if (typeof value === "string") return { value };
    if (typeof value === "number" || typeof value === "boolean") return { value: String(value) };
    return refused(told`${shown(value)} is not one value that can be text`);
  }
  if (typeof value === "number") return { value };
  if (typeof value !== "string" || !JSON_NUMBER.test(value)) {
    return refused(told`${shown(value)} is not a number`);
  }
  const number = Number(value);
  const digits = value.trim().replace(/^-/, "").replace(/[eE].*$/, "").replace(".", "")
    .replace(/^0+/, "");
  if (!Number.isFinite(number) || digits.length > 15) {
    return refused(
      told`${shown(value)} has more digits than a number holds exactly (keep it as text)`,
    );
  }
  return { value: number };
}

/**
 * A query value as a link wrote it, read as a server reads a query (`URLSearchParams`): `%2A` is
 * `*` and `+` a space. A `%` that starts no escape is refused, not guessed.
 */
function urlDecoded(value: unknown): { value?: unknown; why?: undefined } | Refused {
  if (typeof value !== "string") return refused(told`${shown(value)} is not text`);
  try {
    return { value: decodeURIComponent(value.replaceAll("+", " ")) };
  } catch {
    return refused(told`${shown(value)} is not percent-encoded text`);
  }
}

/**
 * The inside of a JSON or script string literal with its escapes undone
 * (`\\` is one backslash, `\/` a slash, `\u00e9` an é); a script's `\'` is a quote,
 * and so is a `"` a single-quoted literal holds as it is.
 */
function unescaped(value: unknown): { value?: unknown; why?: undefined } | Refused {
  if (typeof value !== "string") return refused(told`${shown(value)} is not text`);
  const json = value.replace(/\\([\s\S])|"/g, (m, c) => m === '"' ? '\\"' : c === "'" ? c : m);
  try {
    return { value: JSON.parse(`"${json}"`) };
  } catch {
    return refused(told`${shown(value)} is not the inside of a string literal`);
  }
}

/**
 * A list's count of elements or a text's length in UTF-16 units, as
 * JavaScript's `.length` gives them; any other value has none (`{}.length`
 * is `undefined`).
 */
function lengthOf(value: unknown): { value?: unknown; why?: undefined } | Refused {
  if (Array.isArray(value) || typeof value === "string") return { value: value.length };
  return refused(told`${shown(value)} is neither a list nor text`);
}
