/**
 * Whose run curl's own error line shows. Troubleshooting pages paste
 * `curl: (7) Failed to connect … Connection refused` two ways: under the
 * command, or in the block of its own run ("Result:", a `$` prompt), it is
 * what the docs' run of that command printed; under a sentence that sets a
 * condition or hedges ("If it is NOT working:", "If your node is not running,
 * it will return something like:", "You may see:"), after the command and its
 * answer, it is another case's, and the command answers on a running server.
 * A line in another section (after a Markdown heading or rule: a page
 * explaining "Connection refused" after its examples) is no command's.
 *
 * So a line between the command's last line and the error line, outside a
 * code fence, that is a heading, a rule or such a sentence, takes the error
 * line from the command. Lines inside fences are the run's own output (a
 * verbose trace may say "failed"), never the page's words.
 *
 * @module
 */

/** A condition (another case's run) or a hedge (what may happen). */
const NOT_THIS = /\b(?:if|when|whenever|unless|otherwise|in case|may|might|could|can)\b/i;

/** A Markdown heading (`##`…, never a shell comment's single `#`), an HTML one, or a rule. */
const BREAK = /^\s*(?:#{2,6}\s|<h[1-6]\b|-{3,}\s*$|\*{3,}\s*$|_{3,}\s*$)/i;

/** A fence's line, indented or not (a list item's fence is). */
const FENCE = /^\s*(?:```|~~~)/;

/** A line no sentence is: blank, JSON, a head's line, curl's own error line, a prompt. */
const NO_SENTENCE = /^\s*(?:$|[{}[\]"]|HTTP\/|curl: \(|[$>] )/;

/**
 * For each line (0-based), the last line at or before it that takes an error
 * line below it from a command above it (-1 when none): one pass, so every
 * error line's question is answered in constant time.
 *
 * @example
 * ```ts
 * import { lastBreaks } from "./curl_error_owner.ts";
 * const lines = ["curl http://a.test/", "If it is down:", "curl: (7) Failed to connect"];
 * if (lastBreaks(lines).join() !== "-1,1,1") throw new Error();
 * ```
 */
export function lastBreaks(lines: readonly string[]): number[] {
  const last: number[] = [];
  let fenced = false;
  let at = -1;
  lines.forEach((line, i) => {
    if (FENCE.test(line)) fenced = !fenced;
    else if (!fenced && takesAway(line)) at = i;
    last.push(at);
  });
  return last;
}

/** Whether a line outside fences is a heading, a rule, or a sentence of another case. */
function takesAway(line: string): boolean {
  if (BREAK.test(line)) return true;
  // A comment's words are a sentence too: `# if the server is down you get:`.
  const said = line.replace(/^\s*#\s?/, "");
  if (NO_SENTENCE.test(said)) return false;
  return NOT_THIS.test(said.replace(/[*_`]/g, ""));
}
