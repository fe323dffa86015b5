/**
 * An oauth2 security scheme → `auth: {oauth2: …}` with a grant flowrun
 * runs itself, the first of the scheme's flows that has one:
 * `clientCredentials` (`CLIENT_ID`, `CLIENT_SECRET`), then `password` (with
 * `OAUTH2_USERNAME`, `OAUTH2_PASSWORD`), then OpenAPI 3.2's
 * `deviceAuthorization` (`device_code`: a person approves the device once,
 * unless a test IdP does). Its `scope` is what the operation's requirement
 * lists. A scheme with only `authorizationCode` or `implicit` (a person signs
 * in at a browser, which a run cannot do) is a bearer token from
 * `API_TOKEN`, got beforehand, as a comment says, with where to get one
 * (`auth_browser.ts`).
 *
 * An endpoint on the origin of the document's first server (written
 * relative, which is resolved against that server, or absolute) is kept
 * under `${ENV.BASE_URL}` as the steps are, so a run against staging asks
 * staging's token endpoint; one on another origin (an identity provider)
 * is written as the document gives it.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { ymap, type YNode } from "../yaml_out.ts";
import { bearer, type EnvNamer, type MadeBlock } from "./auth_bearer.ts";
import { browserHint } from "./auth_browser.ts";

/** The document's flows flowrun runs, preferred first, with their grant. */
const GRANTS = [
  ["clientCredentials", "client_credentials"],
  ["password", "password"],
  ["deviceAuthorization", "device_code"],
] as const;

/**
 * The `auth:` block of an oauth2 scheme, for a requirement listing `scopes`.
 *
 * @example
 * ```ts
 * import { oauth2Block } from "./auth_oauth2.ts";
 * const env = { envVar: (_s: string, base: string) => base, server: "https://api.test/v1" };
 * const scheme = { type: "oauth2", flows: { clientCredentials: { tokenUrl: "/oauth/token", scopes: {} } } };
 * const text = JSON.stringify(oauth2Block(env, "oauth", scheme, ["read", "write"]).block);
 * if (!text.includes('"${ENV.BASE_URL}/oauth/token"') || !text.includes('"read write"')) throw new Error(text);
 * ```
 */
export function oauth2Block(
  env: EnvNamer,
  name: string,
  scheme: Node,
  scopes: string[],
): MadeBlock {
  const flows = isNode(scheme.flows) ? scheme.flows : {};
  for (const [key, grant] of GRANTS) {
    const flow = Object.hasOwn(flows, key) ? flows[key] : undefined;
    if (!isNode(flow)) continue;
    const tokenUrl = endpoint(flow.tokenUrl, env.server);
    const deviceUrl = endpoint(flow.deviceAuthorizationUrl, env.server);
    if (tokenUrl === undefined || (grant === "device_code" && deviceUrl === undefined)) continue;
    const entries: [string, YNode | undefined][] = [
      ["grant_type", grant],
      ["token_url", tokenUrl],
      ["device_authorization_url", grant === "device_code" ? deviceUrl : undefined],
      ...client(env, name, grant),
      ["scope", scopes.length > 0 ? scopes.join(" ") : undefined],
    ];
    const notes = grant === "device_code"
      ? [
        `"${name}" is a device flow: a person approves the device once per run (a line on stderr says where); add client_secret if the client has one`,
      ]
      : [];
    return { block: ymap([["oauth2", ymap(entries)]]), notes };
  }
  const hint = browserHint(scheme, env.server, [
    ...new Set([...env.scopesOf?.(name) ?? [], ...scopes]),
  ]);
  const made = bearer(env, name, tokenWhat(name, hint));
  const browser = Object.keys(flows).join(", ") || "no flow";
  made.notes.push(
    `"${name}" is oauth2 (${browser}: a person signs in at a browser, which a run cannot do): ` +
      `${made.token} holds a token got beforehand${hint ? ` (${hint})` : ""}`,
  );
  return made;
}

/**
 * What the token variable of oauth2 scheme `name` holds, with where to get one if `hint` says.
 *
 * @example
 * ```ts
 * import { tokenWhat } from "./auth_oauth2.ts";
 * if (tokenWhat("o", undefined) !== 'an access token of "o" (oauth2: fetch one and set it)') throw new Error();
 * if (tokenWhat("o", "OAuth2 implicit flow: get one at https://x.test/a") !==
 *   'an access token of "o" (OAuth2 implicit flow: get one at https://x.test/a)') throw new Error();
 * ```
 */
export function tokenWhat(name: string, hint: string | undefined): string {
  return `an access token of "${name}" (${hint ?? "oauth2: fetch one and set it"})`;
}

/** The client's keys, and the resource owner's for the password grant. */
function client(env: EnvNamer, name: string, grant: string): [string, YNode][] {
  const of = `"${name}" (${grant} grant)`;
  const id = env.envVar(name, "CLIENT_ID", `the OAuth2 client id of ${of}`);
  const out: [string, YNode][] = [["client_id", `\${ENV.${id}}`]];
  // A device's client is usually public: it has no secret to send.
  if (grant === "device_code") return out;
  const secret = env.envVar(name, "CLIENT_SECRET", `the OAuth2 client secret of ${of}`);
  out.push(["client_secret", `\${ENV.${secret}}`]);
  if (grant !== "password") return out;
  const user = env.envVar(name, "OAUTH2_USERNAME", `the resource owner's user name for ${of}`);
  const password = env.envVar(name, "OAUTH2_PASSWORD", `the resource owner's password for ${of}`);
  out.push(["username", `\${ENV.${user}}`], ["password", `\${ENV.${password}}`]);
  return out;
}

/**
 * An endpoint URL as the flow writes it: under `${ENV.BASE_URL}` on the first server's origin,
 * else as written; undefined when it is none or not http(s).
 *
 * @example
 * ```ts
 * import { endpoint } from "./auth_oauth2.ts";
 * if (endpoint("token", "https://api.test/v1/") !== "${ENV.BASE_URL}/v1/token") throw new Error();
 * if (endpoint("https://api.test/oauth/token", "https://api.test/v1") !== "${ENV.BASE_URL}/oauth/token") throw new Error();
 * if (endpoint("https://idp.test/token", "https://api.test") !== "https://idp.test/token") throw new Error();
 * if (endpoint("/token", undefined) !== "${ENV.BASE_URL}/token" || endpoint("ftp://x/t", undefined) !== undefined) throw new Error();
 * ```
 */
export function endpoint(url: unknown, server: string | undefined): string | undefined {
  if (typeof url !== "string" || url.trim() === "") return undefined;
  const base = parsed(server ?? "/", "http://base.invalid/") ?? new URL("http://base.invalid/");
  const resolved = parsed(url.trim(), base);
  if (resolved === undefined || !/^https?:$/.test(resolved.protocol)) return undefined;
  // Written into a flow, where ${ starts an expression.
  const escape = (text: string) => text.replaceAll("${", () => "$${");
  if (resolved.origin !== base.origin) return escape(url.trim());
  return `\${ENV.BASE_URL}${escape(`${resolved.pathname}${resolved.search}`)}`;
}

function parsed(url: string, base: string | URL): URL | undefined {
  try {
    return new URL(url, base);
  } catch {
    return undefined;
  }
}
