/**
 * A cookie a page's script keeps the typed login in: RabbitMQ's management
 * UI stores base64 of `user:password`, percent-encoded twice, in its cookie
 * `m` and builds `Authorization: Basic …` from it for every API call; the
 * browser attaches the cookie to every request. No answer set it, so it
 * would be asked for as the session's cookie, which the user would have to
 * build from their password by hand. The evidence is the recording's own,
 * whatever the names: the cookie's value holds a Basic credential the
 * recording's `Authorization` header sent, which the step's `auth: basic`
 * sends already; so the cookie is left out, and the summary says so.
 *
 * @module
 */
import type { Correlator } from "./state.ts";

/** The cookies left out as a copy of the login, by name, and how many requests sent them. */
const copiesOf = new WeakMap<Correlator, Map<string, number>>();

/**
 * `user:password` inside Basic credentials, when both are there and the text is UTF-8.
 *
 * @example
 * ```ts
 * import { userAndPassword } from "./login_copies.ts";
 * if (userAndPassword(btoa("ada:pw-1"))?.join() !== "ada,pw-1") throw new Error();
 * if (userAndPassword("not base64!") !== undefined) throw new Error();
 * ```
 */
export function userAndPassword(credential: string): [string, string] | undefined {
  let decoded: string;
  try {
    const bytes = Uint8Array.from(atob(credential), (ch) => ch.charCodeAt(0));
    decoded = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
  const colon = decoded.indexOf(":");
  if (colon <= 0 || colon === decoded.length - 1) return undefined;
  return [decoded.slice(0, colon), decoded.slice(colon + 1)];
}

/** `value` and its percent-decodings, at most three deep (a script may encode twice). */
function decodings(value: string): string[] {
  const out = [value];
  for (let i = 0; i < 3; i++) {
    try {
      const next = decodeURIComponent(out[out.length - 1]);
      if (next === out[out.length - 1]) break;
      out.push(next);
    } catch {
      break;
    }
  }
  return out;
}

/**
 * Whether cookie `name`'s `value` holds a Basic credential an
 * `Authorization` header of the recording sent (`sent`, the request's own,
 * or a secret of `c` that is base64 of `user:password`); such a cookie is
 * counted for the note.
 *
 * @example
 * ```ts
 * import { isLoginCopy, loginCopyNotes } from "./login_copies.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const basic = btoa("ada:Quill-Harbor-77");
 * c.secrets.add(basic);
 * const cookie = `2258:${encodeURIComponent(encodeURIComponent(basic))}`;
 * if (!isLoginCopy(c, "m", cookie) || isLoginCopy(c, "sid", "k3j4h5g6f7d8s9a0")) throw new Error();
 * if (!loginCopyNotes(c)[0].startsWith("The cookie m holds the Basic credential")) throw new Error();
 * ```
 */
export function isLoginCopy(
  c: Correlator,
  name: string,
  value: string,
  sent: readonly string[] = [],
): boolean {
  const texts = decodings(value);
  for (const secret of [...sent, ...c.secrets]) {
    if (secret.length < 8 || !texts.some((t) => t.includes(secret))) continue;
    if (!userAndPassword(secret)) continue;
    const copies = copiesOf.get(c) ?? new Map<string, number>();
    copiesOf.set(c, copies);
    copies.set(name, (copies.get(name) ?? 0) + 1);
    return true;
  }
  return false;
}

/**
 * The summary's notes on the cookies left out as copies of the login.
 *
 * @example
 * ```ts
 * import { loginCopyNotes } from "./login_copies.ts";
 * import { emptyCorrelator } from "./state.ts";
 * if (loginCopyNotes(emptyCorrelator("a", true)).length !== 0) throw new Error();
 * ```
 */
export function loginCopyNotes(c: Correlator): string[] {
  return [...copiesOf.get(c) ?? []].map(([name, n]) =>
    `The cookie ${name} holds the Basic credential the Authorization header sends (the page's copy of the login): left out of ${n} ${
      n === 1 ? "request" : "requests"
    }, as the steps' auth: basic sends that login.`
  );
}
