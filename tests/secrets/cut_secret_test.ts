/**
 * A message quoting a long text the server or a program gave keeps its first 300 characters. A
 * secret standing across that cut was shown by its beginning: the redactor masks a secret's
 * beginning only where the text says it was cut (`…` after it), or from 16 of its characters.
 * A text cut now ends in `…`, so the secret's beginning is masked with it, in every artifact.
 */
import assert from "node:assert/strict";
import { noLeak, runWritten } from "./short_secret_artifacts.ts";

const DENO = Deno.execPath();
const SECRET = "Corr3ctHorseBatteryStaple";

Deno.test("a program's stderr cut at 300 characters never shows a secret's beginning", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-cut-secret-" });
  try {
    // 290 characters, a space, then the secret: the cut keeps its first nine.
    const script = "console.error('x'.repeat(290), Deno.args[0]); Deno.exit(3)";
    await Deno.writeTextFile(
      `${dir}/cut.yaml`,
      `name: cut
auth:
  bearer:
    command: ["${DENO}", eval, "${script}", "\${ENV.PASSWORD_1}"]
steps:
  - name: get
    request: {url: "http://127.0.0.1:9/items"}
`,
    );
    const w = await runWritten([`${dir}/cut.yaml`], dir, { PASSWORD_1: SECRET }, [
      "--allow-commands",
    ], ["--allow-run"]);
    assert.equal(w.code, 1, w.console);
    const message = String(w.report.flows[0].steps[0].message);
    assert.match(message, /exited with code 3: x{290} \*\*\*…$/, message);
    noLeak(w, [SECRET.slice(0, 9), SECRET.slice(0, 5)]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a token endpoint's error description cut at 300 characters never shows a secret's beginning", async () => {
  // The endpoint quotes the client secret after 290 characters of its own.
  const srv = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const secret = new URLSearchParams(await req.text()).get("client_secret");
    const error_description = `${"y".repeat(290)} ${secret}`;
    return Response.json({ error: "invalid_client", error_description }, { status: 400 });
  });
  const dir = await Deno.makeTempDir({ prefix: "flowrun-cut-secret-" });
  try {
    const base = `http://127.0.0.1:${srv.addr.port}`;
    await Deno.writeTextFile(
      `${dir}/token.yaml`,
      `name: token
auth:
  oauth2:
    grant_type: client_credentials
    token_url: "${base}/token"
    client_id: app
    client_secret: "\${ENV.PASSWORD_1}"
    client_auth: body
steps:
  - name: get
    request: {url: "${base}/items"}
`,
    );
    const w = await runWritten([`${dir}/token.yaml`], dir, { PASSWORD_1: SECRET });
    assert.equal(w.code, 1, w.console);
    const message = String(w.report.flows[0].steps[0].message);
    assert.match(message, /invalid_client \(y{290} \*\*\*…\)\.$/, message);
    noLeak(w, [SECRET.slice(0, 9), SECRET.slice(0, 5)]);
  } finally {
    await srv.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
