/**
 * A curl command's proxy (`-x`, `-U`) as a flow can hold it: a step's
 * `proxy` option is read when the flow loads and takes no `${…}`, so a proxy
 * with a password is left to the run's `--proxy`, the password a variable
 * the summary asks for, never written.
 *
 * @module
 */
import { type Correlator, secretEnv } from "./correlate/mod.ts";
import type { CurlRequest } from "./curl_options.ts";
import { ENV_MARKER } from "./curl_shell.ts";
import type { YScalar } from "./yaml_out.ts";

const hasMarker = (text: string) => new RegExp(ENV_MARKER.source).test(text);

/**
 * The options with `-U user:password` put into the proxy's URL, as curl
 * sends them when the URL has no credentials of its own; `-U` alone (curl
 * would use the environment's proxy) is a note.
 *
 * @example
 * ```ts
 * import { proxyOptions } from "./curl_proxy.ts";
 * const notes: string[] = [];
 * const o = proxyOptions({ proxy: "http://p.test:3128", proxyUser: "ann:pw" }, notes);
 * if (o.proxy !== "http://ann:pw@p.test:3128" || "proxyUser" in o) throw new Error();
 * if (proxyOptions({ proxyUser: "ann:pw" }, notes).proxy !== undefined || notes.length !== 1) throw new Error();
 * ```
 */
export function proxyOptions(
  options: CurlRequest["options"],
  notes: string[],
): CurlRequest["options"] {
  const { proxyUser, ...rest } = options;
  if (proxyUser === undefined) return options;
  if (rest.proxy === undefined) {
    notes.push("-U names the credentials of a proxy the command does not give (-x); not carried.");
    return rest;
  }
  const scheme = /^[a-z0-9]+:\/\//i.exec(rest.proxy)![0];
  const hasUser = /^[^/?#]*@/.test(rest.proxy.slice(scheme.length));
  return hasUser
    ? rest
    : { ...rest, proxy: `${scheme}${proxyUser}@${rest.proxy.slice(scheme.length)}` };
}

/**
 * `-x`'s URL as the step's `proxy`, unless it holds a password: options are
 * read when the flow loads and take no `${…}`, so the password would be
 * written as it is. Then the step has no proxy, the password is the required
 * PROXY_PASSWORD, and a note gives the `--proxy` to run with (`$PROXY_PASSWORD`
 * for the shell to fill).
 *
 * @example
 * ```ts
 * import { proxyOption } from "./curl_proxy.ts";
 * import { newCorrelator } from "./correlate/mod.ts";
 * const c = newCorrelator("a");
 * const notes: string[] = [];
 * if (proxyOption(c, "http://ann:pw-1@p.test:3128", notes) !== undefined) throw new Error();
 * if (!c.env.has("PROXY_PASSWORD") || !notes[0].includes('"http://ann:$PROXY_PASSWORD@p.test:3128"')) {
 *   throw new Error(notes[0]);
 * }
 * if (proxyOption(c, "http://p.test:3128", notes) !== "http://p.test:3128") throw new Error();
 * ```
 */
export function proxyOption(c: Correlator, proxy: string, notes: string[]): YScalar | undefined {
  const url = URL.canParse(proxy) ? new URL(proxy) : undefined;
  if (!url || url.password === "" || hasMarker(proxy)) return c.sp.lit(proxy);
  const env = secretEnv(
    c,
    "PROXY_PASSWORD",
    decodeURIComponent(url.password),
    "the password of the proxy (-x): run with the --proxy the summary gives",
  );
  const at = proxy.lastIndexOf("@");
  const user = proxy.slice(0, proxy.indexOf(":", proxy.indexOf("//") + 2));
  notes.push(
    `The proxy has a password, which a step's options cannot read from a variable: the step has no proxy; run with --proxy "${user}:$${env}${
      proxy.slice(at)
    }".`,
  );
  return undefined;
}
