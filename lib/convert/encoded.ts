/**
 * Values sent inside an encoded value: JSON in a query parameter (a GraphQL
 * persisted-query GET's `variables=`), percent-encoded. One layer is
 * decoded, the ids inside correlated, and the text re-encoded around the
 * expressions, so the step sends the live values where the recording held
 * literal ones (which made the step pass while testing nothing).
 *
 * @module
 */
import { parseBody } from "./json.ts";

/** Marks an expression in the JSON text: private-use characters JSON never escapes. */
const OPEN = "\ue000", NUMBER = "\ue002", CLOSE = "\ue001";
const EXPRESSION = /^\$\{[^}]+\}$/;

/** How many layers of JSON inside a string of the JSON are read. */
const MAX_LAYERS = 3;

/** The JSON list or object a string holds, else undefined. */
function jsonIn(text: string): unknown {
  if (!/^\s*[[{]/.test(text) || text.length > 100_000) return undefined;
  try {
    const json = parseBody(text);
    return typeof json === "object" && json !== null ? json : undefined;
  } catch {
    return undefined;
  }
}

/** JSON text of `value`; a number's expression stands without quotes, so the live number is sent as a number. */
const marked = (value: unknown) =>
  JSON.stringify(value).replace(new RegExp(`"${NUMBER}(\\d+)${CLOSE}"`, "g"), `${OPEN}$1${CLOSE}`);

/**
 * The URL-encoded template of a JSON value sent in a query parameter, with
 * each leaf that `inner(key, leaf)` replaces by an expression written as that
 * expression (the runner percent-encodes what it inserts into a URL) and the
 * rest percent-encoded as recorded; `undefined` when the value is not a JSON
 * object or list, or nothing inside it is replaced. `literal` escapes text
 * for a template (`${` → `$${`); a string of the JSON that is a JSON list or
 * object itself (`["[1]"]`) is read a layer deeper (at most three), its
 * expressions written inside the string; `encode` encodes the recorded text around
 * the expressions (percent-encoding by default; none for a form field, whose
 * value the runner encodes as a whole).
 *
 * @example
 * ```ts
 * import { encodedJson } from "./encoded.ts";
 * const out = encodedJson('{"id":"lst_71c9e2","first":10}', (_k, v) =>
 *   v === "lst_71c9e2" ? "${steps.create.capture.list_id}" : undefined, (t) => t);
 * if (out !== "%7B%22id%22%3A%22${steps.create.capture.list_id}%22%2C%22first%22%3A10%7D") {
 *   throw new Error(out);
 * }
 * if (encodedJson("plain", () => "${x}", (t) => t) !== undefined) throw new Error();
 * const nested = encodedJson('["[1]"]', (_k, v) => v === 1 ? "${n}" : undefined, (t) => t);
 * if (nested !== "%5B%22%5B${n}%5D%22%5D") throw new Error(nested);
 * ```
 */
export function encodedJson(
  value: string,
  inner: (key: string, leaf: unknown) => string | undefined,
  literal: (text: string) => string,
  encode: (text: string) => string = encodeURIComponent,
): string | undefined {
  if (!/^\s*[[{]/.test(value) || value.length > 100_000) return undefined;
  let json: unknown;
  try {
    json = parseBody(value);
  } catch {
    return undefined;
  }
  const expressions: string[] = [];
  const replace = (v: unknown, key: string, depth: number): unknown => {
    if (Array.isArray(v)) return v.map((item) => replace(item, key, depth));
    if (typeof v === "object" && v !== null) {
      return Object.fromEntries(
        Object.entries(v).map(([k, item]) => [k, replace(item, k, depth)]),
      );
    }
    // JSON written as a string of the JSON (phpLiteAdmin's `pk=["[1]"]`): a layer deeper.
    const nested = typeof v === "string" && depth < MAX_LAYERS ? jsonIn(v) : undefined;
    if (nested !== undefined) {
      const before = expressions.length;
      const text = marked(replace(nested, key, depth + 1));
      return expressions.length > before ? text : v;
    }
    const template = inner(key, v);
    if (template === undefined || !EXPRESSION.test(template)) return v;
    expressions.push(template);
    return `${typeof v === "number" ? NUMBER : OPEN}${expressions.length - 1}${CLOSE}`;
  };
  const replaced = replace(json, "", 0);
  if (expressions.length === 0) return undefined;
  const text = marked(replaced);
  return text.split(new RegExp(`${OPEN}(\\d+)${CLOSE}`)).map((piece, i) =>
    i % 2 === 0 ? literal(encode(piece)) : expressions[Number(piece)]
  ).join("");
}
