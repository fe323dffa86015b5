/**
 * OAuth2 auth whose grant runs without a person (client credentials, and
 * the password grant) becomes a token step: the token request the Postman
 * app would make, its `access_token` captured, and the requests under that
 * auth sending it. Newman itself sends the token saved in the collection,
 * so the step is one request more than Newman's, which the summary says.
 *
 * @module
 */
import { type YMap, ymap } from "../yaml_out.ts";
import type { PmAuth } from "./model.ts";
import { placeholders, render } from "./template.ts";
import type { Variables } from "./vars.ts";

const UNATTENDED = new Set(["client_credentials", "password"]);

/**
 * Whether `auth` is an OAuth2 grant a token step can run.
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

/** A setting: its `{{x}}` rendered, or, written out, an environment variable (never the value). */
function setting(
  value: string,
  env: string,
  hint: string,
  resolve: (n: string) => string,
  vars: Variables,
): string {
  if (placeholders(value).length > 0) return render(value, resolve);
  return `\${ENV.${vars.secretEnv(env, value === "" ? hint : `${hint} (the collection has one)`)}}`;
}

/**
 * The token step's request (without its name): the grant as a form, the
 * client sent as Postman sends it (a Basic header unless `client_authentication` is `body`).
 *
 * @example
 * ```ts
 * import { tokenRequest } from "./oauth2.ts";
 * import { Variables } from "./vars.ts";
 * const s = { grant_type: "client_credentials", accessTokenUrl: "https://a.test/token", clientId: "{{cid}}", clientSecret: "shh", client_authentication: "body" };
 * const r = tokenRequest({ type: "oauth2", settings: s }, (n) => `\${vars.${n}}`, new Variables([], []), (u) => u);
 * if (!JSON.stringify(r).includes("OAUTH2_CLIENT_SECRET") || JSON.stringify(r).includes("shh")) throw new Error();
 * ```
 */
export function tokenRequest(
  auth: PmAuth,
  resolve: (n: string) => string,
  vars: Variables,
  url: (raw: string) => string,
): YMap {
  const s = auth.settings;
  const inBody = s.client_authentication === "body";
  const id = setting(s.clientId ?? "", "OAUTH2_CLIENT_ID", "the OAuth2 client id", resolve, vars);
  const secret = setting(
    s.clientSecret ?? "",
    "OAUTH2_CLIENT_SECRET",
    "the OAuth2 client secret",
    resolve,
    vars,
  );
  const form: [string, string | undefined][] = [
    ["grant_type", s.grant_type],
    ["scope", s.scope ? render(s.scope, resolve) : undefined],
    ["client_id", inBody ? id : undefined],
    ["client_secret", inBody ? secret : undefined],
  ];
  if (s.grant_type === "password") {
    form.push([
      "username",
      setting(s.username ?? "", "OAUTH2_USERNAME", "the OAuth2 user", resolve, vars),
    ]);
    form.push([
      "password",
      setting(s.password ?? "", "OAUTH2_PASSWORD", "the OAuth2 password", resolve, vars),
    ]);
  }
  const basic = inBody ? undefined : `Basic \${ENV.${
    vars.secretEnv(
      "OAUTH2_CLIENT_BASIC",
      "base64 of client_id:client_secret for the OAuth2 token request",
    )
  }}`;
  return ymap([
    ["method", "POST"],
    ["url", url(s.accessTokenUrl ?? "")],
    ["headers", basic ? ymap([["Authorization", basic]]) : undefined],
    ["form", ymap(form.filter((f): f is [string, string] => f[1] !== undefined))],
  ]);
}
