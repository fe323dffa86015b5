/**
 * The `device_code` grant (RFC 8628) against identity providers the test
 * starts on 127.0.0.1, written in three providers' shapes: the RFC's (400 for
 * "ask again", `slow_down` without a new interval), GitHub's (200 for "ask
 * again", a public client with no secret) and Google's (`verification_url`,
 * `expires_in` as a string, no `interval`). What is sent (the client's
 * credentials, the grant's URN, the device code), the intervals kept, each
 * answer that ends the polling, every failure of the device authorization
 * endpoint, flowrun's own time bound, an interrupt, and the token's refresh.
 */
import assert from "node:assert/strict";
import { parseTemplate } from "../../lib/expr/template.ts";
import type { AuthServices } from "../../lib/http/auth.ts";
import { AuthError } from "../../lib/http/auth_error.ts";
import { oauth2 } from "../../lib/http/oauth2.ts";
import { deviceToken } from "../../lib/http/oauth2_device.ts";
import type { OAuth2Params } from "../../lib/http/oauth2_form.ts";
import { TokenCache, type TokenExchange } from "../../lib/http/token_cache.ts";
import type { OAuth2Auth } from "../../lib/model/auth.ts";
import { HANG_MS } from "../support/timing.ts";

const URN = "urn:ietf:params:oauth:grant-type:device_code";

interface Seen {
  path: string;
  at: number;
  auth: string | null;
  form: URLSearchParams;
}

/** An IdP: `/device` answers `device()`, `/token` the n-th poll with `poll(n, form)`. */
function idp(
  device: () => Response,
  poll: (n: number, form: URLSearchParams) => Response,
) {
  const seen: Seen[] = [];
  let polls = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const form = new URLSearchParams(await req.text());
    seen.push({ path, at: performance.now(), auth: req.headers.get("authorization"), form });
    return path === "/device" ? device() : poll(++polls, form);
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  return {
    base,
    seen,
    polls: () => seen.filter((s) => s.path === "/token"),
    close: () => server.shutdown(),
  };
}

/** What a grant told the run: secrets, lines for a person, exchanges. */
function services(signal?: AbortSignal) {
  const secrets: string[] = [];
  const lines: string[] = [];
  const exchanges: TokenExchange[] = [];
  const s: AuthServices = {
    secret: (v) => void secrets.push(v),
    env: () => undefined,
    timeoutMs: 5000,
    signal,
    notice: (line) => void lines.push(line),
    onExchange: (e) => void exchanges.push(e),
  };
  return { services: s, secrets, lines, exchanges };
}

function params(base: string, more: Partial<OAuth2Params> = {}): OAuth2Params {
  return {
    url: `${base}/token`,
    deviceUrl: `${base}/device`,
    grant: "device_code",
    clientId: "my app",
    clientSecret: "s3cr3t+/",
    clientAuth: "basic",
    fields: [["scope", "read write"], ["audience", "https://api.example"], ["resource", "r-1"]],
    ...more,
  };
}

const DEVICE = {
  device_code: "DEVICE-CODE-SECRET-1",
  user_code: "WDJB-MJHT",
  verification_uri: "https://idp.example/device",
  verification_uri_complete: "https://idp.example/device?user_code=WDJB-MJHT",
  expires_in: 900,
  interval: 1,
};

const rfcError = (error: string, status = 400) =>
  Response.json({ error, error_description: `said ${error}` }, { status });

/** Rejects with an AuthError whose message matches. */
async function rejects(promise: Promise<unknown>, message: RegExp): Promise<AuthError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof AuthError, String(error));
    assert.match(error.message, message);
    return error;
  }
  throw new Error(`expected an AuthError matching ${message}`);
}

Deno.test("the RFC's shape: pending, then a token; the client, the grant's URN and the device code are sent", async () => {
  const server = idp(
    () => Response.json(DEVICE),
    (n) =>
      n === 1 ? rfcError("authorization_pending") : Response.json({
        access_token: "AT-SECRET-1",
        refresh_token: "RT-SECRET-1",
        expires_in: 60,
      }),
  );
  try {
    const run = services();
    const token = await deviceToken(params(server.base), run.services);
    assert.equal(token.accessToken, "AT-SECRET-1");
    assert.equal(token.refreshToken, "RT-SECRET-1");
    const [device, ...polls] = server.seen;
    // §3.1: the client authenticates as at the token endpoint (HTTP Basic, §2.3.1's encoding).
    assert.equal(device.auth, `Basic ${btoa("my+app:s3cr3t%2B%2F")}`);
    assert.deepEqual([...device.form], [
      ["scope", "read write"],
      ["audience", "https://api.example"],
      ["resource", "r-1"],
    ]);
    assert.equal(polls.length, 2);
    for (const poll of polls) {
      assert.deepEqual([...poll.form], [["grant_type", URN], ["device_code", DEVICE.device_code]]);
      assert.equal(poll.auth, device.auth);
    }
    // interval 1: no poll sooner than a second after the answer before it.
    assert.ok(polls[0].at - device.at >= 990, `${polls[0].at - device.at}`);
    assert.ok(polls[1].at - polls[0].at >= 990, `${polls[1].at - polls[0].at}`);
    // One line for a person, with the page, the user code and the bound; never the device code.
    assert.equal(run.lines.length, 1);
    assert.equal(
      run.lines[0],
      "OAuth2 device authorization: to approve, open https://idp.example/device and enter the code " +
        "WDJB-MJHT (or open https://idp.example/device?user_code=WDJB-MJHT); flowrun polls " +
        `${server.base}/token every 1 s for up to 600 s.`,
    );
    for (const secret of ["DEVICE-CODE-SECRET-1", "AT-SECRET-1", "RT-SECRET-1"]) {
      assert.ok(run.secrets.includes(secret), secret);
    }
    // One exchange per request sent, the pending poll marked as such.
    assert.deepEqual(
      run.exchanges.map((
        e,
      ) => [e.endpoint ?? "token", e.grant, e.status, e.pending ?? "", e.error ?? ""]),
      [
        ["device_authorization", "device_code", 200, "", ""],
        ["token", URN, 400, "authorization_pending", ""],
        ["token", URN, 200, "", ""],
      ],
    );
  } finally {
    await server.close();
  }
});

Deno.test("slow_down: the interval grows by 5 s for this and every later poll (RFC 8628 §3.5)", async () => {
  const server = idp(
    () => Response.json(DEVICE),
    (n) => n === 1 ? rfcError("slow_down") : Response.json({ access_token: "AT-SLOW" }),
  );
  try {
    const run = services();
    const token = await deviceToken(params(server.base), run.services);
    assert.equal(token.accessToken, "AT-SLOW");
    const [first, second] = server.polls();
    const gap = second.at - first.at;
    // 1 s + 5 s: timers never fire early, and a loaded machine fires them late, so the upper
    // bound only tells 6 s from the next wrong answer (5 s added twice: 11 s).
    assert.ok(gap >= 5990 && gap < 10_000, `${gap}`);
    assert.equal(run.exchanges[1].pending, "slow_down");
  } finally {
    await server.close();
  }
});

Deno.test("GitHub's shape: 'ask again' answered with 200, a public client sends its id in the body", async () => {
  const server = idp(
    () =>
      Response.json({
        device_code: "GH-DEVICE-SECRET",
        user_code: "ABCD-1234",
        verification_uri: "https://github.com/login/device",
        expires_in: 899,
        interval: 1,
      }),
    (n) =>
      n === 1
        ? Response.json({
          error: "authorization_pending",
          error_description: "The authorization request is still pending.",
          error_uri: "https://docs.github.com/developers/apps/authorizing-oauth-apps",
        })
        : Response.json({ access_token: "gho_SECRET", token_type: "bearer", scope: "repo" }),
  );
  try {
    const run = services();
    const p = params(server.base, { clientSecret: undefined, fields: [["scope", "repo"]] });
    const token = await deviceToken(p, run.services);
    assert.equal(token.accessToken, "gho_SECRET");
    assert.equal(token.renewAt, undefined);
    const [device, ...polls] = server.seen;
    assert.equal(device.auth, null);
    assert.deepEqual([...device.form], [["scope", "repo"], ["client_id", "my app"]]);
    assert.deepEqual([...polls[0].form], [
      ["grant_type", URN],
      ["device_code", "GH-DEVICE-SECRET"],
      ["client_id", "my app"],
    ]);
    assert.equal(polls.length, 2);
    assert.match(
      run.lines[0],
      /open https:\/\/github\.com\/login\/device and enter the code ABCD-1234;/,
    );
    assert.deepEqual(run.exchanges.map((e) => e.pending), [
      undefined,
      "authorization_pending",
      undefined,
    ]);
  } finally {
    await server.close();
  }
});

Deno.test("Google's shape: verification_url, expires_in as a string, no interval (5 s)", async () => {
  const server = idp(
    () =>
      Response.json({
        device_code: "AH-GOOGLE-DEVICE-SECRET",
        user_code: "GQVQ-JKEC",
        verification_url: "https://www.google.com/device",
        expires_in: "1800",
      }),
    () => Response.json({ access_token: "ya29.SECRET", expires_in: 3599, token_type: "Bearer" }),
  );
  try {
    const run = services();
    const token = await deviceToken(params(server.base, { clientAuth: "body" }), run.services);
    assert.equal(token.accessToken, "ya29.SECRET");
    const [device, poll] = server.seen;
    const waited = poll.at - device.at;
    // 5 s; a loaded machine fires timers late, so the upper bound only tells it from 10 s.
    assert.ok(waited >= 4990 && waited < 9_000, `${waited}`);
    // expires_in "1800" is more than flowrun waits: the line says 600 s.
    assert.match(
      run.lines[0],
      /open https:\/\/www\.google\.com\/device and enter the code GQVQ-JKEC; .* every 5 s for up to 600 s\.$/,
    );
    assert.deepEqual([...device.form].map(([k]) => k), [
      "scope",
      "audience",
      "resource",
      "client_id",
      "client_secret",
    ]);
  } finally {
    await server.close();
  }
});

Deno.test("access_denied and expired_token end the polling with the answer quoted", async () => {
  const cases: [string, RegExp][] = [
    [
      "access_denied",
      /^The OAuth2 device authorization was denied: the token request to http:\/\/127\.0\.0\.1:\d+\/token answered 400 access_denied \(said access_denied\) after 2 polls over \d+ s: the person asked to approve the device refused it\.$/,
    ],
    [
      "expired_token",
      /^The OAuth2 device code expired before it was approved: the token request to .*\/token answered 400 expired_token \(said expired_token\) after 2 polls over \d+ s\./,
    ],
  ];
  for (const [error, message] of cases) {
    const server = idp(
      () => Response.json(DEVICE),
      (n) => rfcError(n === 1 ? "authorization_pending" : error),
    );
    try {
      const run = services();
      await rejects(deviceToken(params(server.base), run.services), message);
      assert.equal(server.polls().length, 2);
      assert.equal(run.exchanges.at(-1)?.error?.includes(error), true);
      assert.ok(!run.exchanges.some((e) => e.error?.includes("DEVICE-CODE-SECRET")));
    } finally {
      await server.close();
    }
  }
});

Deno.test("a device authorization endpoint's failures: 4xx, 5xx, not JSON, too large, no device_code, a redirect", async () => {
  const cases: [string, () => Response, RegExp][] = [
    [
      "4xx",
      () => rfcError("invalid_client", 401),
      /device authorization request to .*\/device failed: it answered 401 invalid_client \(said invalid_client\)\.$/,
    ],
    ["5xx", () => new Response("upstream down", { status: 503 }), /failed: it answered 503\.$/],
    [
      "not JSON",
      () => new Response("<html>sign in</html>", { headers: { "content-type": "text/html" } }),
      /failed: it answered 200 with a body that is not a JSON object \(text\/html\)\.$/,
    ],
    [
      "too large",
      () => Response.json({ ...DEVICE, padding: "x".repeat(70_000) }),
      /failed: its answer is larger than the 64 KiB a device authorization response may be\.$/,
    ],
    [
      "no device_code",
      () => Response.json({ user_code: "X", error: "unsupported_grant_type" }),
      /failed: it answered 200 without a device_code unsupported_grant_type\.$/,
    ],
    [
      "a redirect",
      () =>
        new Response(null, { status: 307, headers: { location: "https://elsewhere.test/dev" } }),
      /does not follow a device authorization endpoint's redirects .*: set device_authorization_url to https:\/\/elsewhere\.test\/dev\.$/,
    ],
  ];
  for (const [what, device, message] of cases) {
    const server = idp(device, () => Response.json({ access_token: "never" }));
    try {
      const run = services();
      await rejects(deviceToken(params(server.base), run.services), message);
      assert.equal(server.polls().length, 0, what);
      assert.equal(run.lines.length, 0, what);
      assert.equal(run.exchanges.length, 1, what);
      assert.equal(run.exchanges[0].endpoint, "device_authorization", what);
      assert.match(run.exchanges[0].error ?? "", message, what);
    } finally {
      await server.close();
    }
  }
  // Nothing listens.
  const run = services();
  await rejects(
    deviceToken(params("http://127.0.0.1:9"), run.services),
    /^The OAuth2 device authorization request to http:\/\/127\.0\.0\.1:9\/device got no response: /,
  );
});

Deno.test("flowrun stops polling by itself when the device code's expires_in runs out", async () => {
  const server = idp(
    () => Response.json({ ...DEVICE, expires_in: 2 }),
    () => rfcError("authorization_pending"),
  );
  try {
    const run = services();
    // Its own sentence says it stopped at the expiry (polled once or twice over 1 to 2 s), and
    // no poll went out after it: counted, not timed.
    await rejects(
      deviceToken(params(server.base), run.services),
      /^The OAuth2 device code was not approved in time: flowrun polled .*\/token [12] times? over [12] s, until the device code's expires_in of 2 s ran out, and it never gave a token\. Approve the device at https:\/\/idp\.example\/device \(code WDJB-MJHT\) within that time\.$/,
    );
    assert.ok(server.polls().length <= 2, `${server.polls().length} polls`);
    assert.match(run.lines[0], /for up to 2 s\.$/);
  } finally {
    await server.close();
  }
});

Deno.test("an interrupt stops the polling at once, between polls", async () => {
  // Polls 5 s apart: the abort, 500 ms after the first poll, lands in the wait on any machine.
  const server = idp(
    () => Response.json({ ...DEVICE, interval: 5 }),
    () => rfcError("authorization_pending"),
  );
  const controller = new AbortController();
  try {
    const run = services(controller.signal);
    const pending = deviceToken(params(server.base), run.services);
    for (let i = 0; i < HANG_MS / 20 && server.polls().length < 1; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, 500));
    controller.abort("SIGINT");
    // Not stopped, it would poll on for the code's 900 s: a minute tells that from slowness.
    let hang: ReturnType<typeof setTimeout> | undefined;
    const guard = new Promise<never>((_, reject) => {
      hang = setTimeout(() => reject(new Error("the interrupt did not stop the polling")), HANG_MS);
    });
    await rejects(
      Promise.race([pending, guard]),
      /^The OAuth2 device authorization was interrupted \(SIGINT\) while it waited for approval, after 1 poll of http:\/\/127\.0\.0\.1:\d+\/token\.$/,
    );
    clearTimeout(hang);
    assert.equal(server.polls().length, 1);
  } finally {
    await server.close();
  }
});

Deno.test("through the oauth2 kind: the token is cached, renewed with its refresh token, not a new device code", async () => {
  let issued = 0;
  const server = idp(
    () => Response.json(DEVICE),
    (_n, form) => {
      issued++;
      const refresh = form.get("grant_type") === "refresh_token";
      return Response.json({
        access_token: `AT-${issued}`,
        // 1 s: renewed 500 ms early.
        expires_in: 1,
        refresh_token: refresh ? `RT-${issued}` : "RT-FIRST",
      });
    },
  );
  try {
    const auth: OAuth2Auth = {
      kind: "oauth2",
      grantType: "device_code",
      tokenUrl: parseTemplate(`${server.base}/token`),
      deviceAuthorizationUrl: parseTemplate(`${server.base}/device`),
      clientId: parseTemplate("app"),
      clientAuth: "basic",
      extra: [],
    };
    const run = services();
    const tokens = new TokenCache();
    const handler = () => oauth2(auth, (t) => t.source, { ...run.services, tokens });
    const header = async () => {
      const request = { method: "GET", url: "http://x.test/", headers: [] as [string, string][] };
      await handler().apply(request);
      return request.headers[0][1];
    };
    const [a, b] = await Promise.all([header(), header()]);
    assert.deepEqual([a, b], ["Bearer AT-1", "Bearer AT-1"]);
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(await header(), "Bearer AT-2");
    const grants = server.seen.map((s) =>
      s.path === "/device" ? "device" : s.form.get("grant_type")
    );
    assert.deepEqual(grants, ["device", URN, "refresh_token"]);
    assert.equal(server.seen[2].form.get("refresh_token"), "RT-FIRST");
    assert.equal(run.lines.length, 1);
  } finally {
    await server.close();
  }
});
