/**
 * A request as a `curl` command to paste into a POSIX shell: method, URL,
 * headers and body, each one shell word whatever it holds; each secret the
 * run knows by name written as a `"$NAME"` reference instead of its value,
 * and every other secret masked before the text is quoted (quoting writes a
 * `'` as `'\''`, which hides the secret from a masker reading the quoted
 * text).
 *
 * @module
 */
import { MASK } from "../secrets/mod.ts";

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

/**
 * Characters no POSIX shell (nor bash or zsh) gives a meaning to anywhere in
 * a word; `=` not first, where zsh expands `=cmd` to a path.
 */
const PLAIN_WORD = /^[A-Za-z0-9_@%+:,./-][A-Za-z0-9_@%+=:,./-]*$/;

/**
 * A word as a POSIX shell reads it back exactly: as it is when it holds
 * only characters no shell expands, single-quoted (see
 * {@linkcode shellQuote}) otherwise.
 *
 * @example
 * ```ts
 * import { shellWord } from "./curl.ts";
 * if (shellWord("flows/a.yaml") !== "flows/a.yaml") throw new Error();
 * if (shellWord("GET'") !== `'GET'\\'''`) throw new Error(shellWord("GET'"));
 * if (shellWord("a\\b") !== `'a\\b'` || shellWord("") !== "''") throw new Error();
 * ```
 */
export function shellWord(word: string): string {
  return PLAIN_WORD.test(word) ? word : shellQuote(word);
}

/** A name `"$NAME"` expands in every POSIX shell (not `my-token`: that is `$my`, then `-token`). */
const SHELL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * What a curl command is made of (a step result's `request`).
 *
 * @example
 * ```ts
 * import { curlCommand, type CurlRequest } from "./curl.ts";
 * const request: CurlRequest = { method: "GET", url: "http://x.test/" };
 * if (curlCommand(request) !== "curl 'http://x.test/'") throw new Error(curlCommand(request));
 * ```
 */
export interface CurlRequest {
  /** The HTTP method. */
  method: string;
  /** The URL as sent. */
  url: string;
  /** Header names and values, in the order they are written. */
  headers?: Record<string, string>;
  /** The body as text; left out for a multipart body. */
  body?: string;
}

/**
 * The command. `names` maps secret values to the variables that hold them (a
 * value whose variable a shell cannot expand is masked instead); `mask`
 * masks the rest of each argument before it is quoted (a `Redactor`'s
 * `redact`: the text is as it is sent, so every encoding the masker knows is
 * found there).
 *
 * @example
 * ```ts
 * import { curlCommand } from "./curl.ts";
 * const cmd = curlCommand(
 *   { method: "POST", url: "http://x.test/a?b=1", headers: { authorization: "Bearer s3cr3t" }, body: "it's" },
 *   new Map([["s3cr3t", "API_TOKEN"]]),
 * );
 * if (cmd !== `curl -X POST 'http://x.test/a?b=1' -H 'authorization: Bearer '"$API_TOKEN" --data-raw 'it'\\''s'`) throw new Error(cmd);
 * const odd = curlCommand({ method: "GET'", url: "http://x.test/;touch$IFS.x;#" });
 * if (odd !== `curl -X 'GET'\\''' 'http://x.test/;touch$IFS.x;#'`) throw new Error(odd);
 * ```
 */
export function curlCommand(
  request: CurlRequest,
  names: ReadonlyMap<string, string> = new Map(),
  mask: (text: string) => string = (text) => text,
): string {
  const word = (text: string) => quote(text, names, mask);
  const words = ["curl"];
  if (request.method !== "GET" || request.body) words.push("-X", shellWord(mask(request.method)));
  // A URL that reads as an option (flowrun never sends one) is named as the URL.
  if (request.url.startsWith("-")) words.push("--url");
  words.push(word(request.url));
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    words.push("-H", word(`${name}: ${value}`));
  }
  const type = Object.entries(request.headers ?? {})
    .find(([name]) => name.toLowerCase() === "content-type")?.[1] ?? "";
  if (request.body && !type.startsWith("multipart/")) {
    words.push("--data-raw", word(request.body));
  }
  return words.join(" ");
}

/**
 * Single-quoted text, each known secret spliced in as a `"$NAME"` reference
 * (or masked, when a shell cannot expand its name) and the rest masked by
 * `mask` before it is quoted.
 */
function quote(
  text: string,
  names: ReadonlyMap<string, string>,
  mask: (text: string) => string,
): string {
  // Longest values first, so a secret that contains another is replaced whole.
  const secrets = [...names.keys()].filter((v) => v.length > 0 && text.includes(v))
    .sort((a, b) => b.length - a.length);
  if (secrets.length === 0) return shellQuote(mask(text));
  const pattern = new RegExp(
    secrets.map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"),
    "g",
  );
  let out = "";
  let plain = "";
  const flush = () => {
    if (plain !== "") out += shellQuote(mask(plain));
    plain = "";
  };
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    plain += text.slice(at, match.index);
    at = match.index + match[0].length;
    const name = names.get(match[0])!;
    if (!SHELL_NAME.test(name)) {
      plain += MASK;
      continue;
    }
    flush();
    out += `"$${name}"`;
  }
  plain += text.slice(at);
  flush();
  return out === "" ? "''" : out;
}
