/**
 * curl's URL globbing, which runs unless `-g`: `{a,b}` is one URL per word,
 * `[1-3]`, `[01-10]` and `[a-c]` one per item of the range (`:step` after
 * it), several globs their product, in curl's order; `\[`, `\]`, `\{`, `\}`
 * are the characters themselves. Chrome escapes brackets this way in the
 * URLs it copies. A bounded number of URLs: past it, the rest are counted.
 *
 * @module
 */

/** Most URLs one glob expands into. */
export const MAX_GLOB_URLS = 100;

/** One part of a URL: text, or the first choices of one glob and how many it has. */
type Part = string | { choices: string[]; count: number };

/**
 * The URLs a URL stands for; `undefined` when its globs do not parse (curl
 * refuses such a URL too).
 *
 * @example
 * ```ts
 * import { expandGlob } from "./curl_glob.ts";
 * const urls = expandGlob("https://a.test/{x,y}/[08-10]?q=\\[\\]");
 * if (urls?.urls.join(" ") !== "https://a.test/x/08?q=[] https://a.test/x/09?q=[] https://a.test/x/10?q=[] https://a.test/y/08?q=[] https://a.test/y/09?q=[] https://a.test/y/10?q=[]") {
 *   throw new Error(urls?.urls.join(" "));
 * }
 * ```
 */
export function expandGlob(url: string): { urls: string[]; more: number } | undefined {
  const parts = globParts(url);
  if (!parts) return undefined;
  let urls = [""];
  let total = 1;
  for (const part of parts) {
    if (typeof part === "string") {
      urls = urls.map((u) => u + part);
      continue;
    }
    total *= part.count;
    urls = urls.flatMap((u) => part.choices.map((p) => u + p)).slice(0, MAX_GLOB_URLS);
  }
  return { urls, more: Math.max(0, total - urls.length) };
}

/** The URL as text and globs; `undefined` for an unclosed or malformed glob. */
function globParts(url: string): Part[] | undefined {
  const parts: Part[] = [];
  let text = "";
  for (let i = 0; i < url.length; i++) {
    const ch = url[i];
    if (ch === "\\" && /[[\]{}]/.test(url[i + 1] ?? "")) {
      text += url[++i];
    } else if (ch === "[" && /^[a-z][a-z0-9+.-]*:\/\/$/i.test(parts.length === 0 ? text : "")) {
      // An IPv6 host (`http://[::1]/`) is no range.
      const close = url.indexOf("]", i);
      if (close === -1) return undefined;
      text += url.slice(i, close + 1);
      i = close;
    } else if (ch === "{" || ch === "[") {
      const close = url.indexOf(ch === "{" ? "}" : "]", i);
      if (close === -1) return undefined;
      const glob = ch === "{" ? set(url.slice(i + 1, close)) : range(url.slice(i + 1, close));
      if (!glob) return undefined;
      parts.push(text, glob);
      text = "";
      i = close;
    } else text += ch;
  }
  parts.push(text);
  return parts;
}

/** `{a,b}`: its words. */
function set(spec: string): { choices: string[]; count: number } {
  const choices = spec.split(",");
  return { choices, count: choices.length };
}

/** `[1-3]`, `[01-10]`, `[a-z]`, with an optional `:step`; `undefined` otherwise. */
function range(spec: string): { choices: string[]; count: number } | undefined {
  const m = /^(?:(\d+)-(\d+)|([a-z])-([a-z])|([A-Z])-([A-Z]))(?::(\d+))?$/.exec(spec);
  if (!m) return undefined;
  const step = Number(m[7] ?? 1);
  if (step < 1) return undefined;
  const out: string[] = [];
  const numeric = m[1] !== undefined;
  const [from, to] = numeric
    ? [Number(m[1]), Number(m[2])]
    : [(m[3] ?? m[5]).charCodeAt(0), (m[4] ?? m[6]).charCodeAt(0)];
  if (to < from || !Number.isSafeInteger(to)) return undefined;
  // A leading zero pads every number to the first one's width, as curl does.
  const width = numeric && m[1].startsWith("0") ? m[1].length : 0;
  for (let n = from; n <= to && out.length < MAX_GLOB_URLS; n += step) {
    out.push(numeric ? String(n).padStart(width, "0") : String.fromCharCode(n));
  }
  return { choices: out, count: Math.floor((to - from) / step) + 1 };
}
