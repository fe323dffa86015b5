/**
 * A step's URL from a request's raw URL, as Newman sends it: an authority the files fill
 * written out, each `{{x}}` resolved (the first one may stand for the origin), a URL without a
 * scheme sent with `http://` as Postman sends it, and a literal origin read from its variable.
 *
 * @module
 */
import type { Shared } from "./flow_state.ts";
import { filledAuthority, withOriginEnv } from "./origin_env.ts";
import { render } from "./template.ts";
import { varName } from "./vars.ts";

/**
 * The URL a step sends for `raw`; `given` is a variable's value from the files when no step
 * set it, `resolve` a `{{x}}`'s flow expression (`atStart`: the variable opens the URL).
 *
 * @example
 * ```ts
 * import { stepUrl } from "./step_url.ts";
 * import { Variables } from "./vars.ts";
 * const shared = { vars: new Variables([], []), origins: new Map() } as never;
 * const url = stepUrl("{{host}}/ping", shared, () => undefined, () => "${ENV.HOST}");
 * if (url !== "${ENV.HOST}/ping") throw new Error(url);
 * ```
 */
export function stepUrl(
  raw: string,
  shared: Shared,
  given: (name: string) => string | undefined,
  resolve: (name: string, atStart: boolean, written?: string) => string,
): string {
  raw = filledAuthority(raw, (n) => shared.vars.isSecret(n) ? undefined : given(n));
  const first = raw.match(/^\{\{([^{}]+)\}\}/)?.[1]?.trim();
  let url = render(raw, (n, w) => resolve(n, n === first, w));
  // A row's query column is URL text already encoded as Newman sends it: put in as written.
  for (const n of shared.vars.urlColumns) {
    url = url.replaceAll(`\${vars.${varName(n)}}`, `\${raw:vars.${varName(n)}}`);
  }
  // Postman sends a URL without a scheme (`{{host}}` = `127.0.0.1:8080`) with http://.
  const host = shared.vars.schemelessAt(url);
  if (host !== undefined) {
    shared.vars.schemeless.add(host);
    url = `http://${url}`;
  }
  if (!/^(https?:\/\/|\$\{)/i.test(url)) url = `http://${url}`;
  if (first !== undefined) askedWithScheme(first, url, shared);
  return withOriginEnv(url, shared.origins);
}

/**
 * A URL's start the files give no value, read from the environment (`${ENV.SERVER}/api`): Newman
 * sends a bare host (`localhost:3000`, as a README tells Postman users to set it) with `http://`,
 * the flow's runner only an absolute URL, so the summary asks for the value with its scheme.
 */
function askedWithScheme(name: string, url: string, shared: Shared): void {
  const env = shared.vars.readsEnv(name) ? shared.vars.envVar(name) : undefined;
  const asked = env === undefined ? undefined : shared.vars.env.get(env);
  if (!asked || asked.secret || asked.hint !== `{{${name}}}` || !url.startsWith(`\${ENV.${env}}`)) {
    return;
  }
  asked.hint = `{{${name}}}: a URL with its scheme as http://host:port; a bare host is refused`;
}
