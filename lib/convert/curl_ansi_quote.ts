/**
 * bash's `$'…'` quoting (ANSI-C escapes), which Chrome's "Copy as cURL
 * (bash)" writes for bodies with control characters, read for `convert curl`.
 *
 * @module
 */
import { type Cursor, quoteError } from "./curl_cursor.ts";
import { table } from "./table.ts";

const ANSI = table<string>({
  n: "\n",
  t: "\t",
  r: "\r",
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
});

/**
 * `$'…'` at the cursor (which stands on its `$`): C escapes, as bash reads
 * them; the cursor ends past the closing quote.
 *
 * @example
 * ```ts
 * import { ansiQuoted } from "./curl_ansi_quote.ts";
 * import { Cursor } from "./curl_cursor.ts";
 * const cur = new Cursor("$'a\\tb\\x41' rest");
 * if (ansiQuoted(cur) !== "a\tbA" || cur.peek() !== " ") throw new Error();
 * ```
 */
export function ansiQuoted(cur: Cursor): string {
  const { line, column } = cur;
  cur.next();
  cur.next();
  let out = "";
  for (;;) {
    if (cur.done) throw quoteError("Unterminated $'…' quote", line, column, "Close it with '.");
    const ch = cur.next();
    if (ch === "'") return out;
    if (ch !== "\\") {
      out += ch;
      continue;
    }
    const e = cur.next() ?? "";
    if (e in ANSI) out += ANSI[e];
    else if (e === "x") out += codeUnit(cur, 16, 2);
    else if (e === "u") out += codeUnit(cur, 16, 4);
    else if (e === "U") out += codeUnit(cur, 16, 8);
    else if (/[0-7]/.test(e)) out += String.fromCharCode(parseInt(e + digits(cur, 8, 2), 8) & 255);
    else if (e === "c") out += String.fromCharCode(cur.next().charCodeAt(0) & 31);
    else out += `\\${e}`;
  }
}

function digits(cur: Cursor, radix: number, most: number): string {
  let out = "";
  const ok = radix === 8 ? /[0-7]/ : /[0-9a-fA-F]/;
  while (out.length < most && ok.test(cur.peek())) out += cur.next();
  return out;
}

function codeUnit(cur: Cursor, radix: number, most: number): string {
  const d = digits(cur, radix, most);
  if (d === "") return most === 2 ? "\\x" : most === 4 ? "\\u" : "\\U";
  const n = parseInt(d, radix);
  // bash writes \xHH as that byte; Chrome only emits it for control characters.
  return n <= 0x10ffff ? String.fromCodePoint(n) : "\ufffd";
}
