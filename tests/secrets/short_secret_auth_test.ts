/**
 * A token request that fails stops the step in flowrun's words around what it quotes:
 * `The OAuth2 token request to <url> failed: it answered 400 invalid_client (<description>).`
 * With short secrets that are those very words (passwords `request`, `failed`) and a token URL
 * and an answer that quote them, the values (the URL, the status, the server's `error` and
 * `error_description`) are masked where the message is made and flowrun's words are not, in
 * every artifact, also when the flow runs on a worker thread.
 */
import assert from "node:assert/strict";
import { noLeak, runWritten, saidEverywhere } from "./short_secret_artifacts.ts";

/** A token endpoint that refuses every client, quoting the tenant it was asked for. */
function start(): { base: string; close: () => Promise<void> } {
  const srv = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const tenant = new URL(req.url).searchParams.get("tenant");
    const error_description = `tenant ${tenant} is unknown`;
    return Response.json({ error: "invalid_client", error_description }, { status: 400 });
  });
  return { base: `http://127.0.0.1:${srv.addr.port}`, close: () => srv.shutdown() };
}

const FLOW = `name: token
auth:
  oauth2:
    grant_type: client_credentials
    token_url: "\${ENV.BASE}/token?tenant=\${ENV.PASSWORD_1}"
    client_id: app
    client_secret: "\${ENV.PASSWORD_2}"
steps:
  - name: get
    request: {url: "\${ENV.BASE}/items"}
`;

const ENV = { PASSWORD_1: "request", PASSWORD_2: "failed" };

for (const workers of ["1", "2"]) {
  Deno.test(`a token request's error keeps its words from a short secret (--workers ${workers})`, async () => {
    const srv = start();
    const dir = await Deno.makeTempDir({ prefix: "flowrun-short-auth-" });
    try {
      // Two flows, so that with two workers one of them runs on a worker thread.
      const files = [`${dir}/a.yaml`, `${dir}/b.yaml`];
      for (const file of files) await Deno.writeTextFile(file, FLOW);
      const args = ["--workers", workers, "--jobs", "2"];
      const w = await runWritten(files, dir, { ...ENV, BASE: srv.base }, args);
      assert.equal(w.code, 1, w.console);
      const said = `The OAuth2 token request to ${srv.base}/token?tenant=*** failed: it answered ` +
        "400 invalid_client (tenant *** is unknown).";
      // The token request's own entry (the first flow's) and each step that needed the token.
      const steps = w.report.flows.flatMap((f) => f.steps);
      assert.ok(steps.some((s) => s.name === "auth › oauth2 token"), JSON.stringify(steps));
      assert.deepEqual(steps.map((s) => s.message), steps.map(() => said));
      saidEverywhere(w, [said], { console: false, artifacts: 4 });
      noLeak(w, ["tenant=request", "tenant request"], /token \*\*\*|\*\*\*: it answered/);
    } finally {
      await srv.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}
