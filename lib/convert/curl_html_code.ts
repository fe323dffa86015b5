/**
 * Commands docs write inside HTML code blocks: Markdown pages that style
 * their commands with HTML (`<pre><code class="cmd bash">curl
 * localhost:2019/config/</code></pre>`, a `<span>` around the command and
 * its printed answer below it), and HTML pages. The tags stood on the
 * command's line, so no line started with `curl` and every command was
 * skipped as prose. Inside `<pre>…</pre>` the text is what a reader copies:
 * the tags are left out and character references read (`&lt;id&gt;` is
 * `<id>`, `&amp;` `&`); line breaks stay, so line numbers are the input's.
 * Text outside `<pre>` is left as written.
 *
 * @module
 */

/** Any start or end tag. */
const TAG = /<\/?[A-Za-z][^<>]*>/g;

/** Named character references a code block uses. */
const NAMED: Record<string, string> = {
  lt: "<",
  gt: ">",
  amp: "&",
  quot: '"',
  apos: "'",
  nbsp: " ",
};

/**
 * The text with each `<pre>` block's tags left out and its character
 * references read; text with no `<pre>` is returned as it is.
 *
 * @example
 * ```ts
 * import { htmlCodeText } from "./curl_html_code.ts";
 * const page = 'Export:\n\n<pre><code class="cmd bash">curl "http://localhost:2019/pki/ca/&lt;id&gt;"</code></pre>\n';
 * if (htmlCodeText(page) !== 'Export:\n\ncurl "http://localhost:2019/pki/ca/<id>"\n') throw new Error(htmlCodeText(page));
 * if (htmlCodeText("curl a.test <b>") !== "curl a.test <b>") throw new Error();
 * ```
 */
export function htmlCodeText(text: string): string {
  const lower = text.toLowerCase();
  let out = "";
  let at = 0;
  // One pass: each block's end is looked for once, from its start (no backtracking).
  for (let open = preAt(lower, 0); open !== -1; open = preAt(lower, at)) {
    const close = lower.indexOf("</pre", open);
    if (close === -1) break;
    const end = lower.indexOf(">", close);
    out += withoutLeadingTags(text.slice(at, open)) +
      decoded(text.slice(open, close).replace(TAG, ""));
    at = end === -1 ? text.length : end + 1;
  }
  return at === 0 ? text : out + text.slice(at);
}

/**
 * The text before a `<pre>`, less its last line's tags when that line holds nothing else
 * (`<div class="highlight">` and blanks): the block's first line is then its own.
 */
function withoutLeadingTags(before: string): string {
  const lineStart = before.lastIndexOf("\n") + 1;
  const head = before.slice(lineStart);
  return head.replace(TAG, "").trim() === "" ? before.slice(0, lineStart) : before;
}

/** Where the next `<pre>` start tag is (`<pre` then a blank or `>`), from `from`; -1 if none. */
function preAt(lower: string, from: number): number {
  for (let i = lower.indexOf("<pre", from); i !== -1; i = lower.indexOf("<pre", i + 4)) {
    if (/[\s>]/.test(lower[i + 4] ?? "")) return i;
  }
  return -1;
}

/** `&lt;`, `&#39;`, `&#x27;` and the others above as the characters they stand for. */
function decoded(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] !== "#") return Object.hasOwn(NAMED, ref) ? NAMED[ref] : whole;
    const code = ref[1] === "x" || ref[1] === "X"
      ? parseInt(ref.slice(2), 16)
      : Number(ref.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}
