/**
 * A refusal the docs announce in words, not in a pasted answer: "Reading it
 * again returns 404 because the key is gone:", `curl … # expect a 409 here`,
 * an error page's "**Returned Status Code: `404`**" over its example. With no
 * status pasted, the step checked below 400 and the documented refusal failed
 * the run; it checks the status the docs name now, and says so.
 *
 * Which command a sentence speaks of is read from where it stands: a comment
 * on the command's own lines or right above them, a sentence ending in a colon
 * right above it (it introduces it), and what follows a Markdown heading or
 * rule up to the command (the section's own example) are the command's; any
 * other sentence after a command, before the next one or a heading, tells
 * what that command did ("This returns 404."). A sentence counts when it
 * names one status from 400 to 599 beside a word of answering (returns,
 * responds, fails, error, status, code, expect…), sets no condition ("if",
 * "when": another case's) and does not hedge ("may", "can"); a command whose
 * sentences name two statuses keeps the below-400 check.
 *
 * A line inside a fenced code block is what a command printed or a file
 * holds, never a sentence, unless it is a `#` comment: a database's page
 * pastes `Code: 457. DB::Exception: …` under its command, its own error code,
 * and a configuration block's `<status>402</status>` sits in the section; each
 * made a step check a status no server answered. A failure said in words
 * alone, with no status ("For example, this won't work:", "The command above
 * results in an error:"), by the sentence right above the command, its
 * comment or a sentence after it, makes the step check a status of 400 or
 * more (`failureAnnounced`): the documented counterexample passes when the
 * server refuses it.
 *
 * @module
 */
import { successStatuses } from "./curl_announced_success.ts";
import type { OutcomeCommand } from "./curl_error_line.ts";

/** A word that says what the server answers. */
const ANSWERING =
  /\b(?:return(?:s|ed)?|respond(?:s|ed)?|repl(?:y|ies|ied)|answer(?:s|ed)?|fail(?:s|ed)?|errors?|status|code|gives?|gets?|expect(?:s|ed)?|yields?|receives?|refuse(?:s|d)?)\b/i;

/** A condition (another case's answer) or a hedge (what may happen). */
const NOT_THIS = /\b(?:if|when|whenever|unless|otherwise|in case|may|might|could|can)\b/i;

/**
 * Words that say the command does not work, naming no status: "this won't work", "does not
 * work", "results in an error", "returns an error", "is rejected". A bare "fails" is not enough:
 * "It fails on … paths" tells of other requests.
 */
const FAILS =
  /\b(?:(?:won't|will not|doesn't|does not|didn't|did not)\s+(?:work|succeed)|results? in an? (?:error|exception|failure)|(?:returns?|gives?|throws?|raises?) an? (?:error|exception)|(?:is|are|gets?|will be) (?:rejected|refused))\b/i;

/** A status from 400 to 599 written alone, never inside a port, path or longer number. */
const STATUS = /(?<![\w.:/-])([45]\d\d)(?![\w/]|\.\d)/g;

/** A Markdown heading's level (`## …`; never a shell comment's single `#`) or an HTML heading's. */
function headingLevel(line: string): number | undefined {
  const m = /^\s*(?:(#{2,6})\s|<h([1-6])\b)/i.exec(line);
  return m ? (m[1]?.length ?? Number(m[2])) : undefined;
}

/** A Markdown rule: `---`, `***`, `___`. */
const RULE = /^\s*(?:-{3,}|\*{3,}|_{3,})\s*$/;

/** Whether a line ends a command's part: a heading or a rule. */
const breaks = (line: string) => RULE.test(line) || headingLevel(line) !== undefined;

/** A line that is no sentence: blank, a fence, JSON, a head's line, curl's own error line. */
const NO_SENTENCE = /^\s*(?:$|```|~~~|[{}[\]"]|HTTP\/|curl: \(|\$ |> )/;

/** A line's text as a sentence, its comment mark and Markdown marks left out; `undefined` for none. */
function sentence(line: string): string | undefined {
  // A comment's text is read as a sentence: `# {"status": 404}` is an answer, `# HTTP/1.1 …` a head.
  const said = line.replace(/^\s*#\s?/, "");
  const text = said.replace(/[*_`]/g, "");
  return NO_SENTENCE.test(said) || NOT_THIS.test(text) ? undefined : text;
}

/** The statuses one line of prose announces. */
function announced(line: string): number[] {
  const text = sentence(line);
  if (text === undefined || !ANSWERING.test(text)) return [];
  return [...text.matchAll(STATUS)].map((m) => Number(m[1]));
}

/**
 * Whether one line of prose names a success status (200 to 399) as the command's answer; a line
 * naming a refusal too ("The first succeeds with `200 OK`. The second fails with `403`.") tells
 * of several requests.
 */
function announcesSuccess(line: string): boolean {
  const text = sentence(line);
  return text !== undefined && ANSWERING.test(text) && successStatuses(text).length > 0 &&
    announced(line).length === 0;
}

/** Whether one line of prose says, with no status, that the command fails. */
const failsInWords = (line: string) => FAILS.test(sentence(line) ?? "");

/**
 * Which lines (0-based) are a fenced code block's own, not sentences: every line between a
 * `` ``` `` or `~~~` fence and the one closing it, but a `#` comment.
 */
function codeLines(lines: readonly string[]): boolean[] {
  let open: string | undefined;
  return lines.map((line) => {
    const fence = /^\s*(`{3,}|~{3,})(.*)$/.exec(line);
    // A block closes on a fence of its own mark, as long or longer, with no language after it.
    const closes = open !== undefined && fence?.[1].startsWith(open) && fence[2].trim() === "";
    if (fence && (open === undefined || closes)) {
      open = open === undefined ? fence[1] : undefined;
      return false;
    }
    return open !== undefined && !/^\s*#/.test(line);
  });
}

/** A comment on a command's line after its words: `curl … # expect a 409 here`. */
function trailingComment(line: string): string | undefined {
  const m = /\s#\s(.*)$/.exec(line);
  if (!m) return undefined;
  const before = line.slice(0, m.index);
  // A `#` inside quotes is the command's own text.
  const odd = (q: string) => (before.split(q).length - 1) % 2 === 1;
  return odd("'") || odd('"') ? undefined : m[1];
}

/** The lines (0-based) of each command's own text: its first and those its `\` carries on. */
function ownEnd(lines: readonly string[], start: number): number {
  let end = start;
  while (end + 1 < lines.length && /\\\s*$/.test(lines[end])) end++;
  return end;
}

/** The lines before `to` that introduce the command there: a comment block or a `…:` sentence. */
function introduction(lines: readonly string[], from: number, to: number): number[] {
  let i = to - 1;
  if (i >= from && /^\s*#\s/.test(lines[i])) {
    const block: number[] = [];
    for (; i >= from && /^\s*#\s/.test(lines[i]); i--) block.push(i);
    return block;
  }
  while (i >= from && /^\s*(?:$|```|~~~)/.test(lines[i])) i--;
  if (i < from || !/:[*_`]*\s*$/.test(lines[i])) return [];
  const paragraph: number[] = [];
  for (; i >= from && lines[i].trim() !== "" && !/^\s*(?:```|~~~)/.test(lines[i]); i--) {
    paragraph.push(i);
  }
  return paragraph;
}

/**
 * The `…:` sentence's paragraph above the command at `to`, past blank lines, fences and the
 * comments right above it ("Storing it again is refused:", then `# expect a 409 here`).
 */
function colonIntroduction(lines: readonly string[], from: number, to: number): number[] {
  let i = to - 1;
  while (i >= from && /^\s*(?:$|```|~~~|#\s)/.test(lines[i])) i--;
  return i >= from && /:[*_`]*\s*$/.test(lines[i]) ? introduction(lines, from, i + 1) : [];
}

/**
 * The lines (0-based, from `from` up to `to`) that lead to the command at `to`: its section,
 * from the heading above it that its part starts with (walking up through headings of lower
 * levels, never past a rule, a sibling heading or a `##` one), else its introduction.
 */
function leadOf(lines: readonly string[], from: number, to: number): number[] {
  let start = -1;
  let level = 7;
  for (let i = to - 1; i >= from && !RULE.test(lines[i]); i--) {
    const h = headingLevel(lines[i]);
    if (h === undefined) continue;
    if (h >= level) break;
    [level, start] = [h, i];
    if (h <= 2) break;
  }
  return start >= 0 ? range(start + 1, to) : introduction(lines, from, to);
}

/**
 * Each command's sentences: the line numbers (0-based) that speak of it, by command (`own`), and
 * those of them near it (`near`: its introduction, its comments, what follows it), which alone
 * may say in words that it fails; a section's prose tells of more than one example.
 */
function sentencesOf(
  lines: readonly string[],
  starts: readonly number[],
): { own: number[][]; near: number[][] } {
  const own: number[][] = starts.map(() => []);
  const near: number[][] = starts.map(() => []);
  let after = -1; // The previous command's last own line.
  for (let k = 0; k <= starts.length; k++) {
    const to = k < starts.length ? starts[k] : lines.length;
    const lead = k < starts.length ? leadOf(lines, after + 1, to) : [];
    // The `…:` sentence above the next command's comments introduces that one, not this.
    const intro = k < starts.length ? colonIntroduction(lines, after + 1, to) : [];
    if (k > 0) {
      // What follows a command up to a heading, a rule or the next one's lead tells what it did.
      for (let i = after + 1; i < (lead[0] ?? to) && !breaks(lines[i]); i++) {
        own[k - 1].push(i);
        if (!intro.includes(i)) near[k - 1].push(i);
      }
    }
    if (k === starts.length) break;
    own[k].push(...lead);
    near[k].push(...new Set([...introduction(lines, after + 1, to), ...intro]));
    after = ownEnd(lines, starts[k]);
    const mine = range(starts[k], after + 1).map((i) => -1 - i);
    own[k].push(...mine);
    near[k].push(...mine);
  }
  return { own, near };
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

/**
 * Gives each command with no pasted status the one refusal its sentences
 * announce, into its last record, with a note; returns how many it gave one.
 *
 * @example
 * ```ts
 * import { announcedRefusals } from "./curl_announced.ts";
 * const record = { url: new URL("http://a.test/k"), setCookies: [] };
 * // deno-lint-ignore no-explicit-any
 * const built = [{ command: { words: ["curl"], line: 3, column: 1, notes: [] }, records: [{ record } as any], notes: [] }];
 * announcedRefusals("Reading it again returns 404 because it is gone:\n\ncurl http://a.test/k\n", built);
 * if ((record as { status?: number }).status !== 404) throw new Error();
 * ```
 */
export function announcedRefusals(text: string, built: OutcomeCommand[]): number {
  const lines = text.split("\n");
  const code = codeLines(lines);
  const starts = built.map((b) => b.command.line - 1);
  const { own, near } = sentencesOf(lines, starts);
  // A negative index is one of the command's own lines: only its comment speaks; a code block's
  // line is what a command printed or a file holds.
  const spoken = (i: number) =>
    i < 0 ? trailingComment(lines[-1 - i]) : code[i] ? undefined : lines[i];
  let count = 0;
  built.forEach((b, k) => {
    const record = b.records.at(-1)?.record;
    // `TOKEN=$(curl …); curl …` on one line: the sentences speak of the one run last.
    const later = built[k + 1]?.command.line === b.command.line;
    if (!record || record.status !== undefined || later) return;
    // A success the sentences also name ("On success … Status code: `200`") makes the refusal
    // another case's ("On failure … `404`"): the step keeps its below-400 check.
    if (own[k].some((i) => announcesSuccess(spoken(i) ?? ""))) return;
    const said = new Map<number, number>();
    for (const i of own[k]) {
      const line = spoken(i);
      for (const status of line === undefined ? [] : announced(line)) {
        if (!said.has(status)) said.set(status, i < 0 ? -i : i + 1);
      }
    }
    const fails = said.size === 0 ? near[k].find((i) => failsInWords(spoken(i) ?? "")) : undefined;
    if (said.size !== 1 && fails === undefined) return;
    count++;
    if (fails !== undefined) {
      record.failureAnnounced = true;
      const line = fails < 0 ? -fails : fails + 1;
      b.notes.push(
        `the docs say it fails (line ${line}): the step checks a status of 400 or more, as documented.`,
      );
      return;
    }
    const [[status, line]] = [...said];
    record.status = status;
    b.notes.push(
      `the docs say it is refused with ${status} (line ${line}): the step checks ${status}, as documented.`,
    );
  });
  return count;
}
