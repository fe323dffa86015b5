/**
 * A capture's `as` against a real server: an id that a `201` names only in
 * its `Location` path goes back as a JSON number, a numeric id as text, and
 * each value that cannot be turned fails its step with a message naming the
 * source; in both spellings, and as load problems for a bad `as`.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { runFlows } from "../../lib/run/flows.ts";
import { asType } from "../../lib/check/capture_type.ts";
import "../support/engines.ts";

/** An orders API: the id of a new order only in Location; lines must name it as a number. */
function serve() {
  const id = 1000 + Math.floor(Math.random() * 9000);
  const lines: unknown[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/orders" && req.method === "POST") {
      return new Response(null, { status: 201, headers: { location: `/api/orders/${id}` } });
    }
    if (url.pathname === "/lines") {
      const body = await req.json();
      lines.push(body.order_id);
      const ok = body.order_id === id;
      return Response.json({ order_id: id, ref: `ord_${id}` }, { status: ok ? 201 : 422 });
    }
    return new Response("not found", { status: 404 });
  });
  return { id, lines, url: `http://127.0.0.1:${server.addr.port}`, stop: () => server.shutdown() };
}

const flowOf = (url: string, as: string) =>
  `name: orders
steps:
  - name: create
    request: {method: POST, url: "${url}/orders"}
    capture:
      order_id: {header: location, regex: '/orders/([^/?#]+)$'${as}}
  - name: line
    request:
      method: POST
      url: "${url}/lines"
      body: {order_id: "\${steps.create.capture.order_id}"}
    capture:
      text_id: {path: $.json.order_id, as: string}
      ref: {path: $.json.ref, as: number}
    assert: {status: 201}
`;

Deno.test("as: number sends a Location path's id as a JSON number; without it, as text", async () => {
  const api = serve();
  try {
    const typed = loadFlow(flowOf(api.url, ", as: number"), "orders.yaml");
    assert.deepEqual(typed.problems, []);
    const run = await runFlows([typed.flow!], { runId: "r1" });
    const [create, line] = run.flows[0].steps;
    assert.equal(create.status, "passed");
    assert.deepEqual(create.captures, ["order_id"]);
    // The check passed (a number went back), and the capture of "ord_…" as a number failed.
    assert.equal(line.status, "failed");
    assert.ok(line.assertions.every((a) => a.passed));
    assert.match(
      line.message ?? "",
      /ref.*\$\.json\.ref gave no number: "ord_\d+" is not a number/,
    );
    assert.deepEqual(api.lines, [api.id]);

    const plain = loadFlow(flowOf(api.url, ""), "orders.yaml");
    const again = await runFlows([plain.flow!], { runId: "r2" });
    assert.equal(again.flows[0].steps[1].response?.status, 422);
    assert.deepEqual(api.lines, [api.id, String(api.id)]);
  } finally {
    await api.stop();
  }
});

Deno.test("as in spelling B's extract, and a number captured as text compares as text", async () => {
  const api = serve();
  try {
    const { flow, problems } = loadFlow(
      `name: b
steps:
  - name: create
    request: {method: POST, url: "${api.url}/orders"}
    extract: {order_id: {header: location, regex: '(\\d+)$', as: number}}
  - name: line
    depends_on: create
    request: {method: POST, url: "${api.url}/lines", body: {order_id: "\${steps.create.order_id}"}}
    extract: {text_id: {path: $.order_id, as: string}}
    assert: {status: 201}
  - name: compare
    request: {method: POST, url: "${api.url}/lines", body: {order_id: "\${steps.create.order_id}"}}
    assert:
      jsonpath: [{path: $.order_id, equals: "\${steps.create.order_id}"}]
  - name: as_text
    request: {method: POST, url: "${api.url}/lines", body: {order_id: "\${steps.line.text_id}"}}
    assert: {status: 422}
`,
      "b.yaml",
    );
    assert.deepEqual(problems, []);
    const run = await runFlows([flow!], { runId: "r3" });
    assert.equal(run.status, "passed", JSON.stringify(run.flows[0].steps.map((s) => s.message)));
    // The number the server answered went back as text when captured `as: string`.
    assert.deepEqual(api.lines, [api.id, api.id, String(api.id)]);
  } finally {
    await api.stop();
  }
});

Deno.test("a bad as is a positioned load problem that says which types there are", () => {
  const { problems } = loadFlow(
    `name: f
steps:
  - name: s
    request: {url: "http://x.test"}
    capture:
      a: {cookie: sid, as: float}
      b: {header: etag, as: [number]}
`,
    "f.yaml",
  );
  assert.deepEqual(problems.map((p) => [p.code, p.line, p.column]), [
    ["wrong-type", 6, 28],
    ["wrong-type", 7, 29],
  ]);
  assert.match(
    problems[0].message,
    /Expected "as" in capture "a" of step "s" to be number, string, json-string, url-decoded, html-decoded, length, got the string "float"/,
  );
  assert.match(problems[0].hint ?? "", /as: number/);
});

Deno.test("asType: numbers as JSON writes them, text of every scalar, nothing rounded", () => {
  for (const [text, value] of [["1042", 1042], [" -3.5e2 ", -350], ["0", 0], ["0.25", 0.25]]) {
    assert.equal(asType(text, "number").value, value, String(text));
  }
  for (const text of ["", "01", "1,042", "0x10", "NaN", "Infinity", "1e999", "ord_1", "12 34"]) {
    assert.ok(asType(text, "number").why, text);
  }
  assert.match(asType("9007199254740993", "number").why!, /more digits than a number holds/);
  assert.equal(asType("123456789012345", "number").value, 123456789012345);
  for (const v of [null, [1], { a: 1 }, true]) assert.ok(asType(v, "number").why);
  assert.equal(asType(true, "string").value, "true");
  assert.equal(asType(12.5, "string").value, "12.5");
  for (const v of [null, [1], { a: 1 }]) assert.ok(asType(v, "string").why);
});
