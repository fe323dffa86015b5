/**
 * JSON as documentation prints it: an answer annotated for the reader. API
 * pages note a value's meaning after it (`"result": "0x2" // 2`, an Ethereum
 * node's JSON-RPC page), leave out what does not matter (`"stats": { ... }`,
 * `[...]`, `"created": …`) and keep the comma of a member they cut
 * (`"a": 1,\n}`). `JSON.parse` refuses each, and the converters took such an
 * answer for none: the values it handed out were never captured. Read here
 * with the notes dropped, an elided value `null`, an elided member or item
 * nothing, and a comma before a closing bracket dropped; strings are kept as
 * written, a `//` inside one included. Strict JSON parses as it always did.
 *
 * @module
 */

/** An elision: three dots or the ellipsis character, outside a string. */
const ELISION = /^(?:\.\.\.|…)/;

/**
 * The index just past a `//` or `/* … *\/` comment that starts at `i`, or -1
 * for none: a line comment ends before its line's `\n` (a `\r` before it is
 * the comment's), an unclosed block comment at the text's end.
 *
 * @example
 * ```ts
 * import { commentEnd } from "./annotated_json.ts";
 * if (commentEnd("1 // two\r\n3", 2) !== 9 || commentEnd("/* x *\/1", 0) !== 7) throw new Error();
 * if (commentEnd("1", 0) !== -1) throw new Error();
 * ```
 */
export function commentEnd(text: string, i: number): number {
  if (text.startsWith("//", i)) {
    const eol = text.indexOf("\n", i);
    return eol < 0 ? text.length : eol;
  }
  if (!text.startsWith("/*", i)) return -1;
  const close = text.indexOf("*/", i + 2);
  return close < 0 ? text.length : close + 2;
}

/**
 * The text without its notes and elisions, ready for `JSON.parse`: `//` and
 * `/* … *\/` comments dropped, `...` made `null` where a value stands and
 * nothing elsewhere, then each comma that follows an opening bracket or
 * another comma, or comes before a closing bracket, dropped.
 */
function cleaned(text: string): string {
  let out = "";
  let last = ""; // the last character kept that is no blank
  const keep = (kept: string, mark = kept) => {
    out += kept;
    if (!/^\s$/.test(mark)) last = mark;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    const skip = ch === '"' ? -1 : commentEnd(text, i);
    if (skip >= 0) i = skip - 1;
    else if (ch === '"') {
      const end = stringEnd(text, i);
      keep(text.slice(i, end), '"');
      i = end - 1;
    } else if (ELISION.test(text.slice(i, i + 3))) {
      if (last === ":") keep("null");
      i += ch === "…" ? 0 : 2;
    } else if (ch === ",") {
      if (last !== "[" && last !== "{" && last !== ",") keep(ch);
    } else {
      if ((ch === "]" || ch === "}") && last === ",") out = out.replace(/,(\s*)$/, "$1");
      keep(ch);
    }
  }
  return out;
}

/** The index just past the string that opens at `at` (its closing quote), or the text's end. */
function stringEnd(text: string, at: number): number {
  for (let i = at + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i + 1;
    else if (text[i] === "\n") return i;
  }
  return text.length;
}

/**
 * The object or list `text` prints, read as JSON first and, when that fails,
 * as documentation annotates it; `undefined` when it is neither, or is no
 * object or list.
 *
 * @example
 * ```ts
 * import { parseAnnotatedJson } from "./annotated_json.ts";
 * const json = parseAnnotatedJson('{\n  "result": "0x2", // 2\n  "stats": { ... },\n}\n');
 * if (JSON.stringify(json) !== '{"result":"0x2","stats":{}}') throw new Error(JSON.stringify(json));
 * const list = parseAnnotatedJson('["a // b", ..., "c"]');
 * if (JSON.stringify(list) !== '["a // b","c"]') throw new Error(JSON.stringify(list));
 * if (parseAnnotatedJson('{"created": ..., "id": 7}')?.constructor !== Object) throw new Error();
 * if (parseAnnotatedJson("{ echo hi; }") !== undefined) throw new Error();
 * ```
 */
export function parseAnnotatedJson(text: string): object | undefined {
  for (const read of [text, cleaned(text)]) {
    try {
      const json: unknown = JSON.parse(read);
      return typeof json === "object" && json !== null ? json : undefined;
    } catch {
      // Not JSON as written: read it as the docs annotate it, then give up.
    }
  }
  return undefined;
}
