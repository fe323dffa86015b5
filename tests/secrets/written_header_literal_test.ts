/**
 * A value is a secret by where it came from, not by the header name above it (issue 52, class
 * 6): text a flow writes literally under a header whose name merely looks secret
 * (`Idempotency-Key: <string>`, `X-Request-Key: …`) is the flow's own, and every report shows it;
 * what an environment variable, an `Authorization` credential or a random key gives the same
 * kind of header stays masked in every output and encoding. The flow runs as a CLI subprocess
 * against a server this test starts, which echoes what it got (as Stripe echoes
 * `Idempotency-Key`), and every report is read back.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { runEveryReport } from "../support/run_reports.ts";

/** Written in the flow under secret-looking header names: the flow's own text. */
const WRITTEN = ["<string>", "plain-request-key"];
/** From secret sources: an environment variable, a bearer token, a random literal key. */
const SECRETS = {
  UPSTREAM_VALUE: "upstream-Vq71Zk",
  API_TOKEN: "tok-Lm52Qx98Rw",
};
const RANDOM_KEY = "4f1c2e9a7b3d5c6e8f90a1b2";
/** Typed in the flow under a header whose words say it carries a credential: a typed credential. */
const TYPED_CREDENTIAL = "typed-pw-Rk3";

const FLOW = `name: written header literals
steps:
  - name: send
    request:
      method: POST
      url: "\${ENV.BASE}/orders"
      headers:
        Idempotency-Key: "<string>"
        X-Request-Key: plain-request-key
        X-Auth-Token: "\${ENV.UPSTREAM_VALUE}"
        X-Signing-Key: ${RANDOM_KEY}
        X-Session-Token: ${TYPED_CREDENTIAL}
        Authorization: "Bearer \${ENV.API_TOKEN}"
      body:
        note: "<string> for plain-request-key"
    assert:
      status: 200
      json:
        - path: $.json.idempotency
          equals: "not <string>"
        - path: "$.json.headers['x-request-key']"
          equals: "not plain-request-key"
`;

/** Echoes the request's headers and body, and the idempotency key as a response header. */
function serve() {
  const srv = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.text();
    const headers = Object.fromEntries(req.headers);
    const idempotency = req.headers.get("idempotency-key") ?? "";
    return Response.json({ idempotency, headers, body }, {
      headers: { "idempotency-key": idempotency },
    });
  });
  return { base: `http://127.0.0.1:${srv.addr.port}`, close: () => srv.shutdown() };
}

/** `text` as each report writes it: raw, JSON-escaped, XML/HTML-escaped. */
function encodings(text: string): string[] {
  const xml = text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
  return [text, JSON.stringify(text).slice(1, -1), xml, xml.replaceAll("&", "&amp;")];
}

Deno.test("a literal under a secret-looking header is shown; a secret source's value is masked", async () => {
  const srv = serve();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-written-header-" });
  try {
    await Deno.writeTextFile(`${dir}/f.yaml`, FLOW);
    const run = await runEveryReport(dir, { BASE: srv.base, ...SECRETS });
    // The checks fail on purpose: their messages quote the echoed literals in every report.
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const names = ["stdout", "stderr", "json", "junit", "html", "log"];
    for (const [i, output] of run.outputs.entries()) {
      for (const secret of [...Object.values(SECRETS), RANDOM_KEY, TYPED_CREDENTIAL]) {
        for (const form of encodings(secret)) {
          assert.ok(!output.includes(form), `${names[i]} shows ${form}:\n${output}`);
        }
      }
    }
    // The request as the JSON report keeps it: the literals as written, the secrets masked.
    const step = run.report.flows[0].steps[0];
    const sent = JSON.stringify(step);
    assert.match(sent, /"Idempotency-Key":"<string>"/i, sent);
    assert.match(sent, /"X-Request-Key":"plain-request-key"/i, sent);
    assert.match(sent, /"X-Auth-Token":"\*\*\*"/i, sent);
    assert.match(sent, /"X-Signing-Key":"\*\*\*"/i, sent);
    assert.match(sent, /"X-Session-Token":"\*\*\*"/i, sent);
    assert.match(sent, /"Authorization":"(?:Bearer )?\*\*\*"/i, sent);
    // Every output that quotes the failed check shows the literal, in its own encoding.
    for (const [i, output] of run.outputs.entries()) {
      if (names[i] === "stderr") continue;
      for (const literal of WRITTEN) {
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

/** A document whose header parameters have an example or only a type (`X-Request-Key: string`). */
const DOCUMENT = `openapi: 3.0.3
info: {title: orders, version: "1"}
paths:
  /orders:
    post:
      operationId: createOrder
      parameters:
        - {name: Idempotency-Key, in: header, required: true, schema: {type: string}, example: order-2024-a}
        - {name: X-Request-Key, in: header, required: true, schema: {type: string}}
      requestBody:
        content:
          application/json:
            schema: {type: object, properties: {note: {type: string, example: hello}}}
      responses: {"200": {description: ok}}
`;

Deno.test("an OpenAPI conversion's header literals stay readable in the run: the word string is not masked", async () => {
  const srv = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (req) =>
      Response.json({ type: "string", body: await req.text() }, {
        headers: { "idempotency-key": req.headers.get("idempotency-key") ?? "" },
      }),
  );
  const dir = await Deno.makeTempDir({ prefix: "flowrun-written-openapi-" });
  try {
    await Deno.writeTextFile(`${dir}/d.yaml`, DOCUMENT);
    const convert = await runCli(["convert", "openapi", `${dir}/d.yaml`, "-o", `${dir}/out`]);
    assert.equal(convert.code, 0, convert.stdout + convert.stderr);
    // Run as the summary says, with the one variable it asks for, verbosely.
    assert.match(convert.stdout + convert.stderr, /Run: flowrun run \S+ --openapi \S+/);
    const env = { BASE_URL: `http://127.0.0.1:${srv.addr.port}` };
    const run = await runCli(["run", `${dir}/out`, "--openapi", `${dir}/d.yaml`, "-vv"], { env });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    for (const shown of ["> X-Request-Key: string", "> Idempotency-Key: order-2024-a"]) {
      assert.ok(run.stdout.includes(shown), `${shown}:\n${run.stdout}`);
    }
    assert.ok(run.stdout.includes("< idempotency-key: order-2024-a"), run.stdout);
    assert.match(run.stdout, /"type": ?"string"/);
    assert.ok(!run.stdout.includes("***"), run.stdout);
  } finally {
    await srv.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
