/**
 * A constant the flow keeps in its own `vars:` is the flow's text, as the same constant written
 * under the header is (issue 52, class 6): `vars: {reqKey: order-7}` sent as
 * `X-Request-Key: ${vars.reqKey}` (what Postman's converter writes for a collection variable),
 * spelled `${reqKey}`, or made of another var of the flow, is shown in every report. A var that
 * an environment variable, a random key or a capture fills, one typed under a header whose words
 * say it carries a credential, and one the flow also sends as a bearer token stay masked in every
 * output and encoding. The flow runs as a CLI subprocess against a server this test starts,
 * which echoes what it got, and every report is read back.
 */
import assert from "node:assert/strict";
import { runEveryReport } from "../support/run_reports.ts";

/** The flow's own literals, sent through its vars under secret-looking header names. */
const OWN = ["order-7", "spell-b-9", "batch-42"];
/** From secret sources. */
const ENV_SECRET = "upstream-Vq71Zk";
const TYPED_CREDENTIAL = "typed-pw-Rk3";
const SHARED = "shared-Qz81x";
const RANDOM_KEY = "4f1c2e9a7b3d5c6e8f90a1b2";

const FLOW = `name: own vars under secret-looking headers
vars:
  reqKey: order-7
  spellB: spell-b-9
  base: batch
  chained: "\${vars.base}-42"
  upstream: "\${ENV.UPSTREAM_VALUE}"
  typedCred: ${TYPED_CREDENTIAL}
  shared: ${SHARED}
  signing: ${RANDOM_KEY}
  made: "mk-\${RANDOM.HEX_12}"
steps:
  - name: send
    request:
      method: POST
      url: "\${ENV.BASE}/orders"
      headers:
        X-Request-Key: "\${vars.reqKey}"
        Idempotency-Key: "\${spellB}"
        X-Batch-Key: "\${vars.chained}"
        X-Upstream-Key: "\${vars.upstream}"
        X-Session-Token: "\${vars.typedCred}"
        X-Shared-Key: "\${vars.shared}"
        Authorization: "Bearer \${vars.shared}"
        X-Signing-Key: "\${vars.signing}"
        X-Made-Key: "\${vars.made}"
      body:
        note: "order-7 spell-b-9 batch-42"
    capture:
      issued: $.json.issued
    assert:
      status: 200
  - name: again
    request:
      method: POST
      url: "\${ENV.BASE}/orders"
      headers:
        X-Next-Key: "\${steps.send.capture.issued}"
        X-Request-Key: "\${reqKey}"
        Idempotency-Key: "\${vars.spellB}"
        X-Batch-Key: "\${chained}"
    assert:
      status: 200
      json:
        - path: "$.json.headers['x-request-key']"
          equals: "not order-7"
        - path: "$.json.headers['idempotency-key']"
          equals: "not spell-b-9"
        - path: "$.json.headers['x-batch-key']"
          equals: "not batch-42"
`;

/** Echoes the request's headers and body, and hands out a key the next step sends. */
function serve() {
  const srv = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.text();
    const headers = Object.fromEntries(req.headers);
    return Response.json({ headers, body, issued: "issued-Hq27Wm" }, {
      headers: { "x-request-key": req.headers.get("x-request-key") ?? "" },
    });
  });
  return { base: `http://127.0.0.1:${srv.addr.port}`, close: () => srv.shutdown() };
}

/** `text` as each report writes it: raw, JSON-escaped, XML/HTML-escaped. */
function encodings(text: string): string[] {
  const xml = text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
  return [text, JSON.stringify(text).slice(1, -1), xml, xml.replaceAll("&", "&amp;")];
}

Deno.test("a flow's own var literal under a secret-looking header is shown; secret sources stay masked", async () => {
  const srv = serve();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-written-var-" });
  try {
    await Deno.writeTextFile(`${dir}/f.yaml`, FLOW);
    const run = await runEveryReport(dir, { BASE: srv.base, UPSTREAM_VALUE: ENV_SECRET });
    // The checks fail on purpose: their messages quote the echoed literals in every report.
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const names = ["stdout", "stderr", "json", "junit", "html", "log"];
    const secrets = [ENV_SECRET, TYPED_CREDENTIAL, SHARED, RANDOM_KEY, "issued-Hq27Wm"];
    for (const [i, output] of run.outputs.entries()) {
      for (const secret of secrets) {
        for (const form of encodings(secret)) {
          assert.ok(!output.includes(form), `${names[i]} shows ${form}:\n${output}`);
        }
      }
      assert.doesNotMatch(output, /mk-[0-9a-f]{12}/, `${names[i]} shows the random key`);
    }
    // The request as the JSON report keeps it: the flow's own text as sent, the secrets masked.
    const sent = JSON.stringify(run.report.flows[0].steps[0]);
    assert.match(sent, /"X-Request-Key":"order-7"/i, sent);
    assert.match(sent, /"Idempotency-Key":"spell-b-9"/i, sent);
    assert.match(sent, /"X-Batch-Key":"batch-42"/i, sent);
    for (const masked of ["X-Upstream-Key", "X-Session-Token", "X-Shared-Key", "X-Signing-Key"]) {
      assert.match(sent, new RegExp(`"${masked}":"\\*\\*\\*"`, "i"), sent);
    }
    assert.match(sent, /"X-Made-Key":"\*\*\*"/i, sent);
    const next = JSON.stringify(run.report.flows[0].steps[1]);
    assert.match(next, /"X-Next-Key":"\*\*\*"/i, next);
    // Every output that quotes the failed checks shows the flow's own text, in its encoding.
    for (const [i, output] of run.outputs.entries()) {
      if (names[i] === "stderr") continue;
      for (const literal of OWN) {
        assert.ok(
          encodings(literal).some((form) => output.includes(form)),
          `${names[i]} does not show ${literal}:\n${output}`,
        );
      }
    }
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a var the run is given in place of the flow's literal is masked in every report", async () => {
  const srv = serve();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-given-var-" });
  try {
    // Step one writes the var in its URL before step two sends it under a secret-looking header.
    await Deno.writeTextFile(
      `${dir}/f.yaml`,
      `name: given var
vars:
  orderRef: order-7
steps:
  - name: look
    request: {url: "\${ENV.BASE}/orders?ref=\${vars.orderRef}"}
  - name: send
    request:
      method: POST
      url: "\${ENV.BASE}/orders"
      headers: {X-Request-Key: "\${vars.orderRef}"}
`,
    );
    const given = "given-Tp48Lx";
    const run = await runEveryReport(dir, { BASE: srv.base }, ["--var", `orderRef=${given}`]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    for (const output of run.outputs) {
      for (const form of encodings(given)) assert.ok(!output.includes(form), output);
    }
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
