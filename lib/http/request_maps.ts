/**
 * Headers and query parameters that come whole from one expression
 * (`headers: "${vars.headers}"`), checked when the request is made as a
 * written map is when the flow loads: a map of names to single values (a
 * list repeats a query parameter; `null` leaves a header out), header names
 * HTTP tokens and values one line of Latin-1; `null` for the whole map is
 * none. Anything else is an error of the step, nothing sent. Its message
 * quotes what the map holds (a name, a value) as values, masked where the
 * step shows it, and the rest is flowrun's words and the flow's expression,
 * which a short secret (`sent`, `token`) never masks.
 *
 * @module
 */
import { ExpressionError } from "../expr/errors.ts";
import { toText } from "../expr/template.ts";
import { around, joined, ownWords, type Told, told } from "../model/told.ts";
import { clipped } from "../_util/clip.ts";

/** An HTTP token: what a header name may be. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The headers an expression's value gives, in its order.
 *
 * @example
 * ```ts
 * import { headersFrom } from "./request_maps.ts";
 * const got = headersFrom({ "x-a": "1", "x-n": 2, "x-gone": null }, "${vars.h}");
 * if (JSON.stringify(got) !== '[["x-a","1"],["x-n","2"]]') throw new Error(JSON.stringify(got));
 * let threw = false;
 * try { headersFrom("x-a: 1", "${vars.h}"); } catch { threw = true; }
 * if (!threw) throw new Error();
 * ```
 */
export function headersFrom(value: unknown, source: string): [string, string][] {
  const seen = new Set<string>();
  const headers: [string, string][] = [];
  for (const [name, v] of entriesOf(value, source, "headers")) {
    if (v === null) continue;
    // The names and values are the map's (a var's, a capture's): values of the message.
    if (!TOKEN.test(name)) {
      fail(source, told`header name ${JSON.stringify(name)} is not an HTTP token`);
    }
    if (seen.has(name.toLowerCase())) fail(source, told`header "${name}" is given twice`);
    seen.add(name.toLowerCase());
    if (typeof v === "object") {
      fail(source, joined(told`header "${name}" is `, kind(v), ownWords(", not a single value")));
    }
    const text = toText(v);
    if (/[\r\n\0]/.test(text)) {
      fail(source, told`the value of header "${name}" holds a line break or NUL`);
    }
    if (/[\u0100-\u{10ffff}]/u.test(text)) {
      fail(source, told`the value of header "${name}" holds a character past Latin-1`);
    }
    headers.push([name, text]);
  }
  return headers;
}

/**
 * A header name an expression gives (`x-csrf-token-${steps.home.capture.device}`), checked as
 * a written name is when the flow loads: an HTTP token, else an error of the step.
 *
 * @example
 * ```ts
 * import { headerName } from "./request_maps.ts";
 * if (headerName("x-csrf-token-2EWQW", "x-csrf-token-${vars.d}") !== "x-csrf-token-2EWQW") {
 *   throw new Error();
 * }
 * let threw = false;
 * try { headerName("x token", "x ${vars.d}"); } catch { threw = true; }
 * if (!threw) throw new Error();
 * ```
 */
export function headerName(value: unknown, source: string): string {
  const name = toText(value);
  if (!TOKEN.test(name)) {
    // The name is what the expression gave: a value of the message.
    throw new ExpressionError(
      around(
        `The header name "${source}" gives `,
        told`${JSON.stringify(name)}`,
        ", which is not an HTTP token (letters, digits and !#$%&'*+.^_`|~-).",
      ),
    );
  }
  return name;
}

/**
 * The query parameters an expression's value gives: each a single value
 * or a list of them (the key repeated); `null` sends the key alone.
 *
 * @example
 * ```ts
 * import { queryFrom } from "./request_maps.ts";
 * const got = queryFrom({ tag: ["a", "b"], page: 2 }, "${vars.q}");
 * if (JSON.stringify(got) !== '[["tag",["a","b"]],["page",2]]') throw new Error(JSON.stringify(got));
 * ```
 */
export function queryFrom(value: unknown, source: string): [string, unknown][] {
  const entries = entriesOf(value, source, "query parameters");
  for (const [name, v] of entries) {
    const values = Array.isArray(v) ? v : [v];
    if (values.some((x) => x !== null && typeof x === "object")) {
      fail(
        source,
        joined(
          told`parameter "${name}" is `,
          kind(v),
          ownWords(": a parameter is a value or a list of values"),
        ),
      );
    }
  }
  return entries;
}

function entriesOf(value: unknown, source: string, what: string): [string, unknown][] {
  // A var left at a null default gives none: an included flow's optional headers.
  if (value === null || value === undefined) return [];
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new ExpressionError(
      joined(
        ownWords(`The ${what} "${source}" are `),
        kind(value),
        ownWords(", not a map of names to values."),
      ),
    );
  }
  return Object.entries(value);
}

/** What a value is, in flowrun's words, quoting a string or number as a value. */
function kind(value: unknown): Told {
  if (value === null) return ownWords("null");
  if (Array.isArray(value)) return ownWords("a list");
  if (typeof value === "object") return ownWords("a map");
  if (typeof value === "string") {
    // Cut before it is masked (where the step shows it): the `…` after the cut lets the redactor
    // mask a secret's beginning there, which it cannot tell from any text without it.
    const cut = clipped(value, 60);
    return told`the string ${JSON.stringify(cut)}`;
  }
  return around(`${typeof value} `, told`${String(value)}`, "");
}

function fail(source: string, why: Told): never {
  throw new ExpressionError(around(`The map "${source}" cannot be sent: `, why, "."));
}
