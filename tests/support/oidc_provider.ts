/**
 * Independent OAuth2 servers for the interop tests, run in the test's own
 * process on 127.0.0.1, port 0: panva's oidc-provider (a certified OpenID
 * provider; client_credentials, refresh_token and RFC 8628's device flow,
 * clients authenticated as registered) with a resource server of our own that
 * accepts a token only when the provider's introspection endpoint says it is
 * active; and a person's browser approving a device through the provider's
 * own pages. Test-only: oidc-provider is imported by no lib/, cli/ or mod.ts file.
 */
import Provider from "oidc-provider";
import { createServer } from "node:http";

/**
 * A secret with characters RFC 6749 §2.3.1 form-encodes before Basic (`+/=:`,
 * a space); only printable ASCII, as OAuth2 allows and the provider checks.
 */
export const CLIENT_SECRET = "s3cr3t+/=: SECRET";
const RS_SECRET = "rs-introspection-secret";
const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

/** What the provider saw at its token endpoint: each grant and how it ended. */
export interface TokenEvent {
  grant: string;
  client: string;
  ok: boolean;
  /** Where the client's secret came: an `Authorization: Basic` header or the form body. */
  via: "basic" | "body" | "none";
  error?: string;
}

/** A running oidc-provider and a resource server that introspects each bearer token. */
export interface Idp {
  issuer: string;
  /** The protected API: GET /me answers the token's introspection, 401 for a dead token. */
  api: string;
  tokens: TokenEvent[];
  /** Each API request: the introspected token's `active` and its client. */
  calls: { active: boolean; client?: string; scope?: string }[];
  close(): Promise<void>;
}

/**
 * Tokens live `ttlSeconds` (access and client credentials tokens alike);
 * with `revokeFirst`, the first token the API accepts is revoked at the
 * provider right after, as an administrator would, so its next use is a 401.
 */
export async function startIdp(ttlSeconds = 3600, revokeFirst = false): Promise<Idp> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", () => done()));
  const issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const client = (id: string, method: string) => ({
    client_id: id,
    client_secret: CLIENT_SECRET,
    token_endpoint_auth_method: method,
    grant_types: ["client_credentials", "refresh_token", DEVICE_GRANT],
    redirect_uris: [],
    response_types: [],
    scope: "openid offline_access api:read",
  });
  const provider = new Provider(issuer, {
    clients: [
      client("app", "client_secret_basic"),
      client("app-post", "client_secret_post"),
      {
        client_id: "rs",
        client_secret: RS_SECRET,
        grant_types: [],
        redirect_uris: [],
        response_types: [],
      },
    ],
    scopes: ["openid", "offline_access", "api:read"],
    features: {
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      revocation: { enabled: true },
      deviceFlow: { enabled: true },
      devInteractions: { enabled: true },
    },
    ttl: {
      AccessToken: ttlSeconds,
      ClientCredentials: ttlSeconds,
      DeviceCode: 60,
      RefreshToken: 600,
      Grant: 600,
      Interaction: 600,
      Session: 600,
      IdToken: 600,
    },
  });
  const tokens: TokenEvent[] = [];
  // deno-lint-ignore no-explicit-any
  const event = (ok: boolean) => (ctx: any, error?: { error?: string }) =>
    tokens.push({
      grant: ctx.oidc?.params?.grant_type ?? "?",
      client: ctx.oidc?.client?.clientId ?? "?",
      ok,
      via: ctx.headers?.authorization ? "basic" : ctx.oidc?.params?.client_secret ? "body" : "none",
      ...(error?.error ? { error: error.error } : {}),
    });
  provider.on("grant.success", event(true));
  provider.on("grant.error", event(false));
  server.on("request", provider.callback());
  const calls: Idp["calls"] = [];
  const api = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const token = /^Bearer (.+)$/.exec(req.headers.get("authorization") ?? "")?.[1] ?? "";
    const answer = await fetch(`${issuer}/token/introspection`, {
      method: "POST",
      headers: {
        authorization: `Basic ${btoa(`rs:${RS_SECRET}`)}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ token }),
    });
    const info = await answer.json();
    calls.push({ active: info.active === true, client: info.client_id, scope: info.scope });
    if (revokeFirst && calls.length === 1 && info.active === true) {
      const revoked = await fetch(`${issuer}/token/revocation`, {
        method: "POST",
        headers: {
          authorization: `Basic ${btoa(`${info.client_id}:${encodeURIComponent(CLIENT_SECRET)}`)}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ token }),
      });
      await revoked.body?.cancel();
      if (!revoked.ok) throw new Error(`The provider did not revoke the token: ${revoked.status}`);
    }
    if (info.active !== true) {
      return Response.json({ error: "invalid_token" }, {
        status: 401,
        headers: { "www-authenticate": 'Bearer error="invalid_token"' },
      });
    }
    return Response.json({ client_id: info.client_id, scope: info.scope, sub: info.sub ?? null });
  });
  return {
    issuer,
    api: `http://127.0.0.1:${api.addr.port}`,
    tokens,
    calls,
    async close() {
      await api.shutdown();
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    },
  };
}

/**
 * One HTML form of a page: where it posts and its fields, as a browser would
 * submit them; a button named `press` that the page has adds its name and value,
 * as clicking it would.
 */
function firstForm(html: string, base: string, fill: Record<string, string>, press?: string) {
  const form = /<form[^>]*>[\s\S]*?<\/form>/i.exec(html)?.[0];
  if (!form) return undefined;
  const attr = (tag: string, name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];
  const open = /<form[^>]*>/i.exec(form)![0];
  const body = new URLSearchParams();
  for (const input of form.match(/<input[^>]*>/gi) ?? []) {
    const name = attr(input, "name");
    if (name) body.append(name, fill[name] ?? attr(input, "value") ?? "");
  }
  for (const button of html.match(/<button[^>]*>/gi) ?? []) {
    if (press && attr(button, "name") === press) body.append(press, attr(button, "value") ?? "");
  }
  return {
    url: new URL(attr(open, "action") ?? base, base).href,
    method: (attr(open, "method") ?? "GET").toUpperCase(),
    body,
  };
}

/**
 * Approves a device as a person would in a browser: opens the verification
 * page, types the user code, confirms, signs in and consents on the
 * provider's own pages (each form as the page writes it, its cookies kept, at
 * most 20 pages); with `press: "abort"`, the person clicks the confirmation
 * page's Abort button instead. Returns each page visited and the last page's text.
 */
export async function approveDevice(
  verificationUri: string,
  userCode: string,
  press?: "abort",
): Promise<{ pages: string[]; last: string }> {
  const jar = new Map<string, string>();
  const fill = { user_code: userCode, login: "alice", password: "any" };
  const pages: string[] = [];
  let next: { url: string; method: string; body?: URLSearchParams } | undefined = {
    url: verificationUri,
    method: "GET",
  };
  for (let page = 0; page < 20 && next; page++) {
    const response: Response = await fetch(next.url, {
      method: next.method,
      body: next.body,
      redirect: "manual",
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      jar.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
    }
    const text = await response.text();
    pages.push(`${next.method} ${new URL(next.url).pathname} ${response.status}`);
    const location = response.headers.get("location");
    if (location) {
      next = { url: new URL(location, next.url).href, method: "GET" };
      continue;
    }
    // A page without a form ends it, and so does the page after the button was pressed.
    const pressed = press !== undefined && next.body?.has(press) === true;
    const form = firstForm(text, next.url, fill, press);
    if (!form || pressed) return { pages, last: text };
    next = form;
  }
  throw new Error(`The device approval did not end within 20 pages: ${pages.join(", ")}`);
}
