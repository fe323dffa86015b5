/**
 * `tr SET1 SET2` and `tr -d SET` as GNU tr reads them, for the sets docs
 * write after an encoder (`| tr '+/' '-_' | tr -d '='`, `| tr -d '\n'`):
 * characters, ranges (`a-z`), the escapes `\n`, `\t`, `\r`, `\\`, and the
 * classes `[:upper:]`, `[:lower:]`, `[:digit:]`, `[:alpha:]`, `[:alnum:]`,
 * `[:space:]`. ASCII only; anything else (`-s`, `-c`, `[x*n]`) is not run.
 *
 * @module
 */

const CLASSES: Record<string, string> = {
  upper: "A-Z",
  lower: "a-z",
  digit: "0-9",
  alpha: "A-Za-z",
  alnum: "0-9A-Za-z",
  space: " \t\n\r\v\f",
};

const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\" };

/**
 * What `tr ARGS` writes reading `input`; `undefined` for what is not read here.
 *
 * @example
 * ```ts
 * import { translated } from "./curl_tr.ts";
 * const tr = (args: string[], text: string) =>
 *   new TextDecoder().decode(translated(args, new TextEncoder().encode(text)));
 * if (tr(["+/", "-_"], "a+b/") !== "a-b_" || tr(["-d", "=\\n"], "YQ==\n") !== "YQ") throw new Error();
 * if (tr(["[:upper:]", "[:lower:]"], "AbC") !== "abc") throw new Error();
 * if (translated(["-s", " "], new Uint8Array()) !== undefined) throw new Error();
 * ```
 */
export function translated(args: readonly string[], input: Uint8Array): Uint8Array | undefined {
  if (args.length !== 2) return undefined;
  if (args[0] === "-d") {
    const gone = charSet(args[1]);
    return gone && input.filter((b) => !gone.includes(b));
  }
  const from = charSet(args[0]);
  const to = charSet(args[1]);
  if (!from || !to || to.length === 0 || args[0].startsWith("-")) return undefined;
  const map = new Map<number, number>();
  // GNU tr repeats SET2's last character when SET1 is longer; the last mapping of a byte wins.
  from.forEach((b, i) => map.set(b, to[Math.min(i, to.length - 1)]));
  return input.map((b) => map.get(b) ?? b);
}

/** The bytes a set names, in order; `undefined` for a set not read here. */
function charSet(set: string): number[] | undefined {
  const expanded = set.replace(/\[:([a-z]+):\]/g, (m, name: string) => CLASSES[name] ?? m);
  if (/\[:|\[.\*|[^ -~\t\n\r\v\f]/.test(expanded)) return undefined;
  const chars: string[] = [];
  for (let i = 0; i < expanded.length; i++) {
    let ch = expanded[i];
    if (ch === "\\" && i + 1 < expanded.length) {
      ch = ESCAPES[expanded[++i]];
      if (ch === undefined) return undefined;
    }
    chars.push(ch);
  }
  const out: number[] = [];
  for (let i = 0; i < chars.length; i++) {
    if (chars[i + 1] === "-" && i + 2 < chars.length && set !== "-") {
      const [a, b] = [chars[i].charCodeAt(0), chars[i + 2].charCodeAt(0)];
      if (a > b) return undefined;
      for (let c = a; c <= b; c++) out.push(c);
      i += 2;
    } else out.push(chars[i].charCodeAt(0));
  }
  return out;
}
