/**
 * A test script that compares the answer with a header its own request sent,
 * `pm.expect(json.headers["x-custom-header"]).to.eql(pm.request.headers.get("X-Custom-Header"))`
 * (a public project's own collection, measured by hand: an echo endpoint checked against the
 * header the request carries): the check stayed a comment ("a flow's checks read the response").
 * The header is the request's own, written in the collection: Postman gives it as sent, each
 * `{{x}}` resolved, its name read in any case. So the check compares with that text, a literal as
 * it is and a variable as the flow reads it, and fails when the server answers another value, as
 * Newman's does. A header the request does not write (or has disabled) stays a comment.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";
import { newmanThenFlow } from "../support/newman_then_flow.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

const TESTS = [
  "const json = pm.response.json();",
  'const sent = pm.request.headers.get("X-Custom-Header");',
  'pm.test("custom", () => pm.expect(json.headers["x-custom-header"]).to.eql(sent));',
  'pm.test("trace", function () {',
  '  pm.expect(json.headers["x-trace"]).to.equal(pm.request.headers.get("x-trace"));',
  "});",
];

/** One echo request with a literal header and one made of a variable. */
function collection(base: string, extra: string[] = []) {
  return {
    info: { name: "Echo headers", schema: V21 },
    variable: [{ key: "baseUrl", value: base }, { key: "trace", value: "t-42" }],
    item: [{
      name: "Echo",
      event: [{ listen: "test", script: { exec: [...TESTS, ...extra] } }],
      request: {
        method: "GET",
        url: "{{baseUrl}}/echo",
        header: [
          { key: "X-Custom-Header", value: "PostmanTest" },
          { key: "X-Trace", value: "run-{{trace}}" },
          { key: "X-Off", value: "no", disabled: true },
        ],
      },
    }],
  };
}

/** Answers the request's headers; `bent` changes the custom one, as a faulty echo would. */
function headersEchoServer() {
  const state = { bent: false };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const headers = Object.fromEntries(req.headers);
    if (state.bent) headers["x-custom-header"] = "other";
    return Response.json({ headers });
  });
  return { state, url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

Deno.test("postman request header read: a check compares with the header its request sent", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-request-header-" });
  const server = headersEchoServer();
  try {
    const { counts, summary } = await newmanThenFlow(dir, collection(server.url), server.url);
    assert.equal(counts.failedAssertions, 0, JSON.stringify(counts));
    assert.equal(counts.assertions, 2);
    const flow = await Deno.readTextFile(`${dir}/flows/1_echo_headers.yaml`);
    assert.doesNotMatch(flow, /# untranslated/, flow);
    assert.match(flow, /equals: PostmanTest, name: custom/, flow);
    // A server answering another value fails the check, as it fails Newman's.
    server.state.bent = true;
    const run = await runCli(summary.match(/^Run: flowrun (.*)$/m)![1].split(" "));
    assert.notEqual(run.code, 0, run.stdout);
    assert.match(run.stdout + run.stderr, /custom/);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postman request header read: a header the request does not send stays a comment", () => {
  const extra = [
    'pm.test("off", () => pm.expect(json.headers["x-off"]).to.eql(pm.request.headers.get("X-Off")));',
    'pm.test("none", () => pm.expect(json.headers.a).to.eql(pm.request.headers.get("X-None")));',
  ];
  const { files } = convertPostman(JSON.stringify(collection("http://127.0.0.1:9", extra)));
  const flow = files.find((f) => f.path.endsWith(".yaml"))!.text;
  assert.match(flow, /untranslated[^]*X-Off[^]*X-None/, flow);
  assert.doesNotMatch(flow, /name: (off|none)/, flow);
});
