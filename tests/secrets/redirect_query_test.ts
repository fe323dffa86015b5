/**
 * A server can hand a credential over in the URL it redirects to: an OAuth implicit grant's
 * `Location: …/cb#access_token=…`, a login's `303 See Other` to `/home?session_id=…`, a magic link's
 * `?token=…`. A URL's password in a `Location` was a secret, but its query and fragment were not
 * read: the token was written in clear in the console, every report and the HAR, and, where the
 * redirect was followed, wherever the next page echoed it. A parameter of a `Location` or
 * `Content-Location` URL, in its query or its fragment, whose name looks secret is now a secret
 * the moment the response arrives, as the same field of a form body is; the others (`state`,
 * `token_type`) stay readable.
 */
import assert from "node:assert/strict";
import { noLeak, runFlowWithHar } from "./short_secret_artifacts.ts";

const TOKEN = "Tk9f2mQ7rX4vB8nLzz";
const SESSION = "Se55ionQ4z7w";
const SHORT = "k7q2z";

/** Redirects with credentials in the query and the fragment; `/home` echoes its query. */
function start(): { base: string; close: () => Promise<void> } {
  const srv = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    const to = (location: string, status = 302) =>
      new Response(null, { status, headers: { location } });
    switch (url.pathname) {
      case "/authorize":
        return to(`${url.origin}/cb?state=s1#access_token=${TOKEN}&token_type=bearer`);
      case "/login":
        return to(`/home?session_id=${SESSION}&user=ann`, 303);
      case "/magic":
        return new Response("{}", { headers: { "content-location": `/in?auth_token=${SHORT}` } });
    }
    return Response.json({ query: url.search }, { status: 500 });
  });
  return { base: `http://127.0.0.1:${srv.addr.port}`, close: () => srv.shutdown() };
}

const FLOW = `name: redirects
steps:
  - name: authorize
    request: {url: "\${ENV.BASE_URL}/authorize"}
    assert: {status: 200}
  - name: login
    always: true
    options: {follow_redirects: true}
    request: {url: "\${ENV.BASE_URL}/login"}
    assert: {status: 200}
  - name: magic
    always: true
    request: {url: "\${ENV.BASE_URL}/magic"}
    assert: {status: 201}
`;

Deno.test("a credential a server hands over in a redirect's URL shows in no artifact", async () => {
  const srv = start();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-redirect-query-" });
  try {
    const w = await runFlowWithHar(FLOW, dir, { BASE_URL: srv.base });
    assert.equal(w.code, 1, w.console);
    noLeak({ ...w, texts: [...w.texts, w.har] }, [TOKEN, SESSION, SHORT]);
    // The rest of each URL stays readable.
    assert.match(
      w.console,
      /location: http:\/\/127\.0\.0\.1:\d+\/cb\?state=s1#access_token=\*\*\*&token_type=bearer/,
    );
    assert.match(w.console, /\{"query":"\?session_id=\*\*\*&user=ann"\}/);
    assert.match(w.console, /content-location: \/in\?auth_token=\*\*\*/);
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
