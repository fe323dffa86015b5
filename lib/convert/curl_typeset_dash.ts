/**
 * A curl option a page's typesetting wrote with a typographic dash. A blog,
 * a wiki or a word processor turns `--data` into `–data` (an en dash) or
 * `—data` (an em dash), and `-X` into `–X`; curl takes such a word for a
 * URL (`Could not resolve host: xn--x-5gn`). The page meant the option: a
 * word that starts with one or two dashes of the typesetter's (hyphen,
 * en and em dash, minus sign) and goes on with a long option's name curl
 * has, or with short options it has, is read as that option, and a note
 * says so. Any other word is left as it is.
 *
 * @module
 */
import { QUIET, QUIET_SHORT, SHORT, TAKES_VALUE } from "./curl_option_table.ts";

/** One or two of the dashes a typesetter writes for `-` (U+2010 to U+2015, U+2212), then a letter. */
const TYPESET = /^[\u2010-\u2015\u2212]{1,2}(?=[A-Za-z])/;

/** Every long option name the tables know. */
const LONG = new Set([
  ...TAKES_VALUE,
  ...QUIET,
  ...Object.values(SHORT),
  ...Object.values(QUIET_SHORT),
]);

/** Whether `letters` are short options curl has: flags, or a first one taking the rest. */
function shortOptions(letters: string): boolean {
  const [first] = letters;
  if (SHORT[first] !== undefined && TAKES_VALUE.has(SHORT[first])) return true;
  return [...letters].every((l) => SHORT[l] !== undefined || QUIET_SHORT[l] !== undefined);
}

/**
 * The option `word` means when a typesetter's dash stands for curl's `-` or `--`, or
 * `undefined` when it is no such word.
 *
 * @example
 * ```ts
 * import { typesetOption } from "./curl_typeset_dash.ts";
 * if (typesetOption("\u2013data") !== "--data" || typesetOption("\u2014X") !== "-X") throw new Error();
 * if (typesetOption("\u2013sSL") !== "-sSL" || typesetOption("\u2013XPOST") !== "-XPOST") throw new Error();
 * if (typesetOption("\u2013 plain") !== undefined || typesetOption("-d") !== undefined) throw new Error();
 * ```
 */
export function typesetOption(word: string): string | undefined {
  const dashes = TYPESET.exec(word)?.[0];
  if (dashes === undefined) return undefined;
  const rest = word.slice(dashes.length);
  if (LONG.has(rest.split("=")[0])) return `--${rest}`;
  return shortOptions(rest) ? `-${rest}` : undefined;
}
