/**
 * `{header: location, query: code}` captures one query parameter of the URL
 * a header holds, decoded: how a flow takes an OAuth authorization code (and
 * its `state`) from the provider's redirect, which holds no body to search.
 * Run by the CLI against a real server; bad maps are load problems.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const CODE = "c+/ode=Ä&x";

Deno.test("a header's query parameter is captured decoded and sent on", async () => {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/consent") {
      const to = new URL("http://spa.invalid/callback");
      to.searchParams.set("code", CODE);
      to.searchParams.set("state", "s1");
      return new Response(null, { status: 302, headers: { location: to.href } });
    }
    if (url.pathname === "/relative") {
      return new Response(null, { status: 303, headers: { location: "/next?step=2" } });
    }
    seen.push(new URLSearchParams(await req.text()).get("code") ?? "");
    return Response.json({ ok: true });
  });
  const dir = await Deno.makeTempDir();
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    await Deno.writeTextFile(
      `${dir}/f.yaml`,
      `name: oauth redirect
steps:
  - name: consent
    request: { method: POST, url: "${base}/consent" }
    capture:
      code: { header: location, query: code }
      state: { header: Location, query: state }
    assert: { status: 302 }
  - name: relative
    request: { url: "${base}/relative" }
    capture: { step: { header: location, query: step } }
  - name: token
    request:
      method: POST
      url: "${base}/token"
      form: { code: "\${steps.consent.capture.code}", state: "\${steps.consent.capture.state}", step: "\${steps.relative.capture.step}" }
    assert:
      status: 200
  - name: missing
    request: { url: "${base}/relative" }
    capture: { nope: { header: location, query: code } }
`,
    );
    const run = await runCli(["run", `${dir}/f.yaml`, "--report-json", `${dir}/r.json`]);
    assert.equal(run.code, 1, run.stdout);
    assert.deepEqual(seen, [CODE]);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const steps = report.flows[0].steps;
    assert.deepEqual(steps.map((s: { status: string }) => s.status), [
      "passed",
      "passed",
      "passed",
      "failed",
    ]);
    assert.match(run.stdout, /the "location" header has no query parameter "code"/);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("query is only for a header capture and names a parameter", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/f.yaml`,
      `name: bad
steps:
  - name: a
    request: { url: "http://127.0.0.1:9/x" }
    capture:
      c: { cookie: sid, query: code }
      d: { header: location, query: "" }
`,
    );
    const run = await runCli(["validate", `${dir}/f.yaml`]);
    assert.equal(run.code, 2, run.stdout + run.stderr);
    const out = run.stdout + run.stderr;
    assert.match(
      out,
      /f\.yaml:6:25 error\[unknown-key\]: "query" applies to a header, not to cookie/,
    );
    assert.match(
      out,
      /f\.yaml:7:37 error\[wrong-type\]: Expected "query" in capture "d" of step "a"/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
