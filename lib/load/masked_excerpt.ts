/**
 * A problem's quoted line with secrets masked, and where its caret goes: a
 * mask changes the line's length, so the caret's column in the shown line
 * moves with what was masked before it.
 *
 * @module
 */
import type { Problem } from "../model/errors.ts";

/**
 * `problem`'s excerpt masked by `mask`, and the `excerptStart` that keeps the caret on its
 * place: masked before and after the caret apart when that masks the same; else (a secret the
 * caret stands in, as YAML's caret on an invalid escape inside a password) masked whole, the
 * caret on the first character where the masked line differs from the line masked up to the
 * caret, which is where that secret's mask begins.
 *
 * @example
 * ```ts
 * import { maskedExcerpt } from "./masked_excerpt.ts";
 * const mask = (text: string) => text.replaceAll("Wq8!yz\\q", "***");
 * const line = 'body: {password: "Wq8!yz\\q"}';
 * const m = maskedExcerpt({ excerpt: line, column: 25 }, mask);
 * if (m.excerpt !== 'body: {password: "***"}' || 25 - m.excerptStart! !== 18) throw new Error(JSON.stringify(m));
 * const n = maskedExcerpt({ excerpt: 'a: Wq8!yz\\q, "b', column: 14 }, mask);
 * if (n.excerpt !== 'a: ***, "b' || 14 - n.excerptStart! !== 8) throw new Error(JSON.stringify(n));
 * ```
 */
export function maskedExcerpt(
  problem: Pick<Problem, "excerpt" | "excerptStart" | "column">,
  mask: (text: string) => string,
): Pick<Problem, "excerpt" | "excerptStart"> {
  const excerpt = problem.excerpt!;
  const start = problem.excerptStart;
  const whole = mask(excerpt);
  if (whole === excerpt) return { excerpt, excerptStart: start };
  const at = Math.max(0, problem.column - (start ?? 1));
  const before = mask(excerpt.slice(0, at));
  let caret = before.length;
  if (before + mask(excerpt.slice(at)) !== whole) {
    caret = 0;
    while (caret < before.length && before[caret] === whole[caret]) caret++;
  }
  return { excerpt: whole, excerptStart: caret === at ? start : problem.column - caret };
}
