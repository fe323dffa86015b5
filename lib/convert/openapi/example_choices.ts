/**
 * An example that lists the choices a value has, not one value: a URL
 * shortener's link create writes `expire_in: "2 minutes/hours/days"`, the
 * form with its units side by side, and the server refused it as written
 * (400 "Expire format is invalid"); hand-written documents write a sort's
 * `asc|desc` or `name|key|createdAt` so. The value is one of the choices,
 * the first (`2 minutes`, `asc`). Words joined by `|` list choices; joined
 * by `/`, three at least do: two are as often one value (`image/png`,
 * `Europe/Paris`, `owner/repo`, `N/A`). Each choice after the first is a
 * bare word; the first may be led by other text (the `2 ` of `2 minutes`),
 * which the other choices share.
 *
 * @module
 */

/** A bare word: a choice after the first, and the end of the first. */
const WORD = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** Text before the first choice's word: a count or a word and a space (`2 minutes`). */
const LEAD = /^(?:[A-Za-z0-9_.-]+ )?[A-Za-z][A-Za-z0-9_-]*$/;

/**
 * The first choice an example lists (see the module), or undefined when it
 * lists none.
 *
 * @example
 * ```ts
 * import { firstChoice } from "./example_choices.ts";
 * if (firstChoice("2 minutes/hours/days") !== "2 minutes") throw new Error();
 * if (firstChoice("asc|desc") !== "asc") throw new Error();
 * if (firstChoice("Europe/Paris") !== undefined) throw new Error();
 * if (firstChoice("image/png") !== undefined) throw new Error();
 * if (firstChoice("/usr/local/bin") !== undefined) throw new Error();
 * if (firstChoice("a | b") !== undefined) throw new Error();
 * ```
 */
export function firstChoice(example: unknown): string | undefined {
  if (typeof example !== "string") return undefined;
  for (const [separator, least] of [["|", 2], ["/", 3]] as const) {
    const parts = example.split(separator);
    if (parts.length < least) continue;
    const [first, ...others] = parts;
    if (LEAD.test(first) && others.every((word) => WORD.test(word))) return first;
  }
  return undefined;
}
