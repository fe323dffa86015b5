/**
 * OAuth2 auth whose grant runs without a person (client credentials, and
 * the password grant) becomes the flow format's `auth: {oauth2: …}` block:
 * flowrun fetches the token itself, once per run, as the Postman app would.
 * Newman instead sends the token saved in the collection, so each distinct
 * block is one request more than Newman's, which the summary says.
 *
 * @module
 */
import { ymap, type YNode } from "../yaml_out.ts";
import type { PmAuth } from "./model.ts";
import { placeholders, render } from "./template.ts";
import type { Variables } from "./vars.ts";

const UNATTENDED = new Set(["client_credentials", "password"]);

/**
 * Whether `auth` is an OAuth2 grant that runs unattended.
 *
 * @example
 * ```ts
 * import { isUnattended } from "./oauth2.ts";
 * const auth = { type: "oauth2", settings: { grant_type: "client_credentials", accessTokenUrl: "https://a.test/token" } };
 * if (!isUnattended(auth) || isUnattended({ type: "oauth2", settings: { grant_type: "authorization_code" } })) throw new Error();
 * ```
 */
export function isUnattended(auth: PmAuth | undefined): boolean {
  return auth?.type === "oauth2" && UNATTENDED.has(auth.settings.grant_type ?? "") &&
    (auth.settings.accessTokenUrl ?? "") !== "";
}

/**
 * A secret setting: its `{{x}}` rendered, or an environment variable (the value never copied).
 * One the collection defines as empty (a public client has no secret) is sent empty unless the
 * user sets one, as the Postman app sends it; one it leaves out (`undefined`) is asked for.
 */
function secret(
  value: string | undefined,
  env: string,
  hint: string,
  resolve: (n: string) => string,
  vars: Variables,
): string {
  if (value !== undefined && placeholders(value).length > 0) return render(value, resolve);
  if (value === "") return `\${ENV.${vars.secretEnv(env, `${hint}, empty unless set`)}:-}`;
  return `\${ENV.${
    vars.secretEnv(env, value === undefined ? hint : `${hint} (the collection has one)`, value)
  }}`;
}

/**
 * The `auth:` block of an unattended OAuth2 grant: identifiers as written,
 * secrets from the environment, the client sent as Postman sends it (HTTP
 * Basic unless `client_authentication` is `body`).
 *
 * @example
 * ```ts
 * import { oauth2Block } from "./oauth2.ts";
 * import { Variables } from "./vars.ts";
 * const s = { grant_type: "client_credentials", accessTokenUrl: "https://a.test/token", clientId: "app", clientSecret: "shh", client_authentication: "body" };
 * const text = JSON.stringify(oauth2Block({ type: "oauth2", settings: s }, (n) => n, new Variables([], []), "collection"));
 * if (!text.includes("OAUTH2_CLIENT_SECRET") || text.includes("shh") || !text.includes('"app"')) throw new Error(text);
 * const open = JSON.stringify(oauth2Block({ type: "oauth2", settings: { ...s, clientSecret: "" } }, (n) => n, new Variables([], []), "collection"));
 * if (!open.includes("OAUTH2_CLIENT_SECRET:-}")) throw new Error(open);
 * ```
 */
export function oauth2Block(
  auth: PmAuth,
  resolve: (n: string) => string,
  vars: Variables,
  from: string,
): YNode {
  const s = auth.settings;
  const password = s.grant_type === "password";
  const what = (thing: string) => `the OAuth2 ${thing} of the ${from} auth`;
  return ymap([[
    "oauth2",
    ymap([
      ["grant_type", s.grant_type],
      ["token_url", render(s.accessTokenUrl ?? "", resolve)],
      // The client id is required; one the collection leaves out comes from the environment.
      [
        "client_id",
        s.clientId
          ? render(s.clientId, resolve)
          : `\${ENV.${vars.secretEnv("OAUTH2_CLIENT_ID", what("client id"))}}`,
      ],
      [
        "client_secret",
        s.clientSecret !== undefined
          ? secret(s.clientSecret, "OAUTH2_CLIENT_SECRET", what("client secret"), resolve, vars)
          : undefined,
      ],
      ["scope", s.scope ? render(s.scope, resolve) : undefined],
      ["username", password ? render(s.username ?? "", resolve) : undefined],
      [
        "password",
        password
          ? secret(s.password, "OAUTH2_PASSWORD", what("password"), resolve, vars)
          : undefined,
      ],
      ["client_auth", s.client_authentication === "body" ? "body" : "basic"],
    ]),
  ]]);
}
