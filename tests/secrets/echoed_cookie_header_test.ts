/**
 * A response that echoes the request's `Cookie` header under a `cookie` key (httpbin's
 * `{"headers": {"Cookie": "session=…; theme=dark"}}`) holds the server's session and the
 * flow's or the browser's plain cookies side by side (issue 52, class 6). The value under the
 * key was registered whole, so the echo showed `"Cookie": "***"` and hid `theme=dark` in every
 * report. Read cookie by cookie, as a `Cookie` header is, only the session the server issued is
 * masked: `session=***; theme=dark`, and the `Set-Cookie` lines that set the session and the
 * preference are no longer masked whole either. The flow writes the captured session beside its
 * constant `theme=dark`; the echo is under `Cookie`, `cookie` and `cookies`, and a `Set-Cookie`
 * line's attributes beside a session (`session=…; Path=/`) are not read as cookies. The flow runs as a CLI subprocess against a server this test
 * starts, and every report is read back in its encoding.
 */
import assert from "node:assert/strict";
import { runEveryReport } from "../support/run_reports.ts";

const SESSION = "Wq83Lz5dKp29Xv71";

const CHECKS = `    assert:
      json:
        - { path: "$.json.headers.Cookie", equals: nothing }
        - { path: "$.json.echo.cookie", equals: nothing }
        - { path: "$.json.cookies", equals: nothing }
`;

/** The flow writes the captured session beside its own `theme=dark`. */
const FLOW = `name: echoed cookie header
steps:
  - name: login
    request: { url: "\${ENV.BASE}/login" }
    capture:
      sid: { cookie: session }
  - name: echo
    request:
      url: "\${ENV.BASE}/headers"
      headers:
        cookie: "session=\${steps.login.capture.sid}; theme=dark"
${CHECKS}`;

/** `/login` sets the session (and the preference); `/headers` echoes the Cookie header three ways. */
function serve() {
  const srv = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    if (new URL(req.url).pathname === "/login") {
      const headers = new Headers();
      headers.append("set-cookie", `session=${SESSION}; Path=/; HttpOnly`);
      headers.append("set-cookie", "theme=dark; Path=/");
      return new Response("{}", { headers });
    }
    const cookie = req.headers.get("cookie") ?? "";
    // A Set-Cookie line echoed under a cookie key is no Cookie header: masked whole, as before.
    const set_cookie = `session=${SESSION}; Path=/; Max-Age=60`;
    return Response.json({
      headers: { Cookie: cookie },
      echo: { cookie },
      cookies: cookie,
      set_cookie,
    });
  });
  return { base: `http://127.0.0.1:${srv.addr.port}`, close: () => srv.shutdown() };
}

/** `text` as each report writes it: raw, JSON-escaped, XML/HTML-escaped. */
function encodings(text: string): string[] {
  const xml = text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
  return [text, JSON.stringify(text).slice(1, -1), xml, xml.replaceAll("&", "&amp;")];
}

Deno.test("an echoed cookie header masks only the issued session, in every report", async () => {
  const srv = serve();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-echoed-cookie-" });
  try {
    await Deno.writeTextFile(`${dir}/f.yaml`, FLOW);
    const run = await runEveryReport(dir, { BASE: srv.base });
    // The checks fail on purpose: their messages quote the echo in every report.
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const names = ["stdout", "stderr", "json", "junit", "html", "log"];
    for (const [i, output] of run.outputs.entries()) {
      for (const form of encodings(SESSION)) {
        assert.ok(!output.includes(form), `${names[i]} shows ${form}:\n${output}`);
      }
      if (names[i] === "stderr") continue;
      // The echo, as each failed check quotes it: the session masked, the preference shown.
      assert.ok(output.includes("session=***; theme=dark"), `${names[i]}:\n${output}`);
      assert.ok(!output.includes("theme=***"), `${names[i]} masks too much:\n${output}`);
    }
    // The Set-Cookie lines as the JSON report keeps them: the preference shown.
    const got = JSON.stringify(run.report.flows[0].steps[0]);
    assert.match(got, /theme=dark; Path=\//, got);
    // The echoed Set-Cookie line: masked whole, its attributes not read as cookies.
    const body = run.report.flows[0].steps[1].response.body;
    assert.match(body, /"set_cookie":"\*\*\*"/, body);
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
