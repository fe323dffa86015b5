/**
 * A `for` loop over words the text writes, run as bash runs it. Docs fill a
 * server with `for i in 1 2 3; do curl -X PUT …/items/$i …; done`, or with
 * the body on a line of its own between `do` and `done`, or over `{1..5}`.
 * Read as shell, `for` and `do` were commands of their own: the curl was no
 * step, and a text with nothing else was refused. Each word is one run of
 * the body, its variable (`$i`, `${i}`) set to the word. A list with
 * anything bash would expand first (`$(…)`, `*`, `$LIST`, quotes), more
 * than 20 runs, or a body over more than one line keeps its reading.
 *
 * @module
 */

/** The most runs a loop is unrolled to: more is a load test, not an example. */
const MAX_RUNS = 20;

/** `for NAME in WORDS`, maybe after a `$ ` prompt, and what follows on the line. */
const FOR =
  /^([^\S\n]*(?:\$[^\S\n]+)?)for[^\S\n]+([A-Za-z_]\w*)[^\S\n]+in[^\S\n]+([^;\n]*?)[^\S\n]*(;.*|)$/;

/** `; do BODY; done` on the `for` line itself. */
const ONE_LINE = /^;[^\S\n]*do[^\S\n]+(.+?)[^\S\n]*;?[^\S\n]*done[^\S\n]*$/;

/**
 * The words a loop runs over, when the text writes each: plain words, or
 * one `{N..M}` range; `undefined` for anything bash would expand otherwise.
 */
function loopWords(list: string): string[] | undefined {
  const range = /^\{(\d+)\.\.(\d+)\}$/.exec(list.trim());
  const words = range
    ? Array.from(
      { length: Number(range[2]) - Number(range[1]) + 1 },
      (_, k) => String(Number(range[1]) + k),
    )
    : list.trim().split(/\s+/);
  const plain = words.every((w) => /^[\w.:@/+-]+$/.test(w));
  return plain && words.length > 0 && words.length <= MAX_RUNS ? words : undefined;
}

/** The body run once per word, on one line: `$NAME` and `${NAME}` set to the word. */
function runs(body: string, name: string, words: string[]): string {
  const use = new RegExp(`\\$\\{${name}\\}|\\$${name}(?!\\w)`, "g");
  return words.map((w) => body.replace(use, w)).join("; ");
}

/**
 * The text with each `for` loop over written words unrolled (line numbers
 * stay the input's: the runs stand on the body's line, the loop's own lines
 * left blank).
 *
 * @example
 * ```ts
 * import { unrolledForLoops } from "./curl_for_loop.ts";
 * const one = unrolledForLoops("for i in 1 2; do curl http://a.test/$i; done\n");
 * if (one !== "curl http://a.test/1; curl http://a.test/2\n") throw new Error(one);
 * const three = unrolledForLoops("for i in {1..2}; do\n  curl http://a.test/${i}\ndone\n");
 * if (three !== "\n  curl http://a.test/1;   curl http://a.test/2\n\n") throw new Error(three);
 * if (unrolledForLoops("for f in *.json; do curl -d @$f http://a.test/; done") !== "for f in *.json; do curl -d @$f http://a.test/; done") throw new Error();
 * ```
 */
export function unrolledForLoops(text: string): string {
  if (!/\bfor\b/.test(text)) return text;
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const loop = FOR.exec(lines[i]);
    const words = loop ? loopWords(loop[3]) : undefined;
    if (!loop || !words) continue;
    const [, prompt, name, , rest] = loop;
    const inline = ONE_LINE.exec(rest);
    if (inline) {
      lines[i] = prompt + runs(inline[1], name, words);
      continue;
    }
    i = unrolledBlock(lines, i, { name, words, rest });
  }
  return lines.join("\n");
}

/**
 * A loop whose body is the one line between `do` and `done` (`for …; do` or
 * `for …` over a line `do`): that line holds the runs, the loop's own lines
 * are blank. The index to go on from.
 */
function unrolledBlock(
  lines: string[],
  at: number,
  loop: { name: string; words: string[]; rest: string },
): number {
  const doHere = /^;[^\S\n]*do[^\S\n]*$/.test(loop.rest);
  if (!doHere && (loop.rest !== "" || !/^[^\S\n]*do[^\S\n]*$/.test(lines[at + 1] ?? ""))) return at;
  const body = doHere ? at + 1 : at + 2;
  if (body + 1 >= lines.length || !/^[^\S\n]*done[^\S\n]*;?[^\S\n]*$/.test(lines[body + 1])) {
    return at;
  }
  if (/\\\s*$/.test(lines[body])) return at;
  lines[body] = runs(lines[body], loop.name, loop.words);
  for (let k = at; k < body; k++) lines[k] = "";
  lines[body + 1] = "";
  return body + 1;
}
