/**
 * The secrets of a `Set-Cookie` header, found by what each part is: a cookie's value is a
 * session's, and so is the cookie and the header whole, unless the value is plain data (a
 * preference `theme=dark`); the attributes (`Path=/`, `Expires=<date>`, `HttpOnly`) are the
 * protocol's. Registered whole with no more said, a header's 16-character pieces came from its
 * attributes too, and masked every other cookie's attributes (`theme=dark***`) and any text
 * with the same date (a `date` header of that second) in every report.
 *
 * @module
 */
import { isPlainValue } from "./plain_values.ts";

/** Receives a secret and the texts inside it that are not secret (the redactor's `add`). */
type Register = (value: string, shown?: readonly string[]) => void;

/**
 * Registers the values of the cookies a `Set-Cookie` header sets (lines joined with `, `, as a
 * `Headers` object joins them), and each such cookie and the header whole with their attributes
 * (and the cookie's name) as texts that are not secret; a cookie whose value is plain data is not
 * registered at all, and lines that set one are not registered whole.
 *
 * @example
 * ```ts
 * import { secretsInSetCookie } from "./set_cookie.ts";
 * const found: [string, readonly string[] | undefined][] = [];
 * secretsInSetCookie("lang=x9-Q; Path=/, sid=s-123456; Path=/; HttpOnly", (v, shown) => void found.push([v, shown]));
 * if (found[2][0] !== "s-123456" || found[3][0] !== "sid=s-123456; Path=/; HttpOnly") throw new Error();
 * if (found[3][1]?.join("") !== "sid=; Path=/; HttpOnly" || found[4][1]?.length !== 4) throw new Error();
 * // A preference set beside the session is data: the lines are not a secret whole.
 * found.length = 0;
 * secretsInSetCookie("theme=dark; Path=/, sid=s-123456; Path=/", (v, shown) => void found.push([v, shown]));
 * if (found.map(([v]) => v).join() !== "s-123456,sid=s-123456; Path=/") throw new Error();
 * ```
 */
export function secretsInSetCookie(header: string, register: Register): void {
  const attributes: string[] = [];
  let secret = false;
  let plain = false;
  // Set-Cookie lines joined with ", " split where a new name=value starts.
  for (const cookie of header.split(/,\s*(?=[^;=,\s]+=)/)) {
    const semi = cookie.indexOf(";");
    const own = semi === -1 ? [] : [cookie.slice(semi)];
    attributes.push(...own);
    const pair = semi === -1 ? cookie : cookie.slice(0, semi);
    // A cookie without `=` is all value (RFC 6265, 5.2).
    const value = pair.slice(pair.indexOf("=") + 1).trim();
    if (isPlainValue(value)) {
      plain = true;
      continue;
    }
    secret = true;
    register(value);
    // Its name is the server's word, shown like the attributes: read in any
    // case, a piece of it masked a header named for the same instance.
    const name = pair.includes("=") ? [pair.slice(0, pair.indexOf("=") + 1).trim()] : [];
    attributes.push(...name);
    register(cookie, [...name, ...own]);
  }
  // Lines that set a plain cookie too are no secret whole: masked whole, they hid the preference
  // beside the session (`theme=dark; Path=/`), which is data; each secret cookie still is.
  if (secret && !plain) register(header, attributes);
}

/**
 * Whether `value` stands in `Set-Cookie` lines only inside cookies' names (before the `=` of
 * each): a name is the server's word for its cookie, however random it looks, never a secret.
 *
 * @example
 * ```ts
 * import { inCookieNamesOnly } from "./set_cookie.ts";
 * const lines = ["CSRF-Token-QQEMV=vL3qZ7mXkP2nB9wR; Path=/"];
 * if (!inCookieNamesOnly("QQEMV", lines) || inCookieNamesOnly("vL3qZ7mXkP2nB9wR", lines)) {
 *   throw new Error();
 * }
 * if (inCookieNamesOnly("QQEMV", [...lines, "sid=QQEMV"]) || inCookieNamesOnly("", lines)) {
 *   throw new Error();
 * }
 * ```
 */
export function inCookieNamesOnly(value: unknown, lines: readonly string[]): boolean {
  if (typeof value !== "string" || value === "") return false;
  let named = false;
  for (const line of lines) {
    const eq = line.indexOf("=");
    const name = eq === -1 ? "" : line.slice(0, eq);
    if (line.slice(eq + 1).includes(value)) return false;
    named ||= name.includes(value);
  }
  return named;
}
