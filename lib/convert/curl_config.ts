/**
 * curl's config files (`-K`/`--config`, curl's `parseconfig`): a file's
 * lines read as the words of the options they hold, which
 * `curl_options.ts` reads where `-K` stood.
 *
 * @module
 */
import { SHORT, TAKES_VALUE } from "./curl_option_table.ts";

/**
 * The words of a curl config file (`-K`, curl's `parseconfig`): one option a
 * line, `--` optional before a long name, its value after blanks, `=` or `:`,
 * in `"…"` with `\\`, `\"`, `\t`, `\n`, `\r`, `\v` escapes or up to the next
 * blank; `#` lines are comments. Nothing is expanded.
 *
 * @example
 * ```ts
 * import { configWords } from "./curl_config.ts";
 * const w = configWords('# c\nurl = "https://a.test/x"\n-H "A: b"\nsilent\n');
 * if (JSON.stringify(w) !== JSON.stringify(["--url", "https://a.test/x", "-H", "A: b", "--silent"])) throw new Error(JSON.stringify(w));
 * ```
 */
export function configWords(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.replace(/^\ufeff/, "").split(/\r?\n/)) {
    const line = raw.trimStart();
    if (line === "" || line.startsWith("#")) continue;
    const m = /^([^\s=:]+)[\s=:]*(.*)$/.exec(line)!;
    const option = m[1].startsWith("-") ? m[1] : `--${m[1]}`;
    out.push(option);
    const takes = option.startsWith("--")
      ? TAKES_VALUE.has(option.slice(2))
      : option.length === 2 && TAKES_VALUE.has(SHORT[option[1]] ?? "");
    if (!takes || m[2] === "") continue;
    out.push(m[2].startsWith('"') ? configQuoted(m[2]) : m[2].split(/\s/)[0]);
  }
  return out;
}

/** A `"…"` config value, its escapes read. */
function configQuoted(text: string): string {
  const escapes: Record<string, string> = { t: "\t", n: "\n", r: "\r", v: "\v" };
  let out = "";
  for (let k = 1; k < text.length; k++) {
    const ch = text[k];
    if (ch === '"') break;
    if (ch === "\\" && k + 1 < text.length) out += escapes[text[++k]] ?? text[k];
    else out += ch;
  }
  return out;
}
