/**
 * The pieces of a known secret that a flow file writes across lines. YAML
 * folds a value's lines into one with spaces between (`x-one: >-`, then its
 * words on the lines below; a plain or quoted value continued on the next
 * line), so a secret of several words (a passphrase) stands in the file only
 * in pieces, one a line, and a problem quoting one of those lines showed the
 * piece: the redactor finds a secret in a text, never a part of its words.
 *
 * @module
 */
import { MASK } from "./redactor.ts";
import { isOrdinaryWord } from "./public_parts.ts";
import { MIN_SECRET_LENGTH } from "./secret_index.ts";
import { escapeRegExp as escaped } from "../_util/regex_escape.ts";

/** More words than this are not tried: a secret is a passphrase of a few words, not prose. */
const MAX_WORDS = 24;

/** Where a folded value's piece may begin on its line: the line's start, a quote, a colon. */
const BEFORE = String.raw`(?<=^[ \t]*["']?|[ \t]["']?|:[ \t]*["']?)`;
/** Where it may end: a quote, the line's end, a key's colon, a flow's `,`/`}`/`]`. */
const AFTER = String.raw`(?=["']|[ \t]*$|[ \t]*[:,}\]])`;

/**
 * A pattern for each run of `secret`'s words that a line of a folded value
 * may hold, longest first: its beginning (a line's end), its end (a line's
 * start), and any run quoted or alone on a line. Empty for a secret of one
 * word (the redactor finds it whole).
 */
function runPatterns(secret: string): RegExp[] {
  const words = secret.trim().split(/\s+/);
  if (words.length < 2 || words.length > MAX_WORDS) return [];
  const runs: string[][] = [];
  for (let from = 0; from < words.length; from++) {
    for (let to = words.length; to > from; to--) {
      if (from === 0 && to === words.length) continue;
      const run = words.slice(from, to);
      const text = run.join(" ");
      // One ordinary word is the file's own text as much as the secret's (`name: correct`).
      if (text.length < MIN_SECRET_LENGTH || (run.length === 1 && isOrdinaryWord(text))) continue;
      runs.push(run);
    }
  }
  runs.sort((a, b) => b.join(" ").length - a.join(" ").length);
  return runs.map((run) =>
    new RegExp(`${BEFORE}${run.map(escaped).join(String.raw`\s+`)}${AFTER}`, "gm")
  );
}

/**
 * `text` with each piece of a secret of several words (of `secrets`) that
 * stands where a folded value's piece stands masked: ending a line with a run
 * of its words, beginning one, alone on a line or between quotes, bounded by
 * spaces, quotes, a key's colon or the line's ends. A run of one ordinary word
 * is not masked: the file writes such words itself.
 *
 * @example
 * ```ts
 * import { maskedFolded } from "./folded_pieces.ts";
 * const secrets = ["Zq7#x! k9!w"];
 * if (maskedFolded('x-three: "Zq7#x!', secrets) !== 'x-three: "***') throw new Error();
 * if (maskedFolded("          k9!w", secrets) !== "          ***") throw new Error();
 * if (maskedFolded('Indent "k9!w" 8 spaces', secrets) !== 'Indent "***" 8 spaces') throw new Error();
 * if (maskedFolded("ok9!wx", secrets) !== "ok9!wx") throw new Error();
 * ```
 */
export function maskedFolded(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const secret of secrets) {
    for (const pattern of runPatterns(secret)) out = out.replace(pattern, MASK);
  }
  return out;
}
