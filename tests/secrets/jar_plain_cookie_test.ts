/**
 * A preference the server sets beside its session (`Set-Cookie: theme=dark`) and the cookie jar
 * sends back is data, as it was when it arrived: the `Set-Cookie` rule (set_cookie.ts) masks the
 * session and shows the preference. The request that sent them back registered every cookie of
 * its `Cookie` header, so from then on `theme=***` in every report, and the word `dark` wherever
 * it stood. A cookie the jar sends was judged when it arrived; only what the flow itself writes
 * in a `Cookie` header is registered when sent. Every way the jar sends: a step's request, and
 * each hop of a redirect it follows, authorised anew (a bearer token, masked). The flow runs as a CLI subprocess against a server this test
 * starts, and every report is read back in its encoding.
 */
import assert from "node:assert/strict";
import { runEveryReport } from "../support/run_reports.ts";

const SESSION = "Wq83Lz5dKp29Xv71";

/**
 * What the jar sent is echoed by a step's own request and by the hop of a redirect; the last
 * check fails on purpose, to quote the echo in every report.
 */
const FLOW = `name: jar cookies
options: { cookie_jar: true }
steps:
  - name: login
    request: { url: "\${ENV.BASE}/login" }
  - name: echo
    request: { url: "\${ENV.BASE}/headers" }
  - name: hop
    request: { url: "\${ENV.BASE}/hop" }
    options: { follow_redirects: true }
    auth: { bearer: { token: "\${ENV.TOKEN}" } }
    assert:
      json:
        - { path: "$.json.headers.Cookie", equals: nothing }
`;

/** `/login` sets the session and the preference; `/hop` redirects to `/headers`, which echoes. */
function serve() {
  const srv = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/login") {
      const headers = new Headers();
      headers.append("set-cookie", `session=${SESSION}; Path=/; HttpOnly`);
      headers.append("set-cookie", "theme=dark; Path=/");
      return new Response("{}", { headers });
    }
    if (path === "/hop") {
      const headers = new Headers({ location: "/headers" });
      headers.append("set-cookie", "lang=en; Path=/");
      return new Response(null, { status: 302, headers });
    }
    return Response.json({ headers: { Cookie: req.headers.get("cookie") ?? "" } });
  });
  return { base: `http://127.0.0.1:${srv.addr.port}`, close: () => srv.shutdown() };
}

/** `text` as each report writes it: raw, JSON-escaped, XML/HTML-escaped. */
function encodings(text: string): string[] {
  const xml = text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
  return [text, JSON.stringify(text).slice(1, -1), xml, xml.replaceAll("&", "&amp;")];
}

Deno.test("the jar's plain cookies stay shown once sent; the session it sends stays masked", async () => {
  const srv = serve();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-jar-cookie-" });
  try {
    await Deno.writeTextFile(`${dir}/f.yaml`, FLOW);
    const run = await runEveryReport(dir, { BASE: srv.base, TOKEN: "t-Zk41Nq8s" });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const names = ["stdout", "stderr", "json", "junit", "html", "log"];
    for (const [i, output] of run.outputs.entries()) {
      for (const form of [...encodings(SESSION), "t-Zk41Nq8s"]) {
        assert.ok(!output.includes(form), `${names[i]} shows ${form}:\n${output}`);
      }
      if (names[i] === "stderr") continue;
      // The step's own request, and the redirect's hop with the cookie the hop set.
      assert.ok(output.includes("session=***; theme=dark"), `${names[i]}:\n${output}`);
      assert.ok(output.includes("lang=en"), `${names[i]}:\n${output}`);
      assert.ok(!/theme=\*\*\*|lang=\*\*\*/.test(output), `${names[i]} masks too much:\n${output}`);
    }
    // What each request sent, as the JSON report keeps it: the session masked, the rest shown.
    for (const step of run.report.flows[0].steps.slice(1)) {
      const headers = JSON.stringify(step.request.headers);
      assert.match(headers, /session=\*\*\*; theme=dark/, headers);
    }
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
