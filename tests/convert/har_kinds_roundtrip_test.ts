/**
 * The round trip of issue 55 for the step kinds: `flowrun run` of a flow
 * with a WebSocket or an SSE step against the kinds' own test servers
 * (started here on 127.0.0.1), with `--report-har`; `flowrun convert har`
 * of that HAR with default options; `flowrun run` of the converted flow
 * against the same servers: green, a step of the same kind, and the server
 * sees the same conversation. The JSON reports of both runs are parsed back.
 * (The run's HAR holds only what the flow sent; each kind is a flow of its
 * own here, since convert har keeps the one app host a recording has.)
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { CHAT_STEP } from "../kinds/websocket/chat_step.ts";
import { TOKEN, wsServer } from "../kinds/websocket/servers.ts";
import { startSseServer } from "../kinds/sse/server.ts";
import { ATLAS_PROTO, PLACE } from "../fixtures/grpc_reflection/servers.ts";
import { servedOfficial } from "../kinds/grpc/served.ts";

type Report = {
  flows: {
    steps: {
      name: string;
      status: string;
      request?: { method: string; url: string };
      response?: { status: number };
    }[];
  }[];
};

/** Runs `flow`, converts its HAR, runs the converted flow; both reports and the converted text. */
async function roundTrip(
  flow: string,
  env: Record<string, string>,
  again: Record<string, string>,
  into?: string,
) {
  const dir = into ?? await Deno.makeTempDir({ prefix: "flowrun-har-kinds-" });
  try {
    await Deno.writeTextFile(`${dir}/flow.yaml`, flow);
    const report = ["--report-json", `${dir}/first.json`, "--report-har", `${dir}/run.har`];
    const first = await runCli(["run", `${dir}/flow.yaml`, ...report], { env });
    assert.equal(first.code, 0, first.stdout + first.stderr);
    const convert = await runCli(["convert", "har", `${dir}/run.har`, "-o", `${dir}/c.yaml`]);
    assert.equal(convert.code, 0, convert.stdout + convert.stderr);
    const converted = await Deno.readTextFile(`${dir}/c.yaml`);
    const second = await runCli(
      ["run", `${dir}/c.yaml`, "--report-json", `${dir}/second.json`],
      { env: again },
    );
    assert.equal(second.code, 0, converted + second.stdout + second.stderr);
    const read = async (name: string) =>
      JSON.parse(await Deno.readTextFile(`${dir}/${name}`)) as Report;
    return {
      converted,
      summary: convert.stderr,
      first: await read("first.json"),
      second: await read("second.json"),
    };
  } finally {
    if (into === undefined) await Deno.remove(dir, { recursive: true });
  }
}

/**
 * The converted flow's step passed, of the same kind (`method`, where the
 * report names one) at the same URL as the first run's, answered `status`.
 */
function assertCameBack(first: Report, second: Report, status: number, method?: string): void {
  const [before, after] = [first, second].map((r) => r.flows[0].steps[0]);
  assert.equal(after.status, "passed");
  if (method !== undefined) assert.equal(after.request?.method, method);
  assert.equal(after.request?.url, before.request?.url);
  assert.equal(after.response?.status, status);
}

const CHAT = `name: chat
steps:
${CHAT_STEP}    assert:
      json:
        - { path: "$.json.messages[0].type", equals: welcome }
`;

Deno.test("run → HAR → convert har → run: a WebSocket step comes back as one, sending the same frames in the same turns", async () => {
  const server = await wsServer();
  try {
    const url = `ws://127.0.0.1:${server.port}`;
    const { converted, summary, first, second } = await roundTrip(
      CHAT,
      { WS_URL: url, WS_TOKEN: TOKEN },
      // The token was masked with a label: the converted flow asks for it, and for nothing else.
      { API_TOKEN: TOKEN },
    );
    assert.match(summary, /Converted 1 of 1 HAR entries into 1 step\./);
    assert.match(summary, /Set before running: API_TOKEN\./);
    assert.match(converted, /^ {4}websocket:$/m);
    assert.match(converted, /^ {6}subprotocols: \[chat\.v1\]$/m);
    // The turn by the message it answered (issue 52/55), where it once said after: 2.
    assert.match(converted, /^ {10}after: \{ message: "\$\[\?@\.type == 'echo'\]" \}$/m);
    // What the server saw of both runs: the same handshake and messages, in order, twice.
    const half = server.seen.length / 2;
    assert.deepEqual(server.seen.slice(half), server.seen.slice(0, half));
    assert.deepEqual(server.seen.slice(0, half), [
      "open /chat chat.v1",
      "text hello",
      'text {"type":"subscribe","channel":"lobby"}',
      "binary aGVsbG8=",
      "text bye",
    ]);
    assertCameBack(first, second, 101, "WEBSOCKET");
  } finally {
    await server.close();
  }
});

const PROGRESS = `name: progress
steps:
  - name: progress
    sse:
      url: "\${ENV.SSE_URL}/jobs/job-7/events"
      until: "$[?@.event == 'done']"
      wait: 10s
    assert:
      json:
        - { path: "$.json.events[3].data.result", equals: r-42 }
`;

Deno.test("run → HAR → convert har → run: an SSE step comes back as one, reading as many events", async () => {
  const server = startSseServer();
  try {
    const { converted, summary, first, second } = await roundTrip(
      PROGRESS,
      { SSE_URL: server.url },
      { BASE_URL: server.url },
    );
    assert.match(summary, /Converted 1 of 1 HAR entries into 1 step\./);
    // The recorded stream's text held 4 events: the step reads as many, bounded.
    assert.match(converted, /^ {4}sse:$/m);
    assert.match(converted, /^ {6}count: 4$/m);
    assert.deepEqual(server.seen.map((s) => s.path), [
      "/jobs/job-7/events",
      "/jobs/job-7/events",
    ]);
    assertCameBack(first, second, 200);
  } finally {
    await server.close();
  }
});

const PLACE_FLOW = `name: place
steps:
  - name: place
    grpc:
      target: "\${ENV.GRPC_TARGET}"
      proto: atlas.proto
      method: atlas.Atlas/GetPlace
      message: { latitude: 405551234, longitude: -744442468 }
      metadata: { x-tenant: acme }
    assert:
      status: 0
      json:
        - { path: $.json.name, equals: "${PLACE.name}" }
`;

Deno.test("run → HAR → convert har → run: a gRPC step comes back as one, described by the server's reflection", async () => {
  const server = await servedOfficial();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-grpc-" });
  try {
    // The flow names its .proto file; the HAR cannot carry it, so the converted step reflects.
    await Deno.copyFile(ATLAS_PROTO, `${dir}/atlas.proto`);
    const target = `grpc://${server.target}`;
    const { converted, summary, first, second } = await roundTrip(
      PLACE_FLOW,
      { GRPC_TARGET: target },
      { GRPC_TARGET: target },
      dir,
    );
    assert.match(summary, /Converted 1 of 1 HAR entries into 1 step\./);
    assert.match(converted, /^ {4}grpc:$/m);
    assert.match(converted, /^ {6}method: atlas\.Atlas\/GetPlace$/m);
    assert.match(converted, /^ {8}x-tenant: acme$/m);
    assert.match(converted, /^ {6}status: 0$/m);
    assert.doesNotMatch(converted, /proto:/);
    assert.doesNotMatch(converted, /base_url/, "the target is the step's only origin");
    assertCameBack(first, second, 0, "GRPC");
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

const THREE = `name: kinds
steps:
  - name: chat
    websocket:
      url: "\${ENV.WS_URL}/chat"
      headers: { authorization: "Bearer \${ENV.WS_TOKEN}" }
      send: [{ text: hello }, { text: bye }]
      until: "$[?@.type == 'done']"
  - name: progress
    sse:
      url: "\${ENV.SSE_URL}/jobs/job-7/events"
      until: "$[?@.event == 'done']"
  - name: place
    grpc:
      target: "\${ENV.GRPC_TARGET}"
      method: atlas.Atlas/GetPlace
      message: { latitude: 405551234, longitude: -744442468 }
`;

Deno.test("run → HAR → convert har → run: one flow with a WebSocket, an SSE and a gRPC step, each server's host named", async () => {
  const ws = await wsServer();
  const sse = startSseServer();
  const grpc = await servedOfficial();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-three-" });
  try {
    const env = {
      WS_URL: `ws://127.0.0.1:${ws.port}`,
      WS_TOKEN: TOKEN,
      SSE_URL: sse.url,
      GRPC_TARGET: `grpc://${grpc.target}`,
    };
    await Deno.writeTextFile(`${dir}/flow.yaml`, THREE);
    const run = await runCli(["run", `${dir}/flow.yaml`, "--report-har", `${dir}/run.har`], {
      env,
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    // Three servers are three hosts (a browser recording's would be three sites, two dropped);
    // a run's own HAR holds only what its flows sent, so each is kept with default options.
    const convert = await runCli(["convert", "har", `${dir}/run.har`, "-o", `${dir}/c.yaml`]);
    assert.equal(convert.code, 0, convert.stderr);
    assert.match(convert.stderr, /Converted 3 of 3 HAR entries into 3 steps\./);
    const converted = await Deno.readTextFile(`${dir}/c.yaml`);
    assert.deepEqual(
      [...converted.matchAll(/^ {4}(websocket|sse|grpc|request):$/gm)].map((m) => m[1]),
      ["websocket", "sse", "grpc"],
    );
    // The gRPC target is a var of its own; no base URL is made for its origin.
    assert.match(
      converted,
      /^ {2}grpc_target: \$\{ENV\.GRPC_TARGET:-grpc:\/\/127\.0\.0\.1:\d+\}$/m,
    );
    assert.doesNotMatch(converted, /BASE_URL_2/);
    const again = await runCli(["run", `${dir}/c.yaml`], { env: { API_TOKEN: TOKEN } });
    assert.equal(again.code, 0, converted + again.stdout + again.stderr);
    assert.match(again.stdout, /3 steps: 3 passed/);
  } finally {
    await ws.close();
    await sse.close();
    await grpc.close();
    await Deno.remove(dir, { recursive: true });
  }
});
