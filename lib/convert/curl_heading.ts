/**
 * A README's heading that names curl ("Curl commands:", "CURL usage:") is no
 * command: read as one it was a step to `http://commands/` that failed the
 * run before the docs' first command, and a base URL to set. It starts a
 * sentence (`Curl` or `CURL`, where the command is typed `curl`), holds only
 * plain words, and its last word ends with a colon: it introduces what
 * follows. An option, a URL, a host or a port makes it a command again.
 *
 * @module
 */

/** A plain word of a sentence: letters only, a colon allowed at its end. */
const WORD = /^[A-Za-z]+:?$/;

/**
 * Whether a command's words are a heading naming curl, not a command.
 *
 * @example
 * ```ts
 * import { isCurlHeading } from "./curl_heading.ts";
 * if (!isCurlHeading(["Curl", "commands:"])) throw new Error();
 * if (isCurlHeading(["curl", "localhost:"]) || isCurlHeading(["Curl", "-s", "a:"])) throw new Error();
 * ```
 */
export function isCurlHeading(words: readonly string[]): boolean {
  const [first, ...rest] = words;
  if (first === undefined || !/^C(url|URL)$/.test(first) || rest.length === 0) return false;
  return rest.every((w) => WORD.test(w)) && rest.at(-1)!.endsWith(":");
}
