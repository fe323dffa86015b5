/**
 * Where `convert curl`'s shell reader stands in the text it splits: the
 * index, line and column, and the error that names the place of an
 * unclosed quote.
 *
 * @module
 */
import { UsageError } from "../model/errors.ts";

/**
 * A quoting error: one message with the line and column of the opening quote.
 *
 * @example
 * ```ts
 * import { quoteError } from "./curl_cursor.ts";
 * const e = quoteError("Unterminated ' quote", 2, 7, "Close it with '.");
 * if (!e.message.includes("at line 2, column 7")) throw new Error(e.message);
 * ```
 */
export function quoteError(what: string, line: number, column: number, fix: string): UsageError {
  return new UsageError("bad-curl", `${what} at line ${line}, column ${column}.`, fix);
}

/**
 * A cursor over the text that counts lines and columns.
 *
 * @example
 * ```ts
 * import { Cursor } from "./curl_cursor.ts";
 * const cur = new Cursor("a\nbc");
 * cur.next();
 * cur.next();
 * if (cur.peek() !== "b" || cur.line !== 2 || cur.column !== 1) throw new Error();
 * if (cur.restOfLine() !== "bc" || !cur.done) throw new Error();
 * ```
 */
export class Cursor {
  i = 0;
  line = 1;
  column = 1;
  constructor(readonly text: string) {}
  get done(): boolean {
    return this.i >= this.text.length;
  }
  peek(ahead = 0): string {
    return this.text[this.i + ahead] ?? "";
  }
  /** The rest of the line, without its line break, and the cursor past both. */
  restOfLine(): string {
    const end = this.text.indexOf("\n", this.i);
    const stop = end === -1 ? this.text.length : end;
    const line = this.text.slice(this.i, stop);
    this.i = end === -1 ? stop : stop + 1;
    if (end === -1) this.column += line.length;
    else {
      this.line++;
      this.column = 1;
    }
    return line;
  }
  next(): string {
    const ch = this.text[this.i++];
    if (ch === "\n") {
      this.line++;
      this.column = 1;
    } else this.column++;
    return ch;
  }
}
