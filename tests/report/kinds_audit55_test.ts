/**
 * The JUnit, HTML and HAR reports show gRPC, WebSocket and SSE steps as
 * clearly as HTTP steps (issue 55, "Everywhere"): each step a test case
 * named for it, a failed one with its failed check and its request line
 * (`GRPC grpc://…/Service/Method`, `WEBSOCKET ws://…`, `GET …` of the
 * stream), the HTML its request and response with the messages, the HAR
 * one entry each, and a secret sent in metadata or in a message masked in
 * all of them. Real servers started here: grpc-js's atlas server, the `ws`
 * package's chat, and an event stream over Deno.serve.
 */
import assert from "node:assert/strict";
import { TOKEN, wsServer } from "../kinds/websocket/servers.ts";
import { startSseServer } from "../kinds/sse/server.ts";
import { harProblems } from "./har_report_shape.ts";
import { runReporting } from "../support/run_reports.ts";
import { servedAtlas } from "../kinds/grpc/served.ts";

const PROTOS = new URL("../fixtures/grpc/protos/", import.meta.url);
const SECRET = "kind-s3cret-0d9e8f7a";

function flow(grpc: number, ws: number, sse: string): string {
  return `name: kinds
steps:
  - name: grpc place
    grpc:
      target: "127.0.0.1:${grpc}"
      proto: protos/atlas.proto
      method: atlas.Atlas/GetPlace
      message: { latitude: 405551234, longitude: -744442468 }
      metadata: { authorization: "Bearer \${ENV.KIND_SECRET}" }
    assert:
      json: [{ path: $.json.name, equals: "Nowhere at all" }]
  - name: ws chat
    always: true
    websocket:
      url: "ws://127.0.0.1:${ws}/chat"
      headers: { authorization: "Bearer ${TOKEN}" }
      send: [{ text: "\${ENV.KIND_SECRET}" }, { text: bye }]
      until: "$[?@.type == 'done']"
    assert:
      json: [{ path: $.json.messages, length: 99 }]
  - name: sse progress
    always: true
    sse:
      url: "${sse}/jobs/job-7/events"
      headers: { authorization: "Bearer \${ENV.KIND_SECRET}" }
      until: "$[?@.event == 'done']"
    assert:
      json: [{ path: "$.json.events[-1:].data.result", equals: ["r-0"] }]
`;
}

Deno.test("JUnit, HTML and HAR show each kind's step, its request line and failed check, its secrets masked", async () => {
  const grpc = await servedAtlas();
  const ws = await wsServer();
  const sse = startSseServer();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-kinds-report-" });
  try {
    await Deno.mkdir(`${dir}/protos`);
    await Deno.copyFile(new URL("atlas.proto", PROTOS), `${dir}/protos/atlas.proto`);
    await Deno.writeTextFile(`${dir}/flow.yaml`, flow(grpc.port, ws.port, sse.url));
    const run = await runReporting(`${dir}/flow.yaml`, `${dir}/out`, { KIND_SECRET: SECRET });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const read = (name: string) => Deno.readTextFile(`${dir}/out/${name}`);
    const junit = await read("junit.xml");
    const html = await read("report.html");
    const har = await read("run.har");
    // JUnit: a test case per step, each failed with its check, its request line and what came back.
    const cases = [
      ...junit.matchAll(/<testcase [^>]*name="([^"]+)"[^>]*>\s*<failure [^>]*>([^<]*)</g),
    ];
    assert.deepEqual(cases.map((c) => c[1]), ["grpc place", "ws chat", "sse progress"]);
    const [grpcCase, wsCase, sseCase] = cases.map((c) => c[2]);
    assert.match(
      grpcCase,
      new RegExp(`GRPC grpc://127\\.0\\.0\\.1:${grpc.port}/atlas\\.Atlas/GetPlace → 0`),
    );
    assert.match(grpcCase, /\$\.json\.name: expected &quot;Nowhere at all&quot;/);
    assert.match(wsCase, new RegExp(`WEBSOCKET ws://127\\.0\\.0\\.1:${ws.port}/chat → 101`));
    assert.match(wsCase, /expected length 99, got 3/);
    assert.match(
      sseCase,
      new RegExp(`GET ${sse.url.replaceAll(".", "\\.")}/jobs/job-7/events → 200`),
    );
    assert.match(sseCase, /expected \[&quot;r-0&quot;\], got \[&quot;r-42&quot;\]/);
    // HTML: each step with its request line and the messages sent and received.
    const data = /<script type="application\/json" id="data">([\s\S]*?)<\/script>/.exec(html);
    assert.ok(data, "the HTML report carries its data");
    const page = JSON.stringify(JSON.parse(data[1]));
    for (
      const shown of [
        `"GRPC"`,
        `atlas.Atlas/GetPlace`,
        `"WEBSOCKET"`,
        `/chat`,
        `/jobs/job-7/events`,
      ]
    ) {
      assert.ok(page.includes(shown), `the HTML report shows ${shown}`);
    }
    assert.ok(
      page.includes("Cedar Marsh") && page.includes("welcome") && page.includes("r-42"),
    );
    // HAR: the HAR 1.2 shape, one entry per kind's exchange, on the wire's order.
    assert.deepEqual(harProblems(JSON.parse(har)), [], "the file has the HAR 1.2 shape");
    const entries = JSON.parse(har).log.entries as {
      request: { method: string; url: string; headers: { name: string; value: string }[] };
      response: { status: number };
      _step: string;
    }[];
    assert.deepEqual(entries.map((e) => [e._step, e.request.method, e.response.status]), [
      // As each went on the wire (har_kinds.ts): gRPC's POST answered 200, the WebSocket's upgrade.
      ["grpc place", "POST", 200],
      ["ws chat", "GET", 101],
      ["sse progress", "GET", 200],
    ]);
    // Secrets sent in metadata, in a message and in a header, by where they came from: masked.
    const log = await read("run.log.ndjson");
    const json = await read("report.json");
    const artifacts = { console: run.stdout + run.stderr, junit, html, har, log, json };
    for (const [name, text] of Object.entries(artifacts)) {
      assert.ok(!text.includes(SECRET), `${name} shows the secret`);
    }
  } finally {
    await grpc.close();
    await ws.close();
    await sse.close();
    await Deno.remove(dir, { recursive: true });
  }
});
