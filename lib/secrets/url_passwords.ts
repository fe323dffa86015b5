/**
 * The password of a URL wherever it stands in a text: a redirect's
 * `Location: http://admin:<password>@host/…`, a `Link` header, a connection
 * string `postgres://app:<password>@db/app` in a JSON body. It is a
 * credential by what it is, as in a request's own URL, whoever made it.
 *
 * @module
 */
import { userinfoSecrets } from "./userinfo.ts";

/** What ends a URL in text: a space, a quote, `<>`, a `\`. */
const URL_END = /[\s"'<>\\]/g;
/** A scheme's characters, read back from its `://`. */
const SCHEME_CHAR = /[A-Za-z0-9+.-]/;
/** The longest scheme read back. */
const MAX_SCHEME = 32;
/** The longest URL read for a password, and how many URLs with an `@` one text has read. */
const MAX_URL = 2048;
const MAX_URLS = 256;

/**
 * Calls `register` with each form of the password of each URL in `text` that has one (`\/` read
 * as `/`, as JSON may write it). Read from each `://` by index, never by a pattern that backtracks
 * over a long run of letters, and bounded: a body of megabytes stays linear.
 *
 * @example
 * ```ts
 * import { urlPasswords } from "./url_passwords.ts";
 * const found: string[] = [];
 * urlPasswords('{"dsn": "postgres:\\/\\/app:Db7!pw_x9@db.test\\/app", "doc": "https://d.test/a@b"}', (v) => void found.push(v));
 * if (found.join() !== "Db7!pw_x9") throw new Error(found.join());
 * ```
 */
export function urlPasswords(text: string, register: (value: string) => void): void {
  if (!text.includes("@") || !text.includes("://")) return;
  const plain = text.includes("\\/") ? text.replaceAll("\\/", "/") : text;
  const end = following(plain, (from) => {
    URL_END.lastIndex = from;
    return URL_END.exec(plain)?.index ?? -1;
  });
  const user = following(plain, (from) => plain.indexOf("@", from));
  let budget = MAX_URLS;
  for (let at = plain.indexOf("://"); at !== -1 && budget > 0; at = plain.indexOf("://", at + 3)) {
    const start = schemeStart(plain, at);
    if (start === undefined || user(at) >= end(at)) continue;
    budget--;
    for (const form of userinfoSecrets(plain.slice(start, Math.min(end(at), at + MAX_URL)))) {
      register(form);
    }
  }
}

/**
 * Where `find(from)` next matches at or after `at` (the text's length when nowhere), for `at`
 * asked in increasing order: found once and kept until passed, so every ask is linear in all.
 */
function following(text: string, find: (from: number) => number): (at: number) => number {
  let next = -1;
  return (at) => {
    if (next < at) {
      const found = find(at);
      next = found === -1 ? text.length : found;
    }
    return next;
  };
}

/** Where the scheme before the `://` at `at` begins (a letter), or undefined when none does. */
function schemeStart(text: string, at: number): number | undefined {
  let start = at;
  while (start > 0 && at - start < MAX_SCHEME && SCHEME_CHAR.test(text[start - 1])) start--;
  return start < at && /[A-Za-z]/.test(text[start]) ? start : undefined;
}
