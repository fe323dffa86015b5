/**
 * A login's token sent elsewhere than in a header. Docs name the token once (`$OS_TOKEN`) and
 * send it in headers (`-H "X-Auth-Token: $OS_TOKEN"`) and in bodies too: an identity service's
 * curl page exchanges it for another (`-d '{"auth": {"identity": {"token": {"id":
 * "'$OS_TOKEN'"}}}}'`). `curl_login_token.ts` decided, from the headers, that the variable is
 * the login's token, but the body kept `${ENV.OS_TOKEN}` and the summary still asked for a token
 * nobody has before the login runs. Evidence, not a name: the same variable the headers proved
 * the login's is that capture wherever a later step to the login's origin sends it, URL, header,
 * body or form.
 *
 * @module
 */
import type { Correlator } from "./correlate/mod.ts";
import type { Step } from "./model.ts";
import type { YNode } from "./yaml_out.ts";

/**
 * A variable the headers proved the login's token, as a step sends it (its `${ENV.NAME}`, or the
 * marker `curl_shell.ts` wrote for `$NAME` until the summary names it): the login's step and the
 * capture to send instead.
 */
export interface TokenVariable {
  login: Step;
  ref: string;
}

/** `node` with each whole `from` in its strings written `to`. */
function swapped(node: YNode, from: string, to: string): YNode {
  if (typeof node === "string") return node.replaceAll(from, to);
  if (Array.isArray(node)) return node.map((n) => swapped(n, from, to));
  if (node === null || typeof node !== "object") return node;
  if (node.kind === "commented") return { ...node, node: swapped(node.node, from, to) };
  if (node.kind === "flow") {
    return {
      ...node,
      entries: node.entries.map((
        [k, v],
      ) => [k, typeof v === "string" ? v.replaceAll(from, to) : v]),
    };
  }
  return { ...node, entries: node.entries.map(([k, v]) => [k, swapped(v, from, to)]) };
}

/** Writes `from` as `to` in what `step` sends: its URL, headers, body, form and multipart fields. */
function sendInstead(step: Step, from: string, to: string): void {
  step.url = step.url.replaceAll(from, to);
  step.headers = step.headers.map(([n, v]) => [n, v.replaceAll(from, to)]);
  if (step.body !== undefined) step.body = swapped(step.body, from, to);
  if (step.form !== undefined) step.form = swapped(step.form, from, to);
  if (step.multipart !== undefined) step.multipart = swapped(step.multipart, from, to);
}

/**
 * Sends, in each step after a login to its origin and before the next one there (`logins`, every
 * login's step), that login's capture where the step sends a variable `tokens` says is the
 * login's token; the variables are left for the caller to drop once no step reads them.
 *
 * @example
 * ```ts
 * import { sendTokenEverywhere } from "./curl_login_token_uses.ts";
 * import { newCorrelator } from "./correlate/mod.ts";
 * const c = newCorrelator("a");
 * const record = { url: new URL("http://a.test/x") };
 * const login = { name: "login", first: record } as never;
 * const use = { name: "swap", first: record, url: "u", headers: [], body: { kind: "map", entries: [["id", c.sp.envRef("T")]] } };
 * c.steps.push(login, use as never);
 * sendTokenEverywhere(c, new Map([[c.sp.envRef("T"), { login, ref: "${steps.login.capture.T}" }]]), [login]);
 * if (JSON.stringify(use.body) !== '{"kind":"map","entries":[["id","${steps.login.capture.T}"]]}') throw new Error(JSON.stringify(use.body));
 * ```
 */
export function sendTokenEverywhere(
  c: Pick<Correlator, "steps">,
  tokens: ReadonlyMap<string, TokenVariable>,
  logins: readonly Step[],
): void {
  for (const [from, { login, ref }] of tokens) {
    const origin = login.first.url.origin;
    for (const step of c.steps.slice(c.steps.indexOf(login) + 1)) {
      if (step.first.url.origin !== origin) continue;
      if (logins.includes(step)) break;
      sendInstead(step, from, ref);
    }
  }
}
