/**
 * A request as a `curl` command to paste into a shell: method, URL,
 * headers and body, each secret the run knows by name written as a
 * `"$NAME"` reference instead of its value (other secrets stay masked).
 *
 * @module
 */

/**
 * A word single-quoted for a POSIX shell, whatever it holds: each `'` becomes
 * `'\\''` (close the quotes, an escaped quote, reopen them).
 *
 * @example
 * ```ts
 * import { shellQuote } from "./curl.ts";
 * if (shellQuote("it's $HOME") !== `'it'\\''s $HOME'`) throw new Error(shellQuote("it's $HOME"));
 * if (shellQuote("") !== "''") throw new Error();
 * ```
 */
export function shellQuote(word: string): string {
  return `'${word.replaceAll("'", "'\\''")}'`;
}

/** What a curl command is made of (a step result's `request`). */
export interface CurlRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * The command; `names` maps secret values to the variables that hold them.
 *
 * @example
 * ```ts
 * import { curlCommand } from "./curl.ts";
 * const cmd = curlCommand(
 *   { method: "POST", url: "http://x.test/a?b=1", headers: { authorization: "Bearer s3cr3t" }, body: "it's" },
 *   new Map([["s3cr3t", "API_TOKEN"]]),
 * );
 * if (cmd !== `curl -X POST 'http://x.test/a?b=1' -H 'authorization: Bearer '"$API_TOKEN" --data-raw 'it'\\''s'`) throw new Error(cmd);
 * ```
 */
export function curlCommand(
  request: CurlRequest,
  names: ReadonlyMap<string, string> = new Map(),
): string {
  const words = ["curl"];
  if (request.method !== "GET" || request.body) words.push("-X", request.method);
  words.push(quote(request.url, names));
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    words.push("-H", quote(`${name}: ${value}`, names));
  }
  const type = Object.entries(request.headers ?? {})
    .find(([name]) => name.toLowerCase() === "content-type")?.[1] ?? "";
  if (request.body && !type.startsWith("multipart/")) {
    words.push("--data-raw", quote(request.body, names));
  }
  return words.join(" ");
}

/** Single-quoted text, with each known secret spliced in as a `"$NAME"` reference. */
function quote(text: string, names: ReadonlyMap<string, string>): string {
  // Longest values first, so a secret that contains another is replaced whole.
  const secrets = [...names.keys()].filter((v) => v.length > 0 && text.includes(v))
    .sort((a, b) => b.length - a.length);
  if (secrets.length === 0) return shellQuote(text);
  const pattern = new RegExp(
    secrets.map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"),
    "g",
  );
  let out = "";
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > at) out += shellQuote(text.slice(at, match.index));
    out += `"$${names.get(match[0])}"`;
    at = match.index + match[0].length;
  }
  if (at < text.length) out += shellQuote(text.slice(at));
  return out;
}
