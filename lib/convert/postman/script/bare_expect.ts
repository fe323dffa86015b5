/**
 * `pm.expect(x)` with no word after it (`pm.expect(pm.response.text("Not found"))`, a chain its
 * writer never finished): chai asserts nothing, so Newman passes the test whatever the answer,
 * unless working out `x` throws. Where `x` cannot throw (a literal, a variable, a value made now,
 * a part every response has: its body as text, status, time, headers) it is no check at all:
 * translated, with nothing to fail, as in Newman. Anything else (`json.a.b`, which throws where
 * `a` is missing and fails the test) stays a comment.
 *
 * @module
 */
import type { Cond, Sym } from "./sym.ts";

/** Response parts every answer has (eval.ts's names for them): reading one never throws. */
const ALWAYS_THERE = new Set(["$.body", "$.status", "$.duration_ms", "$.headers"]);

/**
 * The checks of `pm.expect(subject)` followed by `words` words that said none: none where there
 * is no word and working the subject out cannot throw, `undefined` (not translated) otherwise.
 *
 * @example
 * ```ts
 * import { assertsNothing } from "./bare_expect.ts";
 * if (assertsNothing({ k: "path", path: "$.body" })?.length !== 0) throw new Error();
 * if (assertsNothing({ k: "lit", value: "x" })?.length !== 0) throw new Error();
 * if (assertsNothing({ k: "path", path: "$.json.a.b" }) !== undefined) throw new Error();
 * if (assertsNothing({ k: "lit", value: "x" }, 2) !== undefined) throw new Error();
 * ```
 */
export function assertsNothing(subject: Sym, words = 0): Cond[] | undefined {
  if (words > 0) return undefined; // words that said nothing flowrun has: not understood
  const known = subject.k === "lit" || subject.k === "var" || subject.k === "gen";
  return known || (subject.k === "path" && ALWAYS_THERE.has(subject.path)) ? [] : undefined;
}
