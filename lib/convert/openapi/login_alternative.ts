/**
 * Which of a requirement's alternatives a step sends: the first, unless
 * it names a scheme the suite's own login does not serve while a later
 * alternative names only schemes the login serves. A `security` list is
 * "any one of these"; its order says nothing about which a client holds.
 * drf-spectacular lists a project's authentications in its settings'
 * order: a blog API naming Django's `SessionAuthentication` before
 * simplejwt's got `[{cookieAuth: []}, {jwtAuth: []}]` on every view, its
 * login (simplejwt's pair view) answering the bearer's token and nothing
 * handing out the `sessionid` cookie; the summary asked for `API_KEY` and
 * nothing was sent without it.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";

/**
 * The alternative of `options` (a `security` list's entries) to send,
 * given the names of the schemes the login serves: the first, or the
 * first of those after it that names only served schemes when the first
 * names a scheme the login does not serve. An empty first alternative
 * (anyone may call) is kept.
 *
 * @example
 * ```ts
 * import { loginAlternative } from "./login_alternative.ts";
 * const options = [{ cookieAuth: [] }, { jwtAuth: [] }];
 * if (loginAlternative(options, new Set(["jwtAuth"])) !== options[1]) throw new Error();
 * if (loginAlternative(options, new Set()) !== options[0]) throw new Error();
 * ```
 */
export function loginAlternative(options: Node[], served: ReadonlySet<string>): Node | undefined {
  const first = options[0];
  if (!isNode(first) || Object.keys(first).length === 0 || servesAll(first, served)) return first;
  return options.slice(1).find((o) => servesAll(o, served)) ?? first;
}

/** Whether `alternative` names at least one scheme and only ones in `served`. */
function servesAll(alternative: Node, served: ReadonlySet<string>): boolean {
  const names = Object.keys(alternative);
  return names.length > 0 && names.every((n) => served.has(n));
}
