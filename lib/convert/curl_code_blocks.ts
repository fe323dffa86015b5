/**
 * A page's code blocks in other languages. Docs show Lua, Python, Go or an
 * nginx configuration between their curl examples, and a comment there
 * ("-- Cap group's contribution", `// don't`) holds an apostrophe
 * that, read as shell, opened a quote never closed: a spam filter's
 * architecture page was refused whole. A Markdown fence (```` ```lua ````,
 * `~~~c`, ```` ``` js title="x" ````) or a reStructuredText directive
 * (`.. code-block:: lua`, `.. code:: python`, `.. sourcecode:: go`) that
 * names a programming or configuration language says what its lines are:
 * that language's code, neither a command nor what one printed. Its lines are
 * left out (blank: every other line keeps its number). A shell's block, an
 * unnamed one and a data format's (`json`, `text`, `http`, `xml`, `yaml`,
 * which may be an answer a command printed) are read as before. So is a
 * JavaScript or TypeScript block whose lines are a JSON value alone: Sphinx
 * pages highlight JSON so (an identity service's curl page prints every
 * example response under `.. code-block:: javascript`), and JSON is that
 * language's syntax too; left out, no command had its printed answer.
 *
 * @module
 */

import { parseAnnotatedJson } from "./annotated_json.ts";
import { HeredocBodies } from "./curl_heredoc_bodies.ts";

/**
 * Languages whose code is never typed at a shell prompt nor printed by curl: programming
 * languages, and configuration files a server reads (never a body a page shows sent).
 */
const OTHER_CODE = new Set([
  "lua",
  "python",
  "py",
  "python3",
  "javascript",
  "js",
  "jsx",
  "mjs",
  "typescript",
  "ts",
  "tsx",
  "go",
  "golang",
  "rust",
  "rs",
  "java",
  "kotlin",
  "kt",
  "scala",
  "groovy",
  "c",
  "h",
  "cpp",
  "c++",
  "cc",
  "csharp",
  "c#",
  "cs",
  "fsharp",
  "ruby",
  "rb",
  "php",
  "perl",
  "pl",
  "swift",
  "objc",
  "dart",
  "elixir",
  "erlang",
  "haskell",
  "clojure",
  "lisp",
  "scheme",
  "ocaml",
  "r",
  "julia",
  "sql",
  "plsql",
  "pgsql",
  "mysql",
  "vim",
  "zig",
  "nim",
  "crystal",
  "vb",
  "pascal",
  "nginx",
  "apache",
  "apacheconf",
  "ucl",
  "hcl",
  "terraform",
  "toml",
  "ini",
  "dockerfile",
  "makefile",
  "cmake",
  "caddyfile",
  "sieve",
  "lua5.1",
  "luajit",
  "proto",
  "protobuf",
]);

/** A Markdown fence's opening (up to three spaces, three or more of one mark) and its info. */
const FENCE = /^ {0,3}(`{3,}|~{3,})\s*\{?\.?([^\s`{}]*)/;

/** A reStructuredText code directive and its language. */
const RST_CODE = /^(\s*)\.\.\s+(?:code-block|code|sourcecode)::\s*(\S+)/;

/** Whether a fence's or directive's language names code of another language. */
const otherCode = (language: string) => OTHER_CODE.has(language.toLowerCase());

/**
 * The text with the lines of each code block in another language blank
 * (the fence's or directive's own line too), or the text as it is when it
 * has none. A fence inside a here-document is the body's.
 *
 * @example
 * ```ts
 * import { withoutOtherCode } from "./curl_code_blocks.ts";
 * const page = "curl http://a.test/a\n~~~lua\nx = 1 -- it's\n~~~\ncurl http://a.test/b\n";
 * if (withoutOtherCode(page) !== "curl http://a.test/a\n\n\n\ncurl http://a.test/b\n") throw new Error();
 * if (withoutOtherCode("~~~bash\ncurl http://a.test/\n~~~") !== "~~~bash\ncurl http://a.test/\n~~~") throw new Error();
 * ```
 */
export function withoutOtherCode(text: string): string {
  if (!/^ {0,3}(?:```|~~~)|^\s*\.\.\s+(?:code-block|code|sourcecode)::/m.test(text)) return text;
  const lines = text.split("\n");
  const bodies = new HeredocBodies();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (bodies.holds(line)) continue;
    const fence = FENCE.exec(line);
    if (fence) {
      const code = otherCode(fence[2]);
      const end = fenceEnd(lines, i, fence[1], !code);
      if (code && !jsonData(fence[2], lines.slice(i + 1, end))) blank(lines, i, end);
      i = end;
      continue;
    }
    const rst = RST_CODE.exec(line);
    if (rst && otherCode(rst[2])) {
      const last = directiveEnd(lines, i, rst[1].length);
      if (!jsonData(rst[2], lines.slice(i + 1, last + 1))) blank(lines, i, last);
      i = last;
    } else bodies.note(line);
  }
  return lines.join("\n");
}

/** An HTML `<script>` or `<style>` start tag opening a line (blanks first), and its name. */
const ELEMENT_START = /^\s*<(script|style)(?=[\s>])/i;

/**
 * The text with each `<script>` and `<style>` element of an HTML page blank, line for line: a
 * documentation theme's script ("Can't derive source file URL", "the project's bug tag") is
 * JavaScript, and its apostrophe, read as shell, refused a whole page of commands. Only an
 * element opened at a line's start: a command whose body holds `<script>` is still a command;
 * a start tag never closed is blank alone.
 *
 * @example
 * ```ts
 * import { withoutScripts } from "./curl_code_blocks.ts";
 * const page = "<script>\nvar a = \"can't\";\n</script>\ncurl http://a.test/\n";
 * if (withoutScripts(page) !== "\n\n\ncurl http://a.test/\n") throw new Error(withoutScripts(page));
 * if (withoutScripts("curl -d '<script>x</script>' http://a.test/") !== "curl -d '<script>x</script>' http://a.test/") throw new Error();
 * ```
 */
export function withoutScripts(text: string): string {
  if (!/<(?:script|style)/i.test(text)) return text;
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const name = ELEMENT_START.exec(lines[i])?.[1];
    if (name === undefined) continue;
    const closes = new RegExp(`</${name}\\s*>`, "i");
    let end = i;
    while (end < lines.length - 1 && !closes.test(lines[end])) end++;
    // A tag never closed (an embedding snippet shown in a page) is its own line alone.
    if (!closes.test(lines[end])) end = i;
    blank(lines, i, end);
    i = end;
  }
  return lines.join("\n");
}

/** Languages whose syntax JSON is, so that pages highlight JSON as theirs. */
const JSON_HOSTS = new Set(["javascript", "js", "jsx", "mjs", "typescript", "ts", "tsx"]);

/**
 * Whether a block in `language` holds a JSON value alone (an object or a list, annotated as pages
 * print answers: `...`, `// note`), its directive's options (`:linenos:`) aside: data, no code.
 */
function jsonData(language: string, body: readonly string[]): boolean {
  if (!JSON_HOSTS.has(language.toLowerCase())) return false;
  const text = body.filter((line) => !/^\s*:[\w-]+:/.test(line)).join("\n").trim();
  return /^[[{]/.test(text) && parseAnnotatedJson(text) !== undefined;
}

/** Lines `from` to `to` (both included, within the text) made blank: every line keeps its number. */
function blank(lines: string[], from: number, to: number): void {
  for (let k = from; k <= Math.min(to, lines.length - 1); k++) lines[k] = "";
}

/**
 * The closing line of the fence opened at `from` (the text's end when none closes it; a fence
 * never closed runs to the end, as Markdown reads it); inside a block read as shell
 * (`shell`), a here-document's lines are skipped so that a fence its body holds is the body's.
 */
function fenceEnd(lines: string[], from: number, mark: string, shell: boolean): number {
  const closes = new RegExp(`^ {0,3}${mark[0] === "`" ? "`" : "~"}{${mark.length},}\\s*$`);
  const bodies = new HeredocBodies();
  let i = from + 1;
  for (; i < lines.length; i++) {
    if (bodies.holds(lines[i])) continue;
    if (closes.test(lines[i])) break;
    if (shell) bodies.note(lines[i]);
  }
  return i;
}

/**
 * The last line a directive at `from` holds: its options, blank lines and the code indented past
 * the directive's own indent.
 */
function directiveEnd(lines: readonly string[], from: number, indent: number): number {
  let last = from;
  for (let i = from + 1; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === "") continue;
    if (/^\s*/.exec(line)![0].length <= indent) break;
    last = i;
  }
  return last;
}
