/**
 * A base64 token holds `+`, and a server that writes it into a URL unencoded
 * (`Location: /land?code=Qm8+vZ3/…`) hands it to a reader that takes `+` in a query for a space, as
 * every form decoder does: the next page echoes `Qm8 vZ3/kT9xRw2 pL7/nA==`. The redactor knew the
 * token, its percent-encoded and base64 forms, but not this one, so the echo showed in every
 * artifact. A secret holding `+` is now also masked with each `+` read as a space.
 */
import assert from "node:assert/strict";
import { noLeak, runFlowWithHar } from "./short_secret_artifacts.ts";

const TOKEN = "Qm8+vZ3/kT9xRw2+pL7/nA==";

/** Issues the token, redirects with it unencoded in a query, echoes the query as decoded. */
function start(): { base: string; close: () => Promise<void> } {
  const srv = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/login") return Response.json({ token: TOKEN });
    if (url.pathname === "/go") {
      return new Response(null, { status: 302, headers: { location: `/land?code=${TOKEN}` } });
    }
    return Response.json({ code: url.searchParams.get("code") }, { status: 500 });
  });
  return { base: `http://127.0.0.1:${srv.addr.port}`, close: () => srv.shutdown() };
}

const FLOW = `name: plus
steps:
  - name: login
    request: {url: "\${ENV.BASE_URL}/login"}
  - name: go
    options: {follow_redirects: true}
    request: {url: "\${ENV.BASE_URL}/go"}
    assert: {status: 200}
`;

Deno.test("a token whose + a server read as a space shows in no artifact", async () => {
  const srv = start();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-plus-space-" });
  try {
    const w = await runFlowWithHar(FLOW, dir, { BASE_URL: srv.base });
    assert.equal(w.code, 1, w.console);
    noLeak({ ...w, texts: [...w.texts, w.har] }, [TOKEN, TOKEN.replaceAll("+", " ")]);
    assert.match(w.console, /\{"code":"\*\*\*"\}/);
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
