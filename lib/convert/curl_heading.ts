/**
 * A line of prose that names curl is no command. A README's heading ("Curl
 * commands:", "CURL usage:") was a step to `http://commands/` that failed the
 * run before the docs' first command, and a base URL to set; a guide's
 * sentence whose subject is the program ("curl elaborates:", "curl tells us
 * it connected… if you aren't…") made each word a URL, and its apostrophe
 * opened a quote that swallowed the commands after it. After `curl` (any
 * case) such a line holds only plain words (letters, an apostrophe inside
 * one, a sentence's punctuation around them): two or more, one whose colon
 * introduces what follows, or one after a capitalised `Curl` (an Express tutorial's
 * "Curl commands" with no colon; lower case, `curl web` is a host). An option, a URL, a host, a port or a variable
 * makes it a command again, and so does `localhost`.
 *
 * @module
 */

/**
 * A plain word of a sentence: letters (`isn't`), maybe in brackets or quotes, punctuation after;
 * rST's `::` ending a paragraph that leads into a literal block ("… with::") is one.
 */
const WORD = /^[("“]?[A-Za-z]+(?:['’][A-Za-z]+)?[)"”]?(?:::|[.,:;!?])?[)"”]?$/;

/**
 * A sentence's word joined by `/` or `-` (`multipart/form-data`, `built-in`), taken only after a
 * capitalised `Curl`: after `curl` as typed, `api/v1` is a host and its path.
 */
const JOINED = /^[("“]?[A-Za-z]+(?:[-/][A-Za-z]+)+[)"”]?(?:::|[.,:;!?])?$/;

/** A word written as the host of a command: `curl localhost`, `curl localhost:`. */
const HOST_WORD = /^localhost:?$/i;

/**
 * Whether a command's words are a heading or a sentence naming curl, not a command.
 *
 * @example
 * ```ts
 * import { isCurlHeading } from "./curl_heading.ts";
 * if (!isCurlHeading(["Curl", "commands:"]) || !isCurlHeading(["curl", "elaborates:"])) throw new Error();
 * if (!isCurlHeading(["Curl", "commands"]) || isCurlHeading(["curl", "web"])) throw new Error();
 * if (!isCurlHeading(["curl", "tells", "us", "it", "connected."])) throw new Error();
 * if (isCurlHeading(["curl", "localhost:"]) || isCurlHeading(["Curl", "-s", "a:"])) throw new Error();
 * if (!isCurlHeading(["Curl", "can", "post", "multipart/form-data", "with::"])) throw new Error();
 * if (isCurlHeading(["curl", "api/v1", "now"])) throw new Error();
 * ```
 */
export function isCurlHeading(words: readonly string[]): boolean {
  const [first, ...rest] = words;
  if (first === undefined || !/^curl$/i.test(first) || rest.length === 0) return false;
  const plain = (w: string) => WORD.test(w) || (first !== "curl" && JOINED.test(w));
  if (!rest.every(plain) || rest.some((w) => HOST_WORD.test(w))) return false;
  // `Curl commands`, `CURL examples`: the program's name as a sentence starts, not as it is typed.
  return rest.length >= 2 || rest[0].endsWith(":") || first !== "curl";
}

/**
 * Whether a line outside any command is a sentence naming curl ("curl
 * doesn't follow redirects."): its words read as {@linkcode isCurlHeading}'s.
 *
 * @example
 * ```ts
 * import { isCurlSentence } from "./curl_heading.ts";
 * if (!isCurlSentence("curl doesn't follow redirects unless told so.")) throw new Error();
 * if (isCurlSentence("curl -d 'it''s' http://a.test/")) throw new Error();
 * ```
 */
export function isCurlSentence(line: string): boolean {
  return isCurlHeading(line.trim().split(/\s+/));
}
