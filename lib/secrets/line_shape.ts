/**
 * What an error shows of a `NAME=value` line it cannot read: never what
 * stands where a value goes, since nothing read from that line is known to
 * be secret yet.
 *
 * @module
 */
import { isOrdinaryWord } from "./public_parts.ts";

/**
 * A `NAME=value` line that cannot be read (of an `--env-file`, a `--var`), as its error shows
 * it: the words where a name goes (before `=`, else the first, after `export`) when they are
 * ordinary words, `***` for the rest.
 * Such a line holds the run's secrets and, unread, has taught the run none of them: a password
 * after `PASSWORD:` or a token pasted alone on a line would be printed in clear.
 *
 * @example
 * ```ts
 * import { lineShape } from "./line_shape.ts";
 * if (lineShape("PASSWORD: hunter2") !== "PASSWORD: ***") throw new Error();
 * if (lineShape("PASSWORD hunter:2") !== "PASSWORD ***") throw new Error();
 * if (lineShape("export API_TOKEN tok_9f8e") !== "export API_TOKEN ***") throw new Error();
 * if (lineShape("BASE URL=http://x") !== "BASE URL=***" || lineShape("tok_9f8e7d") !== "***") {
 *   throw new Error();
 * }
 * ```
 */
export function lineShape(line: string): string {
  // With "=", the name is all before it ("BASE URL" tells of the space); without, the first word
  // (a value with a colon or a space in it then never shows a piece).
  const named = /^(export\s+)?([^=]*?)(\s*=\s*)([^]*)$/.exec(line) ??
    /^(export\s+)?([^\s:]*)([\s:]*)([^]*)$/.exec(line)!;
  const [, exported = "", name, separator, value] = named;
  const words = name.split(/(\s+)/).map((w) => /^\s*$/.test(w) || isOrdinaryWord(w) ? w : "***");
  return exported + words.join("") + separator + (value === "" ? "" : "***");
}
