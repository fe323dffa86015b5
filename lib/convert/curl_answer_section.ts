/**
 * Whether a JSON block the docs print below a command is in a later section
 * of the page, not what the command printed. Tutorials call a route, then set
 * up the next one: "Create a data bucket named `loginState` with the
 * following content:" and a block, "Set the response body to:" and another;
 * reference pages follow each command with the next command's heading,
 * description and `parameters::` block. Read as the command's answer, such a
 * block checked a rotate POST for a 4xx (an error body to configure) and had
 * a login send a password "captured" from a bucket. An answer follows its
 * command: a lead ("Expected response:"), or a guide's sentence about the
 * status and one about the body, may stand between, or a heading and a
 * lead (`### Response`, "Example:").
 *
 * @module
 */

/** A Markdown code fence's line (` ```json `, `~~~`). */
const FENCE = /^\s*(?:```|~~~)/;

/**
 * A paragraph of prose's first line: a capitalised word, maybe after a heading's `#`s, a quote's
 * `>` or emphasis (`**Note**`). A code sample's line starts otherwise (`import json`,
 * `connection = …`, `{`), and a list item's mark or an image (`![…]`) carries on the paragraph
 * above it.
 */
const PROSE_START = /^\s*(?:#{1,6}\s+|>\s*)?[*_`"“(\[]*[A-Z]/;

/** A head's line as pages print it outside a transcript: `Status: 201 Created`, `HTTP/1.1 200 OK`. */
const HEAD_LINE = /^\s*(?:HTTP\/\d|[A-Za-z][\w-]*:\s+\S)/;

/** A Markdown heading (`## Use case 2`): only outside a fence of a page that has fences. */
const ATX = /^\s{0,3}#{1,6}\s+\S/;

/** A setext or reStructuredText heading's underline (or overline): one mark, three times or more. */
const UNDERLINE = /^\s*([=\-~*^"+#])\1{2,}\s*$/;

/** An rST lead that introduces a literal block (`parameters::`, `response::`), whatever its case. */
const LITERAL_LEAD = /\S::\s*$/;

/** A line that starts a paragraph of prose: a sentence's start (no head's line), or an rST lead. */
const startsProse = (line: string) =>
  (PROSE_START.test(line) && !HEAD_LINE.test(line)) || LITERAL_LEAD.test(line);

/** A heading's line: Markdown's `#`s (in a page with fences), or a title over an underline. */
const isHeading = (lines: readonly string[], i: number, markdown: boolean) =>
  (markdown && ATX.test(lines[i])) || UNDERLINE.test(lines[i + 1] ?? "");

/**
 * The paragraphs of prose in lines `from` to `to` (0-based, `to` excluded): a heading is one of
 * its own (`## Use case 2`, a title over `=====`), and so is each paragraph that starts as a
 * sentence or an rST lead. Inside a fence is code, whatever its first word (a pasted
 * `Status: 201 Created`); the lines `shown` blank where the text is not are what the docs show
 * a command printed.
 */
function paragraphsIn(
  lines: readonly string[],
  shown: readonly string[] | undefined,
  from: number,
  to: number,
): number {
  const markdown = lines.some((line) => FENCE.test(line));
  let fenced = lines.slice(0, from).filter((line) => FENCE.test(line)).length % 2 === 1;
  let paragraphs = 0;
  let inside = false;
  for (let i = from; i < to; i++) {
    const line = lines[i];
    if (FENCE.test(line)) fenced = !fenced;
    const quiet = line.trim() === "" || FENCE.test(line) || UNDERLINE.test(line) ||
      (shown?.[i] === "" && line !== "");
    if (quiet || fenced) {
      inside = inside && !quiet;
      continue;
    }
    // A heading stands alone: the description under its underline is another paragraph.
    const heading = isHeading(lines, i, markdown);
    if (heading || (!inside && startsProse(line))) paragraphs++;
    inside = !heading;
  }
  return paragraphs;
}

/**
 * Whether the block at line `answer` belongs to a later section than the command starting at
 * line `command` (both 1-based): more than two paragraphs of prose stand between them, a heading
 * counted as one (a reference page's next command: its title, description and `parameters::`).
 *
 * @example
 * ```ts
 * import { laterSection } from "./curl_answer_section.ts";
 * const page = ["~~~sh", "curl http://a.test/x", "~~~", "", "## Next", "", "It lists.", "", "Set it up:", "", "{}"];
 * if (!laterSection(page, undefined, [2, 11])) throw new Error();
 * const answered = ["~~~sh", "curl http://a.test/x", "~~~", "", "### Response", "", "{}"];
 * if (laterSection(answered, undefined, [2, 7])) throw new Error();
 * ```
 */
export function laterSection(
  lines: readonly string[],
  shown: readonly string[] | undefined,
  [command, answer]: [number, number],
): boolean {
  let start = command - 1;
  // The command's own lines: the run it starts (its `\` lines, its fence's closing line).
  while (start < answer - 1 && (lines[start] ?? "").trim() !== "") start++;
  return paragraphsIn(lines, shown, start, answer - 1) > 2;
}
