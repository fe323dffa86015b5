/**
 * The text of `convert curl` as a user typed it, before the shell reads it:
 * what the docs print around commands that is no shell (prompts, comments
 * in other languages' marks, answers said in prose) and what bash itself
 * would do first (a `for` loop over written words).
 *
 * @module
 */
import { withoutContinuationPrompts } from "./curl_continuation_prompts.ts";
import { unrolledForLoops } from "./curl_for_loop.ts";
import { dollarPrompts } from "./curl_prompts.ts";
import { proseAnswers } from "./curl_prose_answers.ts";
import { slashComments } from "./curl_slash_comments.ts";

/**
 * The text as typed, line for line: `// =>` a comment (curl_slash_comments.ts),
 * `# You got {…}` an answer (curl_prose_answers.ts), `> curl …` after a prompt
 * as `$ curl …` (curl_prompts.ts), a `> ` on the lines a prompted command goes
 * on to bash's (curl_continuation_prompts.ts), a `for` loop over written words
 * one run per word (curl_for_loop.ts).
 *
 * @example
 * ```ts
 * import { typedText } from "./curl_typed_text.ts";
 * const typed = typedText("$ curl -d 'a=1' \\\n>   http://a.test/x\n");
 * if (typed !== "$ curl -d 'a=1' \\\n  http://a.test/x\n") throw new Error(typed);
 * if (typedText("> curl http://a.test/\n") !== "$ curl http://a.test/\n") throw new Error();
 * ```
 */
export function typedText(text: string): string {
  return unrolledForLoops(
    withoutContinuationPrompts(dollarPrompts(proseAnswers(slashComments(text)))),
  );
}
