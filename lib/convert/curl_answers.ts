/**
 * What a command answered, when the docs print it right under the command:
 * a `# {…}` comment (etcd's gateway page prints each answer so, the token
 * its `/v3/auth/authenticate` handed out among them) or a transcript's
 * printed lines under a `$ ` prompt. A later command that sends a value the
 * answer handed out (that token, pasted into an `Authorization` header)
 * sends the docs' own value, dead on any other instance: with the answer as
 * the step's recorded one, the stages shared with `convert har` capture it
 * from that step at the path the answer holds it, as they do for a
 * recording. Only JSON is read (an object or a list, over one line or
 * several), and only the first answer under a command, before the next
 * command begins; a comment that is no JSON is a comment.
 *
 * @module
 */
import type { CurlRecord } from "./curl_request.ts";
import type { ShellCommand } from "./curl_shell.ts";
import { headRecords, pastedHeads } from "./curl_answer_head.ts";
import { parseAnnotatedJson } from "./annotated_json.ts";
import { reprintsJson } from "./curl_reprinted.ts";
import { laterSection } from "./curl_answer_section.ts";

/** An answer pasted into the text: the line it starts on (1-based) and its JSON. */
export interface PastedAnswer {
  line: number;
  json: unknown;
  text: string;
  /** Whether a condition introduces it ("If the token is not valid, an error is returned:"). */
  introduced?: boolean;
  /** Whether it follows `#=>` on a command's own line: that command's answer. */
  inline?: boolean;
}

/** A sentence opening with a condition and ending with a full stop. */
const OPENS_WITH_CONDITION = /^\s*(?:If|When|Whenever|Unless|Otherwise|In case)\b.*\.\s*$/;

/** A Markdown fence's line: ```` ``` ````, ```` ```json ````, `~~~`. */
const FENCE = /^\s*(?:`{3,}|~{3,})[\w+-]*\s*$/;

/** A condition a sentence sets: the answer under it is another case's, not the command's own. */
const CONDITION = /\b(?:if|when|whenever|unless|otherwise|in case)\b/i;

/**
 * Whether the nearest line above `at` with text is a sentence ending with a colon that sets a
 * condition, no command's. "CouchDB replies:" or "Response:" says what the command answered.
 * So does one sentence alone on its line that opens with the condition and ends with a full
 * stop: a key-value store's page writes "If the TTL has expired, the key will have been deleted,
 * and you will be returned a 100." above the error, while the read, run at once, answers the key.
 * A line telling what the command does first ("This will compare… If they are equal, …") keeps
 * the answer the command's.
 */
function introduced(lines: readonly string[], at: number): boolean {
  let i = at - 1;
  // Blank lines, and the fence that opens the answer's block (```` ```json ````), are no sentence.
  while (i >= 0 && (lines[i].trim() === "" || FENCE.test(lines[i]))) i--;
  const line = lines[i] ?? "";
  if (/\bcurl\b/.test(line)) return false;
  if (/^\s*[A-Z][a-z]*\b.*:\s*$/.test(line)) return CONDITION.test(line);
  return OPENS_WITH_CONDITION.test(line) && !/[.!?]\s+\S/.test(line.trim().slice(0, -1));
}

/** Most lines one pasted answer may span: a longer run is read as no answer. */
const MAX_LINES = 400;

/**
 * A `#` comment line's text, or `undefined` for a line that is none. A result written after an
 * arrow (`# => {…}`, `#=> {…}`, Ruby's habit; `// => {…}` once curl_slash_comments.ts made it
 * `# `) is the text after the arrow.
 */
const commentText = (line: string) => /^\s*#\s?(?:\s*=>\s?)?(.*)$/.exec(line)?.[1];

/**
 * The result written after `# =>` on a command's own line (`curl …/notes #=> {"id": 7}`), outside
 * its quotes; `undefined` when the line has none.
 */
function inlineResult(line: string): string | undefined {
  const at = /\s#\s*=>\s*(?=[[{])/.exec(line);
  if (!at || !/^\s*(?:\$\s+)?curl\s/.test(line)) return undefined;
  const before = line.slice(0, at.index);
  const quotes = (q: string) => before.split(q).length % 2 === 1;
  return quotes("'") && quotes('"') ? line.slice(at.index + at[0].length) : undefined;
}

/** The JSON the lines from `at` start, read line by line until it parses; its end line. */
function jsonFrom(
  lines: string[],
  at: number,
): { json: unknown; text: string; end: number } | undefined {
  let text = "";
  for (let i = at; i < lines.length && i < at + MAX_LINES; i++) {
    text += `${lines[i]}\n`;
    // As the docs annotate it (`// 2`, `...`), annotated_json.ts; not whole yet, the next line.
    const json = parseAnnotatedJson(text);
    if (json) return { json, text, end: i };
  }
  return undefined;
}

/**
 * The JSON answers the text prints: runs of `#` comment lines, and of
 * transcript lines (`printed`: the text with each printed line made blank,
 * from `withoutPrinted`), that start with `{` or `[` and parse as JSON.
 *
 * @example
 * ```ts
 * import { pastedAnswers } from "./curl_answers.ts";
 * const found = pastedAnswers('curl -X POST http://a.test/login\n# {"token":"t0k3n-a1"}\n', undefined);
 * if (found.length !== 1 || found[0].line !== 2) throw new Error(JSON.stringify(found));
 * if (pastedAnswers("# {not json\ncurl http://a.test/\n", undefined).length !== 0) throw new Error();
 * ```
 */
export function pastedAnswers(text: string, printed: string | undefined): PastedAnswer[] {
  const lines = text.split("\n");
  const shown = printed?.split("\n");
  // Each line as an answer's line: a comment's text, a printed line as printed; else none.
  const own = lines.map((line, i) =>
    shown && shown[i] === "" && line !== "" ? line : commentText(line) ?? inlineResult(line)
  );
  const found: PastedAnswer[] = [];
  for (let i = 0; i < own.length; i++) {
    if (!/^\s*[[{]/.test(own[i] ?? "")) continue;
    let run = i;
    while (run < own.length && own[run] !== undefined) run++;
    const read = jsonFrom(own.slice(i, run) as string[], 0);
    if (!read) continue;
    const inline = commentText(lines[i]) === undefined && !(shown && shown[i] === "");
    found.push({
      line: i + 1,
      json: read.json,
      text: read.text,
      introduced: introduced(lines, i),
      inline,
    });
    i += read.end;
  }
  return found;
}

/** A word that sends the output elsewhere: `>out.json`, `> /dev/null`, `1>`, `&>`, `-o`, `--output`. */
const isRedirect = (word: string) => /^(?:\d?>|&>|-o$|--output$|-[a-zA-Z]*o$)/.test(word);

/**
 * Gives each curl command's last record the first answer pasted under it:
 * after the command's first line, before the next curl command begins; none
 * to a command whose output went to a file, or to a pipe into a program
 * that prints something else (`commands` says which); none in a later
 * section of the page (`text`: the input and, when it differs, the text as
 * the shell reads it; curl_answer_section.ts).
 *
 * @example
 * ```ts
 * import { answerRecords } from "./curl_answers.ts";
 * const command = { words: ["curl"], line: 1, column: 1, notes: [] };
 * const record = { url: new URL("http://a.test/login"), hasJson: false, mimeType: "" };
 * // deno-lint-ignore no-explicit-any
 * answerRecords([command], [{ command, records: [{ record } as any] }], [{ line: 2, json: { token: "t" }, text: "" }]);
 * if (!record.hasJson) throw new Error();
 * ```
 */
export function answerRecords(
  commands: readonly ShellCommand[],
  built: readonly { command: ShellCommand; records: CurlRecord[] }[],
  answers: readonly PastedAnswer[],
  text?: { input: string; printed: string | undefined },
): void {
  const lines = text?.input.split("\n") ?? [];
  const shown = text?.printed?.split("\n");
  // A line of prose between (docs print "Response:") is no command whose answer this is.
  const starts = [...new Set(built.map((b) => b.command.line))].sort((a, b) => a - b);
  // What a command piped on (`| jq .args`) or sent to a file printed is no answer of its own;
  // a program that prints the same JSON again (`| json_pp`, `| jq .`) prints curl's (curl_reprinted.ts).
  const answered = new Set<ShellCommand>(
    commands.flatMap((c) => c.pipedFrom && !reprintsJson(c.words) ? c.pipedFrom : []),
  );
  for (const { command } of built) if (command.words.some(isRedirect)) answered.add(command);
  for (const answer of answers) {
    const start = starts.filter((line) => answer.inline ? line <= answer.line : line < answer.line)
      .at(-1);
    // The last command that begins on that line is the one whose answer this is.
    const owner = built.findLast((b) => b.command.line === start);
    const record = owner?.records.at(-1)?.record;
    if (!owner || !record || answered.has(owner.command)) continue;
    if (text && laterSection(lines, shown, [owner.command.line, answer.line])) continue;
    answered.add(owner.command);
    Object.assign(record, {
      hasJson: true,
      json: answer.json,
      responseText: answer.text,
      mimeType: "application/json",
      answerIntroduced: answer.introduced,
    });
  }
}

/**
 * What the docs print under each command, into its records: the JSON answer
 * and the head `curl -i` printed (`curl_answer_head.ts`). `printed` is the
 * text as the shell reads it (printed lines blank), when it differs.
 *
 * @example
 * ```ts
 * import { pastedIntoRecords } from "./curl_answers.ts";
 * const command = { words: ["curl"], line: 1, column: 1, notes: [] };
 * const record = { url: new URL("http://a.test/login"), hasJson: false, setCookies: [], raw: {} };
 * const input = 'curl http://a.test/login\n# HTTP/1.1 200 OK\n# Token: t\n# {"ok": true}\n';
 * // deno-lint-ignore no-explicit-any
 * pastedIntoRecords({ input, printed: undefined }, [command], [{ command, records: [{ record } as any] }]);
 * if (!record.hasJson || (record as { status?: number }).status !== 200) throw new Error();
 * ```
 */
export function pastedIntoRecords(
  text: { input: string; printed: string | undefined },
  commands: readonly ShellCommand[],
  built: readonly { command: ShellCommand; records: CurlRecord[] }[],
): void {
  answerRecords(commands, built, pastedAnswers(text.input, text.printed), text);
  headRecords(built, pastedHeads(text.input, text.printed));
}
