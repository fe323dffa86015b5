/**
 * The secrets of a `Cookie` header's text, cookie by cookie: a session a server issued beside
 * plain cookies (a preference `theme=dark`) is a secret, the plain ones are data. Read whole, a
 * response that echoes that header under a `cookie` key (httpbin's
 * `{"headers": {"Cookie": "session=…; theme=dark"}}`) was masked whole, `"Cookie": "***"`, in
 * every report, though only the session was the server's. A response's value is read so; a
 * request's header registers every value the flow itself sends (a typed session may be a word),
 * not the cookies the jar sends back: each was judged when its `Set-Cookie` arrived.
 *
 * @module
 */
import { isPlainValue } from "./plain_values.ts";
import { secretsInSetCookie } from "./set_cookie.ts";
import { writtenKey } from "./written_headers.ts";

/** Receives a secret and the texts inside it that are not secret (the redactor's `add`). */
type Register = (value: string, shown?: readonly string[]) => void;

/**
 * Registers a request's `Cookie` header: each cookie's value, and the header whole with the
 * cookies' names as texts that are not secret. A cookie the flow wrote beside its session
 * (`written`, see `flow_inputs.ts`) is its own text, and then the header is no secret whole.
 * A plain value is registered here (a session the user typed may be a word); a cookie the jar
 * sends back is not, when `written` holds it (`plusJarCookies`).
 *
 * @example
 * ```ts
 * import { secretsInCookieHeader } from "./cookie_header.ts";
 * const found: string[] = [];
 * secretsInCookieHeader("sid=s-Wq83Lz5d; theme=dark", (v) => void found.push(v), new Set(["cookie\0theme=dark"]));
 * if (found.join() !== "s-Wq83Lz5d") throw new Error(found.join());
 * found.length = 0;
 * secretsInCookieHeader("sid=letmein", (v) => void found.push(v));
 * if (found.join() !== "letmein,sid=letmein") throw new Error(found.join());
 * ```
 */
export function secretsInCookieHeader(
  header: string,
  register: Register,
  written?: ReadonlySet<string>,
): void {
  const names: string[] = [];
  let own = false;
  for (const cookie of header.split(";")) {
    const eq = cookie.indexOf("=");
    if (eq === -1) continue;
    names.push(cookie.slice(0, eq + 1).trim());
    // A cookie the flow wrote beside its session is its own text (`flow_inputs.ts`).
    if (written?.has(writtenKey("cookie", cookie.trim()))) own = true;
    else register(cookie.slice(eq + 1).trim());
  }
  // The names are the server's words, shown: read in any case, a piece of the whole
  // (`CSRF-Token-2EWQW`) masked a header named for the same instance (`x-csrf-token-2ewqw`).
  if (!own) register(header, names);
}

/**
 * `written` with each cookie of the jar's `Cookie` text (`jarCookies`) added: the jar holds only
 * cookies responses set, each judged when its `Set-Cookie` arrived (set_cookie.ts: a session
 * registered, a preference `theme=dark` not). Registered again when sent back, every plain one
 * was masked from then on (`theme=***`) in every report, the `Set-Cookie` that set it too.
 *
 * @example
 * ```ts
 * import { secretsInCookieHeader, plusJarCookies } from "./cookie_header.ts";
 * const found: string[] = [];
 * const written = plusJarCookies(undefined, "sid=s-Wq83Lz5d; theme=dark");
 * secretsInCookieHeader("sid=s-Wq83Lz5d; theme=dark", (v) => void found.push(v), written);
 * if (found.length !== 0) throw new Error(found.join());
 * if (plusJarCookies(undefined, undefined) !== undefined) throw new Error();
 * ```
 */
export function plusJarCookies(
  written: ReadonlySet<string> | undefined,
  jarCookies: string | undefined,
): ReadonlySet<string> | undefined {
  if (!jarCookies) return written;
  const judged = new Set(written);
  for (const cookie of jarCookies.split(";")) {
    if (cookie.includes("=")) judged.add(writtenKey("cookie", cookie.trim()));
  }
  return judged;
}

/** A cookie's name, as RFC 6265 allows it (a token), followed by its `=`. */
const PAIR = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+=/;
/** What a `Set-Cookie` line says beside its cookie: such text is no `Cookie` header. */
const ATTRIBUTE =
  /^(?:expires|max-age|domain|path|secure|httponly|samesite|partitioned|priority)(?:=|$)/i;

/**
 * The cookies' values of `text` when it is a `Cookie` header's text of two or more cookies
 * (`session=…; theme=dark`), as a server echoes the request's header; undefined for any other
 * text (a token, a single `name=value`, a `Set-Cookie` line's attributes).
 *
 * @example
 * ```ts
 * import { cookieValues } from "./cookie_header.ts";
 * if (cookieValues("session=s-Wq83Lz5d; theme=dark")?.join() !== "s-Wq83Lz5d,dark") throw new Error();
 * if (cookieValues("dGVzdA==") || cookieValues("sid=x; Path=/") || cookieValues("a b=1; c=2")) {
 *   throw new Error();
 * }
 * ```
 */
export function cookieValues(text: string): string[] | undefined {
  const pairs = text.split(";").map((pair) => pair.trim()).filter((pair) => pair !== "");
  if (pairs.length < 2) return undefined;
  if (!pairs.every((pair) => PAIR.test(pair) && !ATTRIBUTE.test(pair))) return undefined;
  return pairs.map((pair) => pair.slice(pair.indexOf("=") + 1));
}

/** Whether `text` is one `Set-Cookie` line: a cookie, then only attributes (`; Path=/`). */
function isSetCookieLine(text: string): boolean {
  const [first, ...rest] = text.split(";").map((part) => part.trim()).filter((p) => p !== "");
  return first !== undefined && PAIR.test(first) && !ATTRIBUTE.test(first) && rest.length > 0 &&
    rest.every((part) => ATTRIBUTE.test(part));
}

/**
 * `register` for the values under a secret-looking key of a response: one that is a `Cookie`
 * header's text, echoed (`"Cookie": "session=…; theme=dark"`), is registered cookie by cookie, as
 * the header is, its plain cookies (a preference beside the session) no secrets; one that is a
 * `Set-Cookie` line (`session=…; Path=/`) as that header is (`set_cookie.ts`: its name and
 * attributes shown, so their pieces mask nothing beside the session); any other value whole.
 *
 * @example
 * ```ts
 * import { byCookie } from "./cookie_header.ts";
 * const found: string[] = [];
 * const register = byCookie((v) => void found.push(v));
 * register("session=s-Wq83Lz5d; theme=dark");
 * register("tok-Lm52Qx98");
 * register("sid=s-Wq83Lz5d; Path=/");
 * if (found.join() !== "s-Wq83Lz5d,tok-Lm52Qx98,s-Wq83Lz5d,sid=s-Wq83Lz5d; Path=/,sid=s-Wq83Lz5d; Path=/") {
 *   throw new Error(found.join());
 * }
 * ```
 */
export function byCookie(register: Register): Register {
  return (value, shown) => {
    if (isSetCookieLine(value)) return secretsInSetCookie(value, register);
    const values = cookieValues(value);
    if (values === undefined) return register(value, shown);
    for (const one of values) if (!isPlainValue(one)) register(one);
  };
}
