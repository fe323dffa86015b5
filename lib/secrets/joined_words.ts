/**
 * A secret of several words (a passphrase) a server echoes with its spaces
 * dropped: a field that strips whitespace, a slug, a display that runs the
 * words together (`correcthorsebattery`, in any case: the lower-cased form is
 * read loosely, see `loose_view.ts`). Two words can run together into an
 * ordinary one (`pass word` is `password`, `some thing` is `something`), so
 * the joined words count where they are no ordinary word or are 16
 * characters or more, as long as any 16 characters of a secret count.
 *
 * @module
 */
import { isOrdinaryWord } from "./public_parts.ts";
import { PIECE, SHORT_SECRET } from "./secret_index.ts";

/**
 * The words of `flat` (whitespace already read as one space) joined with
 * nothing, as they are and lower-cased, where that is a secret of its own.
 *
 * @example
 * ```ts
 * import { joinedForms } from "./joined_words.ts";
 * const forms = joinedForms("Correct horse battery");
 * if (!forms.includes("Correcthorsebattery") || !forms.includes("correcthorsebattery")) throw new Error();
 * if (joinedForms("violet Kq7x")[0] !== "violetKq7x") throw new Error();
 * if (joinedForms("pass word").length !== 0 || joinedForms("token").length !== 0) throw new Error();
 * ```
 */
export function joinedForms(flat: string): string[] {
  const words = flat.trim().split(" ");
  const joined = words.join("");
  if (words.length < 2 || joined.length < SHORT_SECRET) return [];
  if (joined.length < PIECE && isOrdinaryWord(joined)) return [];
  return [...new Set([joined, joined.toLowerCase()])];
}
