/**
 * `oauth2`: a bearer token from an RFC 6749 token endpoint, fetched once per
 * run per configuration (see `token_cache.ts`), sent as
 * `Authorization: Bearer …`, fetched again before `expires_in` runs out and
 * once after the API answers 401 to it. The client authenticates with HTTP
 * Basic (RFC 6749 §2.3.1: each part form-encoded, then base64) or in the
 * body. The token request is bounded (64 KiB answer, the run's timeout, no
 * redirect followed) and reported as an exchange of its own (`oauth2_form.ts`).
 * The `device_code` grant (RFC 8628) is `oauth2_device.ts`: a device
 * authorization request, then polls of the token endpoint.
 *
 * @module
 */
import type { OAuth2Auth } from "../model/auth.ts";
import type { AuthFactory, AuthServices } from "./auth.ts";
import { cachedBearer } from "./cached_bearer.ts";
import { AuthError } from "./auth_error.ts";
import type { ResolvedRequest } from "./request.ts";
import type { Token } from "./token_cache.ts";
import { formRequest, type OAuth2Params, postForm, tokenOf } from "./oauth2_form.ts";
import { deviceToken } from "./oauth2_device.ts";
import { secretsInRequest } from "../secrets/discover.ts";
import { maskUserinfo } from "../secrets/userinfo.ts";
import { around, told } from "../model/told.ts";

/**
 * The `oauth2` kind.
 *
 * @example
 * ```ts
 * import { oauth2 } from "./oauth2.ts";
 * import { parseTemplate } from "../expr/template.ts";
 * const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () =>
 *   Response.json({ access_token: "t-1", token_type: "Bearer", expires_in: 60 }));
 * const auth = {
 *   kind: "oauth2" as const, grantType: "client_credentials" as const, clientAuth: "basic" as const, extra: [],
 *   tokenUrl: parseTemplate(`http://127.0.0.1:${server.addr.port}/token`), clientId: parseTemplate("app"),
 * };
 * const request = { method: "GET", url: "http://x.test/", headers: [] as [string, string][] };
 * await oauth2(auth, (t) => t.source, { secret: () => {}, env: () => undefined, timeoutMs: 5000 }).apply(request);
 * await server.shutdown();
 * if (request.headers[0][1] !== "Bearer t-1") throw new Error();
 * ```
 */
export const oauth2: AuthFactory = (auth, render, services) => {
  const spec = auth as OAuth2Auth;
  return cachedBearer(services, () => {
    const params = resolve(spec, render, services);
    return { key: JSON.stringify(params), fetch: (held) => fetchToken(params, held, services) };
  });
};

/**
 * An endpoint's URL, rendered: its secrets (a user-info password, secret-named query values)
 * registered as a step URL's are, since messages and every report print it; refused unless it
 * is absolute http(s) without user info.
 */
function endpointUrl(key: string, url: string, services: AuthServices): string {
  secretsInRequest({ url, headers: [] }, (value) => services.secret(value));
  if (!/^https?:\/\/[^/]/i.test(url) || !URL.canParse(url)) {
    // The URL an expression gave is a value; the block's key and the rest are flowrun's words.
    throw new AuthError(around(
      `The OAuth2 ${key} `,
      told`"${maskUserinfo(url)}"`,
      " is not an absolute http or https URL.",
    ));
  }
  const { username, password } = new URL(url);
  if (username !== "" || password !== "") {
    // fetch would send them as a Basic header of its own, beside (or instead of) the client's.
    throw new AuthError(around(
      `The OAuth2 ${key} `,
      told`"${maskUserinfo(url)}"`,
      " holds a user name and password: write the client's credentials as client_id and " +
        "client_secret (sent as HTTP Basic, or in the form with client_auth: body) and the URL " +
        "without them.",
    ));
  }
  return url;
}

/** The block's templates resolved, its credentials registered as secrets. */
function resolve(
  spec: OAuth2Auth,
  render: (t: NonNullable<OAuth2Auth["scope"]>) => string,
  services: AuthServices,
): OAuth2Params {
  const value = (t: OAuth2Auth["scope"]) => t === undefined ? undefined : render(t);
  const url = endpointUrl("token_url", render(spec.tokenUrl), services);
  const deviceUrl = value(spec.deviceAuthorizationUrl);
  const named: [string, string | undefined][] = [
    ["scope", value(spec.scope)],
    ["audience", value(spec.audience)],
    ["username", value(spec.username)],
    ["password", value(spec.password)],
    ["refresh_token", value(spec.refreshToken)],
  ];
  const fields = [
    ...named.filter((f): f is [string, string] => f[1] !== undefined),
    ...spec.extra.map(([name, t]) => [name, render(t)] as [string, string]),
  ];
  const clientSecret = value(spec.clientSecret);
  for (const secret of [clientSecret, value(spec.password), value(spec.refreshToken)]) {
    if (secret) services.secret(secret);
  }
  return {
    url,
    grant: spec.grantType,
    clientId: render(spec.clientId),
    ...(clientSecret === undefined ? {} : { clientSecret }),
    clientAuth: spec.clientAuth,
    fields,
    ...(spec.grantType === "device_code" && deviceUrl !== undefined
      ? { deviceUrl: endpointUrl("device_authorization_url", deviceUrl, services) }
      : {}),
  };
}

/** The token request: the grant (or the refresh token held), the client's credentials. */
function tokenRequest(params: OAuth2Params, held: Token | undefined): ResolvedRequest {
  const refresh = held?.refreshToken;
  const form = new URLSearchParams();
  form.append("grant_type", refresh ? "refresh_token" : params.grant);
  if (refresh) form.append("refresh_token", refresh);
  for (const [name, value] of params.fields) {
    // The grant's own parameters are not sent with a refresh; scope and extras are.
    if (refresh && ["username", "password", "refresh_token"].includes(name)) continue;
    form.append(name, value);
  }
  return formRequest(params.url, form, params);
}

/**
 * The grant's token, or the refresh token's when one is held; a refresh
 * token the endpoint refused falls back to the grant itself once.
 */
async function fetchToken(
  params: OAuth2Params,
  held: Token | undefined,
  services: AuthServices,
): Promise<Token> {
  const grant = () =>
    params.grant === "device_code"
      ? deviceToken(params, services)
      : exchange(params, undefined, services);
  if (!held?.refreshToken) return await grant();
  try {
    return await exchange(params, held, services);
  } catch (error) {
    if (!(error instanceof AuthError) || services.signal?.aborted) throw error;
    return await grant();
  }
}

/** Sends one token request; the token, or an {@linkcode AuthError} naming the URL and why. */
function exchange(
  params: OAuth2Params,
  held: Token | undefined,
  services: AuthServices,
): Promise<Token> {
  const grant = held?.refreshToken ? "refresh_token" : params.grant;
  const endpoint = { url: params.url, grant, name: "token", key: "token_url" } as const;
  return postForm(
    tokenRequest(params, held),
    endpoint,
    services,
    (response) => tokenOf(response, endpoint, held, services),
  );
}
