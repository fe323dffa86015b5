/**
 * The response header a login answers its token in, when the docs say so.
 * Some servers hand the token out in a header, not the body (Mattermost's
 * `Token`, OpenStack Keystone's `X-Subject-Token`), and their docs show it
 * in one of two ways: the `curl -i` answer pasted with the header in it
 * (`Token: hyr5…`), or a sentence ("the token is in the `Token` response
 * header"). A body's token rule finds nothing there and the login failed at
 * run time; the header the material names is captured instead. A header a
 * command sends (`Authorization`) is no answer's, however the prose reads.
 *
 * @module
 */
import { nameWords } from "../secrets/mod.ts";
import { responseHeaders } from "./handed.ts";
import type { HarRecord } from "./har_model.ts";

/**
 * A word of a header name that says it carries a credential, as the whole word or its ending
 * (`MMAUTHTOKEN`, `X-Subject-Token`): letters inside another word say nothing (`X-Authored-By`).
 */
const TOKEN_WORD = /(?:TOKEN|JWT|AUTH|AUTHORIZATION|SESSION|SESSIONID|BEARER|ACCESS)S?$/;

/**
 * Whether a response header's name says it carries a credential, by a whole word of it; never a
 * CORS header (`Access-Control-Allow-Origin: *` states a policy, and was captured as the token).
 */
function saysToken(name: string): boolean {
  if (/^access-control-/i.test(name.trim()) || /^set-cookie$/i.test(name.trim())) return false;
  return nameWords(name).some((w) => TOKEN_WORD.test(w.replace(/\d+$/, "")));
}
/** Prose that speaks of what comes back, not of what is sent. */
const SAYS_ANSWER = /respon|return|answer|comes? back|sent back|hands? (?:out|back)|reply|replies/i;
/** A quoted header name beside the word header: "`Token` response header", "header `Token`". */
const NAMED = [
  /[`'"]([A-Za-z][\w-]*)[`'"]\s+(?:response\s+|HTTP\s+)?header/i,
  /header\s+(?:named\s+|called\s+)?[`'"]([A-Za-z][\w-]*)[`'"]/i,
];

/**
 * The name of the header the login's token comes back in: a token-named
 * header of its pasted answer, else one a line of the text names as the
 * answer's; none when the material says neither. `sent` holds the header
 * names the commands send (lower case).
 *
 * @example
 * ```ts
 * import { tokenHeader } from "./curl_token_header.ts";
 * const login = { raw: { response: { headers: [{ name: "Token", value: "t0k" }] } } };
 * // deno-lint-ignore no-explicit-any
 * if (tokenHeader(login as any, "", new Set()) !== "token") throw new Error();
 * const said = "# The token is returned in the `X-Subject-Token` response header.\n";
 * // deno-lint-ignore no-explicit-any
 * if (tokenHeader({ raw: {} } as any, said, new Set()) !== "x-subject-token") throw new Error();
 * const sent = "# Then send it back in the `Authorization` header of each request.\n";
 * // deno-lint-ignore no-explicit-any
 * if (tokenHeader({ raw: {} } as any, sent, new Set(["authorization"])) !== undefined) throw new Error();
 * ```
 */
export function tokenHeader(
  login: HarRecord,
  text: string,
  sent: ReadonlySet<string>,
): string | undefined {
  const printed = responseHeaders(login).find((h) => saysToken(h.name) && h.value.trim() !== "");
  if (printed) return printed.name.toLowerCase();
  for (const line of text.split("\n")) {
    if (!/token|jwt|session/i.test(line) || !SAYS_ANSWER.test(line)) continue;
    for (const named of NAMED) {
      const name = named.exec(line)?.[1]?.toLowerCase();
      if (name && !sent.has(name) && name !== "content-type") return name;
    }
  }
  return undefined;
}
