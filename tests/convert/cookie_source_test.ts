/**
 * A value that a response hands out both in a cookie and in its body (a
 * double-submit CSRF token in a `<meta>` and a cookie, or in a JSON login
 * answer and a cookie) is sent from the body, and only the `Cookie` header
 * from the cookie: servers percent-encode a cookie whose value holds `+`, `/`
 * or `=`, so the two are equal in a recording only when the recorded token
 * happened to need no encoding. Formapp (convert_formapp_test.ts) is the
 * server-rendered case; this is a JSON API (Angular-style `XSRF-TOKEN`).
 */
import assert from "node:assert/strict";
import { convertHar } from "../../lib/convert/har.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { runFlows } from "../../lib/run/flows.ts";
import "../support/engines.ts";

/** An API whose login answers the CSRF token and sets it, percent-encoded, as a cookie. */
function startApi(token: string) {
  const sid = crypto.randomUUID().replaceAll("-", "");
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    await req.body?.cancel();
    if (path === "/api/login") {
      const headers = new Headers({ "content-type": "application/json" });
      headers.append("set-cookie", `sid=${sid}; Path=/; HttpOnly`);
      headers.append("set-cookie", `XSRF-TOKEN=${encodeURIComponent(token)}; Path=/`);
      return new Response(JSON.stringify({ user: "ann", csrf_token: token }), { headers });
    }
    const cookie = req.headers.get("cookie") ?? "";
    const ok = cookie.includes(`sid=${sid}`) &&
      cookie.includes(`XSRF-TOKEN=${encodeURIComponent(token)}`) &&
      req.headers.get("x-xsrf-token") === token;
    return Response.json(ok ? { saved: true } : { error: "csrf" }, { status: ok ? 200 : 403 });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

const entry = (
  url: string,
  body: unknown,
  headers: { name: string; value: string }[],
  setCookies: string[] = [],
) => ({
  startedDateTime: "2026-11-25T10:00:00.000Z",
  request: {
    method: "POST",
    url,
    headers: [{ name: "content-type", value: "application/json" }, ...headers],
    postData: { mimeType: "application/json", text: "{}" },
  },
  response: {
    status: 200,
    headers: setCookies.map((value) => ({ name: "set-cookie", value })),
    content: { mimeType: "application/json", text: JSON.stringify(body) },
  },
  _resourceType: "fetch",
});

Deno.test("a token handed out in a JSON body and a cookie is sent from the body", async () => {
  // Recorded: a token that needed no encoding, so the cookie's text equals the body's.
  const recorded = "Qm9vaz1hYmNkZWZnaGlqa2xt";
  const base = "http://127.0.0.1:8799";
  const har = JSON.stringify({
    log: {
      entries: [
        entry(`${base}/api/login`, { user: "ann", csrf_token: recorded }, [], [
          `sid=0123456789abcdef0123456789abcdef; Path=/; HttpOnly`,
          `XSRF-TOKEN=${recorded}; Path=/`,
        ]),
        entry(`${base}/api/settings`, { saved: true }, [
          { name: "x-xsrf-token", value: recorded },
          {
            name: "cookie",
            value: `sid=0123456789abcdef0123456789abcdef; XSRF-TOKEN=${recorded}`,
          },
        ]),
      ],
    },
  });
  const { yaml } = convertHar(har);
  assert.match(yaml, /x-xsrf-token: \$\{steps\.login\.capture\.csrf_token\}/, yaml);
  assert.match(yaml, /XSRF-TOKEN=\$\{steps\.login\.capture\.xsrf_token\}/, yaml);
  assert.ok(!yaml.includes(recorded), yaml);

  // A fresh instance's token holds `+`, `/` and `=`: its cookie is percent-encoded.
  const app = startApi("a+b/c=d+e/f=g+h/i=j+k/");
  try {
    const env = (name: string) => name === "BASE_URL" ? app.origin : undefined;
    const loaded = loadFlow(yaml, "flow.yaml", { env });
    assert.deepEqual(loaded.problems, [], yaml);
    const result = await runFlows([loaded.flow!], { env, runId: "r", jobs: 1 });
    assert.equal(result.status, "passed", `${JSON.stringify(result.flows[0].steps)}\n${yaml}`);
  } finally {
    await app.close();
  }
});
