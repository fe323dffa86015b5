/**
 * A request as a `curl` command to paste into a POSIX shell that sends what
 * flowrun sent: method, URL, headers and the body's bytes (see
 * `curl_body.ts`: a body that is not one line of text is written by
 * `printf … | curl … --data-binary @-`), each one shell word whatever it
 * holds; each secret the run knows by name written as a `"$NAME"` reference
 * instead of its value, and every other secret masked before the text is
 * quoted (quoting writes a `'` as `'\''`, which hides the secret from a
 * masker reading the quoted text). The line holds no control character, so
 * the console and every report show it as it is.
 *
 * @module
 */
import { bodyArgs, type Secrets, secretWord, type SentPart, shellQuote } from "./curl_body.ts";
import { multipartBody } from "./multipart_bytes.ts";

export { shellQuote };

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
  /** The body as text, as sent; for a file or multipart body, see `bytes` and `parts`. */
  body?: string;
  /** A body sent as bytes (`body_file`), instead of `body`. */
  bytes?: Uint8Array;
  /** A multipart body's parts, instead of `body`. */
  parts?: readonly SentPart[];
  /** How the request reached its server, when not the default way. */
  via?: CurlVia;
}

/**
 * The transport a request went by: unchecked TLS, a proxy and the hosts
 * reached without it, and whether CA or client certificates were given
 * (their PEM text, which a command line cannot name).
 *
 * @example
 * ```ts
 * import { curlCommand, type CurlVia } from "./curl.ts";
 * const via: CurlVia = { insecure: true, proxy: "http://p.test:3128", noProxy: ["a.test"], certificates: true };
 * const line = curlCommand({ method: "GET", url: "https://x.test/", via });
 * if (line !== "curl --insecure --proxy http://p.test:3128 --noproxy a.test 'https://x.test/' # and the run's CA or client certificates (--cacert, --cert, --key)") throw new Error(line);
 * ```
 */
export interface CurlVia {
  insecure?: boolean;
  proxy?: string;
  noProxy?: readonly string[];
  certificates?: boolean;
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
 * if (cmd !== `curl -X POST 'http://x.test/a?b=1' -H 'authorization: Bearer '"$API_TOKEN" -H 'content-type: text/plain;charset=UTF-8' --data-raw 'it'\\''s'`) throw new Error(cmd);
 * const lines = curlCommand({ method: "PUT", url: "http://x.test/", headers: { "content-type": "text/plain" }, body: "a\nb" });
 * if (lines !== `printf 'a\\nb' | curl -X PUT 'http://x.test/' -H 'content-type: text/plain' --data-binary @-`) throw new Error(lines);
 * if (curlCommand({ method: "HEAD", url: "http://x.test/" }) !== "curl --head 'http://x.test/'") throw new Error();
 * if (!curlCommand({ method: "GET", url: "http://x.test/", headers: { x: "" } }).endsWith(" -H 'x;'")) throw new Error();
 * const odd = curlCommand({ method: "GET'", url: "http://x.test/;touch$IFS.x;#" });
 * if (odd !== `curl -X 'GET'\\''' 'http://x.test/;touch$IFS.x;#'`) throw new Error(odd);
 * ```
 */
export function curlCommand(
  request: CurlRequest,
  names: ReadonlyMap<string, string> = new Map(),
  mask: (text: string) => string = (text) => text,
): string {
  const secrets: Secrets = { names, mask };
  const sent = sentBody(request);
  const body = sent && bodyArgs(sent.chunks, secrets);
  const words = body?.pipe ? [body.pipe, "|", "curl"] : ["curl"];
  words.push(...viaWords(request.via, secrets));
  words.push(...methodWords(request.method, body !== undefined, mask));
  // The URL parser drops tabs and line breaks from a URL before fetch sends it; curl would not.
  const url = request.url.replace(/[\t\n\r]/g, "");
  // curl reads `[]` and `{}` in a URL as a pattern of URLs to fetch; fetch sends them as they are.
  if (/[[\]{}]/.test(url)) words.push("--globoff");
  // A URL that reads as an option (flowrun never sends one) is named as the URL.
  if (url.startsWith("-")) words.push("--url");
  words.push(secretWord(url, secrets));
  const headers = Object.entries(request.headers ?? {});
  for (const [name, value] of headers) {
    // `-H 'name:'` tells curl to leave the header out; `name;` is how curl sends it empty.
    const header = /^[ \t]*$/.test(value) ? `${name};` : `${name}: ${value}`;
    words.push("-H", secretWord(header, secrets));
  }
  // Without a content type of the flow's, the runtime sends its own; curl would send another.
  if (sent && !headers.some(([name]) => name.toLowerCase() === "content-type")) {
    words.push("-H", shellQuote(sent.type ? `content-type: ${sent.type}` : "content-type:"));
  }
  if (body) words.push(...body.words);
  if (request.via?.certificates) {
    words.push("# and the run's CA or client certificates (--cacert, --cert, --key)");
  }
  return words.join(" ");
}

/** The words for a transport that is not the default one (a proxy's password masked or named). */
function viaWords(via: CurlVia | undefined, secrets: Secrets): string[] {
  const words: string[] = [];
  if (via?.insecure) words.push("--insecure");
  if (via?.proxy) words.push("--proxy", shellWord(secrets.mask(via.proxy)));
  if (via?.noProxy?.length) words.push("--noproxy", shellWord(via.noProxy.join(",")));
  return words;
}

/**
 * The body's chunks, and the content type the runtime sends with it when
 * the flow sets none (`""`: none, so curl's own is left out too).
 */
function sentBody(
  request: CurlRequest,
): { chunks: (string | Uint8Array)[]; type: string } | undefined {
  if (request.parts) return multipartBody(request.parts);
  if (request.bytes) return { chunks: [request.bytes], type: "" };
  if (request.body !== undefined) {
    return { chunks: [request.body], type: "text/plain;charset=UTF-8" };
  }
  return undefined;
}

/** The words that set the method. */
function methodWords(method: string, hasBody: boolean, mask: (text: string) => string): string[] {
  // With `-X HEAD` curl waits for the body a HEAD response announces but never sends.
  if (method === "HEAD" && !hasBody) return ["--head"];
  if (method === "GET" && !hasBody) return [];
  return ["-X", shellWord(mask(method))];
}
