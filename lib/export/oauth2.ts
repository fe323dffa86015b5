/**
 * OAuth2 auth (client credentials, password and refresh token grants) for
 * the exported script: Artillery has none, so the processor gets the token.
 * Each auth block becomes a processor function, `flowrunTokenN`, called
 * before each request it authorises; it posts the grant to the token URL
 * as flowrun does (client credentials in a Basic header, or in the form
 * with `client_auth: body`) once per virtual user and keeps the token in
 * the user's variable the request's `authorization` header reads. The
 * device code grant needs a person: noted.
 *
 * @module
 */
import type { OAuth2Auth } from "../model/auth.ts";
import type { Template } from "../model/template.ts";
import { jsValue } from "./js_value.ts";
import { type ExportScope, note, type Place } from "./scope.ts";

/** The processor function that gets an auth block's token, and the variable it keeps it in. */
export interface Token {
  fn: string;
  variable: string;
}

/** A template as JavaScript text over the user's variables. */
const js = (t: Template | undefined, place: Place): string =>
  t === undefined ? "undefined" : `text(${jsValue({ kind: "template", template: t }, place)})`;

/**
 * The token of an OAuth2 block (the same for every request it
 * authorises), or undefined (noted) for the device code grant.
 *
 * @example
 * ```ts
 * import { tokenFor } from "./oauth2.ts";
 * import { newScope } from "./scope.ts";
 * const place = { scope: newScope(), flow: "f", flowIndex: 0, vars: new Set<string>() };
 * const t = (s: string) => ({ source: s, parts: [s] });
 * const auth = { kind: "oauth2" as const, grantType: "client_credentials" as const, tokenUrl: t("http://x.test/token"),
 *   clientId: t("app"), extra: [], clientAuth: "basic" as const };
 * const token = tokenFor(auth, place);
 * if (token?.fn !== "flowrunToken1" || tokenFor(auth, place)?.variable !== token.variable) throw new Error();
 * ```
 */
export function tokenFor(auth: OAuth2Auth, place: Place): Token | undefined {
  const known = place.scope.tokens.get(auth);
  if (known !== undefined || place.scope.tokens.has(auth)) return known;
  if (auth.grantType === "device_code") {
    note(
      place,
      "oauth2 auth with the device code grant is not expressed: the request is sent without it",
    );
    place.scope.tokens.set(auth, undefined);
    return undefined;
  }
  const n = place.scope.tokenCode.size + 1;
  const token = { fn: `flowrunToken${n}`, variable: `flowrun_token_${n}` };
  const fields = [
    ["scope", auth.scope],
    ["audience", auth.audience],
    ["username", auth.username],
    ["password", auth.password],
    ["refresh_token", auth.refreshToken],
    ...auth.extra,
  ] as [string, Template | undefined][];
  const spec = `{ url: ${js(auth.tokenUrl, place)}, grant: ${JSON.stringify(auth.grantType)}, ` +
    `clientId: ${js(auth.clientId, place)}, clientSecret: ${js(auth.clientSecret, place)}, ` +
    `clientAuth: ${JSON.stringify(auth.clientAuth)}, fields: [${
      fields.filter(([, t]) => t !== undefined).map(([name, t]) =>
        `[${JSON.stringify(name)}, ${js(t, place)}]`
      )
        .join(", ")
    }] }`;
  place.scope.tokenCode.set(token.fn, { variable: token.variable, spec });
  place.scope.tokens.set(auth, token);
  return token;
}

/**
 * The processor's OAuth2 helper: the token request as flowrun sends it.
 *
 * @example
 * ```ts
 * import { OAUTH2_SOURCE } from "./oauth2.ts";
 * if (!OAUTH2_SOURCE.includes("async function oauth2Token(spec)")) throw new Error();
 * ```
 */
export const OAUTH2_SOURCE = `
/** An OAuth2 token, as flowrun requests it: the grant and its fields as a form. */
async function oauth2Token(spec) {
  const form = new URLSearchParams();
  form.append("grant_type", spec.grant);
  for (const [name, value] of spec.fields) form.append(name, value);
  const headers = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
  if (spec.clientAuth === "basic" && spec.clientSecret !== undefined) {
    const encode = (s) => new URLSearchParams([["", s]]).toString().slice(1);
    const pair = encode(spec.clientId) + ":" + encode(spec.clientSecret);
    headers.authorization = "Basic " + Buffer.from(pair).toString("base64");
  } else {
    form.append("client_id", spec.clientId);
    if (spec.clientSecret !== undefined) form.append("client_secret", spec.clientSecret);
  }
  const res = await fetch(spec.url, { method: "POST", headers, body: form.toString() });
  const body = await res.json().catch(() => ({}));
  if (!res.ok || typeof body.access_token !== "string") {
    throw new Error("The OAuth2 token request to " + spec.url + " was answered " + res.status);
  }
  return body.access_token;
}
`;

/**
 * The processor's token functions, one per OAuth2 block: the token once per
 * user, kept in its variable.
 *
 * @example
 * ```ts
 * import { tokenFunctions } from "./oauth2.ts";
 * import { newScope } from "./scope.ts";
 * const scope = newScope();
 * scope.tokenCode.set("flowrunToken1", { variable: "flowrun_token_1", spec: "{}" });
 * if (!tokenFunctions(scope)[0].includes("function flowrunToken1(context, _events, done)")) throw new Error();
 * ```
 */
export function tokenFunctions(scope: ExportScope): string[] {
  return [...scope.tokenCode].map(([name, { variable, spec }]) =>
    `/** Before a request this OAuth2 block authorises: its token, once per user. */\n` +
    `function ${name}(context, _events, done) {\n  const v = context.vars;\n` +
    `  if (v[${JSON.stringify(variable)}] !== undefined) return done();\n` +
    `  oauth2Token(${spec}).then((token) => {\n    v[${JSON.stringify(variable)}] = token;\n` +
    `    done();\n  }, (error) => done(error));\n}\n`
  );
}
