/**
 * The scalars of the YAML fast path (`fast_yaml.ts`): plain values resolved
 * under the YAML 1.2 core schema, double-quoted escapes, and the one way the
 * fast path gives up (`giveUp`), handing the file to the full parser.
 *
 * @module
 */
import type { Scalar } from "yaml";
import { scalarNode } from "./nodes.ts";

/**
 * Thrown inside the fast path to hand the file to the full parser.
 *
 * @example
 * ```ts
 * import { GiveUp } from "./fast_yaml_scalars.ts";
 * if (!(new GiveUp() instanceof Error)) throw new Error();
 * ```
 */
export class GiveUp extends Error {}

/**
 * Hands the file to the full parser.
 *
 * @example
 * ```ts
 * import { GiveUp, giveUp } from "./fast_yaml_scalars.ts";
 * try {
 *   giveUp();
 * } catch (error) {
 *   if (!(error instanceof GiveUp)) throw error;
 * }
 * ```
 */
export const giveUp = (): never => {
  throw new GiveUp();
};

/**
 * Nesting the fast path takes on (the full parser has its own, larger limit).
 *
 * @example
 * ```ts
 * import { MAX_NESTING } from "./fast_yaml_scalars.ts";
 * if (MAX_NESTING !== 64) throw new Error();
 * ```
 */
export const MAX_NESTING = 64;

/**
 * Characters a plain scalar may not start with (some may, when no space follows).
 *
 * @example
 * ```ts
 * import { INDICATOR_START } from "./fast_yaml_scalars.ts";
 * if (!INDICATOR_START.test("&") || INDICATOR_START.test("a")) throw new Error();
 * ```
 */
export const INDICATOR_START = /[-?:,[\]{}#&*!|>'"%@`]/;
const INT = /^[-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
const ESCAPES: Record<string, string> = {
  "0": "\0",
  a: "\x07",
  b: "\b",
  t: "\t",
  n: "\n",
  v: "\v",
  f: "\f",
  r: "\r",
  e: "\x1b",
  " ": " ",
  '"': '"',
  "/": "/",
  "\\": "\\",
  N: "\u0085",
  _: "\u00a0",
  L: "\u2028",
  P: "\u2029",
};

/** What {@linkcode keyword} gives for text that is no keyword. */
const NOT_KEYWORD = Symbol("not a keyword");

/**
 * A plain scalar's value under the YAML 1.2 core schema, integers as BigInt
 * (as the loader asks).
 *
 * @example
 * ```ts
 * import { resolvePlain } from "./fast_yaml_scalars.ts";
 * if (resolvePlain("~") !== null || resolvePlain("True") !== true || resolvePlain("0x1f") !== 31n) throw new Error();
 * if (resolvePlain("-.inf") !== -Infinity || resolvePlain("1e3") !== 1000 || resolvePlain("yes") !== "yes") throw new Error();
 * ```
 */
export function resolvePlain(source: string): unknown {
  const word = keyword(source);
  if (word !== NOT_KEYWORD) return word;
  const c = source.charCodeAt(0);
  // Only text that starts like a number can be one.
  if (!(c >= 48 && c <= 57) && c !== 43 && c !== 45 && c !== 46) return source;
  return number(source);
}

/** The null or boolean a plain scalar spells, else {@linkcode NOT_KEYWORD}. */
function keyword(source: string): null | boolean | typeof NOT_KEYWORD {
  switch (source) {
    case "":
    case "~":
    case "null":
    case "Null":
    case "NULL":
      return null;
    case "true":
    case "True":
    case "TRUE":
      return true;
    case "false":
    case "False":
    case "FALSE":
      return false;
  }
  return NOT_KEYWORD;
}

/** The number a plain scalar that starts like one spells, else the text. */
function number(source: string): unknown {
  if (INT.test(source)) return BigInt(source[0] === "+" ? source.slice(1) : source);
  if (/^0o[0-7]+$/.test(source) || /^0x[0-9a-fA-F]+$/.test(source)) return BigInt(source);
  if (FLOAT.test(source)) return Number(source);
  if (/^[-+]?\.(?:inf|Inf|INF)$/.test(source)) {
    return source[0] === "-" ? -Infinity : Infinity;
  }
  if (/^\.(?:nan|NaN|NAN)$/.test(source)) return NaN;
  return source;
}

/**
 * A scalar node as the `yaml` package builds it; `range` is its start, end
 * and the end of what follows it on its line.
 *
 * @example
 * ```ts
 * import { scalar } from "./fast_yaml_scalars.ts";
 * const node = scalar("a", "PLAIN", "a", [3, 4, 5]);
 * if (node.value !== "a" || node.range?.join() !== "3,4,5") throw new Error();
 * ```
 */
export function scalar(value: unknown, type: Scalar.Type, source: string, range: number[]): Scalar {
  return scalarNode(own(value), type, source, range as [number, number, number]);
}

/**
 * A string that does not keep the file's text alive. V8 makes a slice of 13
 * characters or more a view into the whole text, so a loaded flow holding a
 * few such values held its file's text until the flow had run: a copy per
 * value is cheaper than that at thousands of flows.
 */
function own(value: unknown): unknown {
  return typeof value === "string" && value.length >= 13 ? (` ${value}`).slice(1) : value;
}

/**
 * A double-quoted scalar's escapes; one it does not know goes to the full
 * parser.
 *
 * @example
 * ```ts
 * import { unescape } from "./fast_yaml_scalars.ts";
 * if (unescape("a\\tb\\u00e9") !== "a\tbé") throw new Error();
 * ```
 */
export function unescape(body: string): string {
  if (!body.includes("\\")) return body;
  let out = "";
  for (let j = 0; j < body.length; j++) {
    const ch = body[j];
    if (ch !== "\\") {
      out += ch;
      continue;
    }
    const e = body[++j];
    if (e in ESCAPES) out += ESCAPES[e];
    else {
      const size = e === "x" ? 2 : e === "u" ? 4 : e === "U" ? 8 : 0;
      const hex = body.slice(j + 1, j + 1 + size);
      out += codePoint(hex, size);
      j += size;
    }
  }
  return out;
}

/** The character a `\x`, `\u` or `\U` escape names with `hex`, `size` digits long. */
function codePoint(hex: string, size: number): string {
  if (size === 0 || !/^[0-9a-fA-F]+$/.test(hex) || hex.length !== size) giveUp();
  const code = parseInt(hex, 16);
  if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) giveUp();
  return String.fromCodePoint(code);
}
