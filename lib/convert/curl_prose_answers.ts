/**
 * Answers a comment's prose introduces. READMEs print what a command
 * answered after a few words instead of an arrow: `// You got {"id": 1}`,
 * `# returns {…}`, `# Output: {…}`, `# Response: 201 Created`. Read as prose,
 * a created id a later command sends back was sent as the docs' own, and a
 * stated status was never checked. Here such a comment is written as the
 * forms curl_answers.ts and curl_answer_head.ts read: JSON after `# => `
 * (the lead's words become blanks, so the JSON keeps its columns), a status
 * line as `# HTTP/1.1 NNN …`. Only what is clearly an answer counts: JSON
 * that parses (curl_answers.ts reads it, and leaves a comment that does not
 * parse as a comment), or a status line (`HTTP/2 204`, a code with its
 * standard reason, or a bare code after an arrow or a colon). A lead that
 * sets a condition or hedges ("if it is missing:", "may return") is another
 * case's, and prose that only describes ("returns the list") stays prose.
 *
 * @module
 */
import { codeOfReason } from "./reason_phrases.ts";
import { HeredocBodies } from "./curl_heredoc_bodies.ts";

/** Words of a lead that make what follows another case's, or no promise. */
const OTHER_CASE = /\b(?:if|when|whenever|unless|otherwise|case|may|might|can|could|error)\b/i;

/** A word of a lead: letters and apostrophes ("You", "got", "Here's"). */
const WORD = "[A-Za-z][A-Za-z']*";

/**
 * A comment's lead: up to five words and a colon or an arrow (`->`, `=>`,
 * `→`), or one to five words and a blank; then what it introduces.
 */
const LEAD = new RegExp(
  `^((?:(?:${WORD}\\s+){0,4}${WORD})?\\s*(?::|->|=>|→)\\s*|(?:${WORD}\\s+){1,5})(.*)$`,
);

/** A status line as a lead may end with: `HTTP/1.1 201 Created`, `201 Created`, a bare `201`. */
function statusOf(rest: string, marked: boolean): string | undefined {
  const line = rest.replace(/\.\s*$/, "").trim();
  const http = /^HTTP\/\d(?:\.\d)? ([1-5]\d\d)(?: [A-Za-z][A-Za-z -]*)?$/.exec(line);
  if (http) return line;
  const coded = /^([1-5]\d\d)(?: (.+))?$/.exec(line);
  if (!coded) return undefined;
  const [, code, reason] = coded;
  if (reason === undefined) return marked ? `HTTP/1.1 ${code}` : undefined;
  return codeOfReason(reason) === Number(code) ? `HTTP/1.1 ${code} ${reason}` : undefined;
}

/**
 * One comment's text rewritten as the answer its prose introduces, or
 * `undefined` when it introduces none. `text` is what follows `#`.
 */
function answerComment(text: string, own: boolean): string | undefined {
  const read = LEAD.exec(text.trim());
  if (!read) return undefined;
  const [, lead, rest] = read;
  if (OTHER_CASE.test(lead)) return undefined;
  const marked = /(?::|->|=>|→)\s*$/.test(lead);
  if (/^[[{]/.test(rest)) {
    // The lead's length in blanks: the JSON keeps its columns, lines after it stay aligned.
    const at = text.indexOf(rest);
    return `${text.slice(0, at - lead.length)}=>${" ".repeat(Math.max(lead.length - 2, 1))}${rest}`;
  }
  // A head is read from a comment line of its own (curl_answer_head.ts), never a command's.
  const status = own ? statusOf(rest, marked) : undefined;
  return status && ` ${status}`;
}

/**
 * The text with each comment that introduces an answer in prose written as
 * an answer: `# returns {…}` as `# =>      {…}`, `// Response: 201 Created`
 * (once curl_slash_comments.ts made it `# `) as `# HTTP/1.1 201 Created`; on
 * a curl command's line, after its `#`, JSON or a status (`# 204`,
 * `# => 201 Created`). Every other line, a here-document's included, as it is.
 *
 * @example
 * ```ts
 * import { proseAnswers } from "./curl_prose_answers.ts";
 * const text = 'curl http://a.test/x\n# You got {"id": 1}\n# returns 204 No Content\n';
 * const want = 'curl http://a.test/x\n# =>      {"id": 1}\n# HTTP/1.1 204 No Content\n';
 * if (proseAnswers(text) !== want) throw new Error(proseAnswers(text));
 * if (proseAnswers("# returns the list\n") !== "# returns the list\n") throw new Error();
 * if (proseAnswers('# if missing: {"e": 1}\n') !== '# if missing: {"e": 1}\n') throw new Error();
 * if (proseAnswers("curl -X DELETE http://a.test/x # 204\n") !== "curl -X DELETE http://a.test/x # HTTP/1.1 204\n") throw new Error();
 * const script = 'curl -d @- http://a.test/ <<EOF\n# returns {"a": 1}\nEOF\n';
 * if (proseAnswers(script) !== script) throw new Error();
 * ```
 */
export function proseAnswers(text: string): string {
  const bodies = new HeredocBodies(); // a here-document's lines are its text
  let carried = false; // whether the line above was a curl command's, ending with `\`
  return text.split("\n").map((line) => {
    if (bodies.holds(line)) return line;
    bodies.note(line);
    const comment = /^(\s*#)(.*)$/.exec(line);
    if (comment) {
      carried = false;
      const answer = answerComment(comment[2], true);
      return answer === undefined ? line : `${comment[1]}${answer}`;
    }
    // A curl command's line, or one its `\` carries on to: a comment at its end is the command's.
    const own = carried || /^\s*(?:\$\s+)?curl\s/.test(line);
    carried = own && /\\\s*$/.test(line);
    // `curl … # returns {…}`: after a blank, outside quotes (an even count of each before it).
    const at = own ? /\s#(?!\s*=>\s*[[{])(.*)$/.exec(line) : null;
    if (!at) return line;
    const before = line.slice(0, at.index);
    if (before.split("'").length % 2 === 0 || before.split('"').length % 2 === 0) return line;
    const answer = answerComment(at[1], false) ?? statusComment(at[1]);
    return answer === undefined ? line : `${before} #${answer}`;
  }).join("\n");
}

/**
 * The status a comment on a command's own line states (`# 204`,
 * `# => 201 Created`, `# returns 409 Conflict`, `# HTTP/1.1 404`) as
 * ` HTTP/1.1 NNN …`, which curl_answer_head.ts reads as that command's; a
 * code alone counts only as the whole comment, a number in prose
 * (`# 200 items max`, `# port 8080`) never.
 */
function statusComment(text: string): string | undefined {
  const led = answerComment(text, true);
  if (led !== undefined) return /^ HTTP\//.test(led) ? led : undefined;
  const status = statusOf(text, true);
  return status && ` ${status}`;
}
