/**
 * A cookie the flow writes as a constant beside the session an expression brings is the flow's
 * own text (issue 52, class 6): `convert har` writes `cookie: theme=dark; ${ENV.SESSION_COOKIE}`,
 * having asked only for the session, and the run masked `dark` (and an analytics id) in every
 * report and in every body that said it. The session, a cookie header written wholly as a
 * constant (a session the user typed) and a constant shaped like an issued key stay masked. The
 * flow runs as a CLI subprocess against a server this test starts, and every report is read back.
 */
import assert from "node:assert/strict";
import { runEveryReport } from "../support/run_reports.ts";

const SESSION = "sess-Wq83Lz5d";
const TYPED = "typed-sid-Kp29";
const KEY_SHAPED = "eyJpZCI6ImFiYyJ9Qx";

const FLOW = `name: written cookies
steps:
  - name: with session
    request:
      url: "\${ENV.BASE}/a"
      headers:
        cookie: "theme=dark; _pk_id.1.1fff=0f2c.1732; _hj=${KEY_SHAPED}; sid=\${ENV.SESSION}"
  - name: typed whole
    request:
      url: "\${ENV.BASE}/b"
      headers:
        cookie: "sid=${TYPED}"
    assert:
      json:
        - path: $.json.note
          equals: nothing
`;

function serve() {
  const srv = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) =>
    Response.json({
      got: req.headers.get("cookie"),
      note: "theme dark, visitor 0f2c.1732",
    }));
  return { base: `http://127.0.0.1:${srv.addr.port}`, close: () => srv.shutdown() };
}

/** `text` as each report writes it: raw, JSON-escaped, XML/HTML-escaped. */
function encodings(text: string): string[] {
  const xml = text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
  return [text, JSON.stringify(text).slice(1, -1), xml, xml.replaceAll("&", "&amp;")];
}

Deno.test("constant cookies beside a session from the environment are shown; the session is masked", async () => {
  const srv = serve();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-written-cookie-" });
  try {
    await Deno.writeTextFile(`${dir}/f.yaml`, FLOW);
    const run = await runEveryReport(dir, { BASE: srv.base, SESSION });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const names = ["stdout", "stderr", "json", "junit", "html", "log"];
    for (const [i, output] of run.outputs.entries()) {
      for (const secret of [SESSION, TYPED, KEY_SHAPED]) {
        for (const form of encodings(secret)) {
          assert.ok(!output.includes(form), `${names[i]} shows ${form}:\n${output}`);
        }
      }
      if (names[i] === "stderr") continue;
      // The failed check quotes the server's words: the flow's own cookie values stay readable.
      assert.ok(output.includes("theme dark, visitor 0f2c.1732"), `${names[i]}:\n${output}`);
    }
    const sent = JSON.stringify(run.report.flows[0].steps[0].request);
    assert.match(sent, /theme=dark; _pk_id\.1\.1fff=0f2c\.1732; _hj=\*\*\*; sid=\*\*\*/, sent);
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
