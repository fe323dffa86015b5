/**
 * The hosts `--verify` sends steps to: the API's.
 *
 * @module
 */
import type { Correlator } from "./correlate/mod.ts";

/**
 * The API's hosts: the verified URL's, each other base-URL variable's set in
 * `env`, and, when nothing was given (`--verify` alone, no `BASE_URL`: the
 * recording's own instance is verified), every origin the recording kept at
 * its recorded host. A page served by one server and its API by another
 * (a static site beside its CMS's content API, a sign-in service beside
 * the API) are both the recorded instance: sending only the first origin's
 * steps left every step of the other "not sent", and the values they hand
 * out missing for the steps after them. Given a URL, the other origins'
 * recorded hosts may be another instance's (production's), so they are sent
 * only when the environment names them.
 *
 * @example
 * ```ts
 * import { prepareConversion } from "./har.ts";
 * import { apiHosts } from "./verify_hosts.ts";
 * const entry = (url: string) => ({
 *   request: { method: "POST", url },
 *   response: { status: 200, content: { mimeType: "application/json", text: "{}" } },
 * });
 * const har = JSON.stringify({ log: { entries: [entry("http://127.0.0.1:8000/config"), entry("http://127.0.0.1:8081/api")] } });
 * const { c } = prepareConversion(har, { includeHosts: ["127.0.0.1:8000", "127.0.0.1:8081"] });
 * const none = () => undefined;
 * const alone = apiHosts(c, undefined, none);
 * if (alone.join() !== "127.0.0.1:8000,127.0.0.1:8081") throw new Error(alone.join());
 * if (apiHosts(c, "http://127.0.0.1:9", none).join() !== "127.0.0.1:9") throw new Error();
 * ```
 */
export function apiHosts(
  c: Correlator,
  given: string | undefined,
  env: (name: string) => string | undefined,
): string[] {
  const recorded = [...c.origins.keys()];
  const baseUrl = given || env("BASE_URL") || recorded[0] || "";
  const hosts = [new URL(baseUrl).host];
  for (const [name, v] of c.env) {
    const set = env(name);
    if (name !== "BASE_URL" && v.fallback !== undefined && set && URL.canParse(set)) {
      hosts.push(new URL(set).host);
    }
  }
  if (given || env("BASE_URL")) return hosts;
  for (const origin of recorded) {
    // A base-URL variable the environment sets points that origin elsewhere; its recorded host is not sent.
    const name = c.env.has(baseUrlName(c, origin)) ? baseUrlName(c, origin) : "";
    if (name === "" || env(name) === undefined) hosts.push(new URL(origin).host);
  }
  return [...new Set(hosts)];
}

/** The environment variable an origin's base URL reads (`${ENV.BASE_URL_2:-…}` behind `vars.base_url_2`). */
function baseUrlName(c: Correlator, origin: string): string {
  for (const [name, v] of c.env) if (v.fallback === origin) return name;
  return "";
}
