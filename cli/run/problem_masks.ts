/**
 * A load problem quotes the flow file: the line it is on (`excerpt`), and a
 * message or hint may write that line or a value of it. That text is a value
 * the file wrote, so a secret the run knows is masked in it, a short one too
 * (a random password `Zq7#x!`, which the last pass over an output leaves to
 * spare flowrun's words). An ordinary word (`value`) stays, as in a request's
 * text the flow wrote: the file and flowrun's sentence both say it
 * (docs/secrets.md, "masked where it was substituted").
 *
 * @module
 */
import type { Problem } from "../../lib/model/errors.ts";
import type { Redactor } from "../../lib/secrets/redactor.ts";
import { maskedExcerpt } from "../../lib/load/masked_excerpt.ts";
import { maskedFolded } from "../../lib/secrets/folded_pieces.ts";

/**
 * `problems` with the secrets their quoted text holds masked by `redactor`
 * (its `shown` masking: every secret but ordinary words), and the pieces of
 * one of several words the file writes across lines (`folded_pieces.ts`); an
 * excerpt's caret stays on its column.
 *
 * @example
 * ```ts
 * import { maskedProblems } from "./problem_masks.ts";
 * import { Redactor } from "../../lib/secrets/redactor.ts";
 * const r = new Redactor();
 * [r.add("Zq7#x!"), r.add("value")];
 * const [p] = maskedProblems([{
 *   code: "yaml-syntax", message: "m", file: "f", line: 1, column: 20,
 *   excerpt: "url: /x?k=Zq7#x!&v=value: x", hint: 'Quote the value: url: "/x?k=Zq7#x!&v=value: x"',
 * }], r);
 * if (p.hint !== 'Quote the value: url: "/x?k=***&v=value: x"') throw new Error(p.hint);
 * if (p.excerpt !== "url: /x?k=***&v=value: x" || p.column - (p.excerptStart ?? 1) !== 16) {
 *   throw new Error(JSON.stringify(p));
 * }
 * ```
 */
export function maskedProblems(
  problems: readonly Problem[],
  redactor: Pick<Redactor, "shown" | "added">,
): Problem[] {
  // A secret of several words the file writes folded stands there in pieces, one a line.
  const spaced = redactor.added().map(([secret]) => secret).filter((s) => /\S\s+\S/.test(s));
  const mask = (text: string) => maskedFolded(redactor.shown(text), spaced);
  return problems.map((problem) => {
    const masked: Problem = { ...problem, message: mask(problem.message) };
    if (problem.hint !== undefined) masked.hint = mask(problem.hint);
    if (problem.excerpt === undefined) return masked;
    const { excerpt, excerptStart } = maskedExcerpt(problem, mask);
    return excerptStart === undefined
      ? { ...masked, excerpt }
      : { ...masked, excerpt, excerptStart };
  });
}
