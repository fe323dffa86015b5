/**
 * An operation whose document names a 2xx and no redirect while its words
 * say it redirects: httpbin's `GET /cookies/set` ("Sets cookie(s) … and
 * redirects to cookie list.", `200: Redirect to cookie list`) answers 302
 * to `/cookies`, whose answer is the documented 200, as a browser (or
 * Swagger UI, where such a document is written) shows it after following.
 * Its step follows redirects. A step does not by default: a 3xx is an
 * answer to check, and an operation whose words say nothing of a redirect
 * keeps that (a redirect to a login page must fail its `status: 200`). A
 * documented 3xx is the answer itself (`responses.ts`): no follow then.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";

/** "redirects", "redirected", "redirecting", "Redirect to …": the word, not "redirect_uri". */
const REDIRECT = /\bredirect(?:s|ed|ing)?\b(?![_-])/i;

/**
 * Whether the operation's step follows redirects: its summary, description
 * or a documented 2xx's description says it redirects, and it documents no
 * 3xx.
 *
 * @example
 * ```ts
 * import { saysRedirect } from "./said_redirect.ts";
 * const op = { summary: "Sets a cookie and redirects to the list.", responses: { "200": {} } };
 * if (!saysRedirect({}, op)) throw new Error();
 * if (saysRedirect({}, { ...op, responses: { "200": {}, "302": {} } })) throw new Error();
 * if (saysRedirect({}, { summary: "Sets a cookie.", responses: { "200": {} } })) throw new Error();
 * ```
 */
export function saysRedirect(doc: unknown, op: Node): boolean {
  const responses = isNode(op.responses) ? op.responses : {};
  const codes = Object.keys(responses);
  if (codes.some((c) => /^3/.test(c)) || !codes.some((c) => /^2/.test(c))) return false;
  const successes = codes.filter((c) => /^2/.test(c)).map((c) => deref(doc, responses[c]));
  const words = [op.summary, op.description, ...successes.map((r) => isNode(r) && r.description)];
  return words.some((w) => typeof w === "string" && REDIRECT.test(w));
}
