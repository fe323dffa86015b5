/**
 * WebSocket, SSE and gRPC steps in a run's HAR (`--report-har`, issue 55),
 * the CLI run against real servers the test starts (the kinds' own test
 * servers): each written as it went on the wire, in the shapes browser
 * devtools read — a WebSocket as Chromium records one (`GET`, `101
 * Switching Protocols`, `_webSocketMessages` in the order the frames went),
 * an event stream as its `text/event-stream` text, a gRPC call as the
 * HTTP/2 `POST` it was, answered 200 with its status in `grpc-status` —
 * still HAR 1.2, and every secret masked in the new places: handshake
 * headers, frames, events' data, metadata and messages.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { CHAT_STEP } from "../kinds/websocket/chat_step.ts";
import { TICKET, TOKEN, wsServer } from "../kinds/websocket/servers.ts";
import { EVENT_TOKEN, startSseServer } from "../kinds/sse/server.ts";
import { flowDir } from "../kinds/grpc/support.ts";
import { harProblems } from "./har_report_shape.ts";
import { servedAtlas } from "../kinds/grpc/served.ts";

const API_TOKEN = "grpc-key-7c1d9e3f5a2b";

const FLOW = `name: kinds
steps:
${CHAT_STEP}    capture: { ticket: "$.json.messages[0].ticket" }
  - name: ticket back
    websocket:
      url: "\${ENV.WS_URL}/echo"
      headers: { authorization: "Bearer \${steps.chat.capture.ticket}" }
      send: [{ json: { ticket: "\${steps.chat.capture.ticket}" } }]
      count: 1
      wait: 5s
  - name: progress
    sse:
      url: "\${ENV.SSE_URL}/jobs/job-7/events"
      count: 4
  - name: listen
    sse:
      url: "\${ENV.SSE_URL}/secret-events"
      until: "$[?@.event == 'done']"
    capture: { token: "$.json.events[0].data.token" }
  - name: use
    request:
      url: "\${ENV.SSE_URL}/use"
      headers: { authorization: "Bearer \${steps.listen.capture.token}" }
  - name: place
    grpc:
      target: "127.0.0.1:\${ENV.GRPC_PORT}"
      proto: protos/atlas.proto
      method: atlas.Atlas/GetPlace
      message: { latitude: 405551234, longitude: -744442468 }
      metadata: { authorization: "Bearer \${ENV.API_TOKEN}", x-echo: "\${ENV.API_TOKEN}" }
    assert: { status: 0 }
  - name: nowhere
    grpc:
      target: "127.0.0.1:\${ENV.GRPC_PORT}"
      proto: protos/atlas.proto
      method: atlas.Atlas/GetPlace
      message: { latitude: 0, longitude: 0 }
    assert: { status: 5 }
`;

type Json = Record<string, unknown>;
type Pair = { name: string; value: string };

const header = (list: Pair[], name: string) => list.find((h) => h.name === name)?.value;

Deno.test("WebSocket, SSE and gRPC steps are written as they went on the wire, masked, HAR 1.2", async () => {
  const ws = await wsServer();
  const sse = startSseServer();
  const grpc = await servedAtlas();
  const dir = await flowDir(FLOW);
  let text: string;
  try {
    const run = await runCli(["run", `${dir}/flow.yaml`, "--report-har", `${dir}/run.har`], {
      env: {
        WS_URL: `ws://127.0.0.1:${ws.port}`,
        WS_TOKEN: TOKEN,
        SSE_URL: sse.url,
        GRPC_PORT: String(grpc.port),
        API_TOKEN,
      },
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    // The secrets really went out and came back: the test would find them if they leaked.
    assert.ok(ws.seen.some((line) => line.includes(TICKET)), ws.seen.join("\n"));
    assert.equal(
      sse.seen.find((s) => s.path === "/use")?.headers.authorization,
      `Bearer ${EVENT_TOKEN}`,
    );
    assert.equal(grpc.calls[0].authorization, `Bearer ${API_TOKEN}`);
    text = await Deno.readTextFile(`${dir}/run.har`);
  } finally {
    await ws.close();
    await sse.close();
    await grpc.close();
    await Deno.remove(dir, { recursive: true });
  }
  for (const secret of [TOKEN, TICKET, EVENT_TOKEN, API_TOKEN]) {
    assert.ok(!text.includes(secret), `${secret} is masked`);
  }
  const har = JSON.parse(text);
  assert.deepEqual(harProblems(har), []);
  const entries = har.log.entries as Json[];
  assert.deepEqual(entries.map((e) => e._step), [
    "chat",
    "ticket back",
    "progress",
    "listen",
    "use",
    "place",
    "nowhere",
  ]);
  webSocketEntries(entries[0], entries[1], ws.port);
  eventStreamEntries(entries[2], entries[3]);
  grpcEntries(entries[5], entries[6], grpc.port);
});

/** As Chromium records a WebSocket: the upgrade, and the frames in the order they went. */
function webSocketEntries(chat: Json, echo: Json, port: number) {
  const request = chat.request as Json & { headers: Pair[] };
  const response = chat.response as Json & { headers: Pair[] };
  assert.equal(request.method, "GET");
  assert.equal(request.url, `ws://127.0.0.1:${port}/chat`);
  assert.equal(request.httpVersion, "HTTP/1.1");
  assert.equal(request.postData, undefined);
  assert.match(header(request.headers, "authorization")!, /^Bearer masked-[0-9a-f]{12}$/);
  assert.equal(header(request.headers, "sec-websocket-protocol"), "chat.v1");
  assert.equal(response.status, 101);
  assert.equal(response.statusText, "Switching Protocols");
  assert.equal(chat._resourceType, "websocket");
  const frames = chat._webSocketMessages as {
    type: string;
    opcode: number;
    data: string;
    time: number;
  }[];
  assert.deepEqual(frames.map((f) => [f.type, f.opcode]), [
    ["send", 1], // hello, at once
    ["receive", 1], // welcome
    ["receive", 1], // echo of hello
    ["send", 1], // subscribe, after 2
    ["send", 2], // the bytes
    ["send", 1], // bye
    ["receive", 1], // echo of subscribe
    ["receive", 2], // the bytes back
    ["receive", 1], // done
  ]);
  assert.equal(frames[0].data, "hello");
  assert.deepEqual(JSON.parse(frames[3].data), { type: "subscribe", channel: "lobby" });
  assert.equal(frames[4].data, "aGVsbG8=");
  assert.equal(frames[7].data, "aGVsbG8=");
  const welcome = JSON.parse(frames[1].data);
  assert.equal(welcome.type, "welcome");
  assert.match(
    welcome.ticket,
    /^(masked-[0-9a-f]{12}|\*+)$/,
    `a secret in a received frame: ${welcome.ticket}`,
  );
  // Seconds since the epoch, in order, within the call's span.
  const start = Date.parse(chat.startedDateTime as string) / 1000;
  const times = frames.map((f) => f.time);
  assert.deepEqual([...times].sort((a, b) => a - b), times);
  assert.ok(times[0] >= start && times.at(-1)! <= start + (chat.time as number) / 1000 + 0.001);
  // The ticket sent back in a frame carries the label it had where it came.
  const sent = (echo._webSocketMessages as { data: string }[])[0].data;
  assert.equal(JSON.parse(sent).ticket, welcome.ticket);
}

/** An event stream as its text: one block per event, JSON data as its JSON. */
function eventStreamEntries(progress: Json, listen: Json) {
  const content = (progress.response as { content: Json }).content;
  assert.equal(content.mimeType, "text/event-stream");
  // Chromium's type for a page's fetch of a stream: what convert har takes for the app's call.
  assert.equal(progress._resourceType, "fetch");
  assert.equal(
    content.text,
    'id: 1\nevent: progress\ndata: {"state":"running","pct":10}\n\n' +
      'id: 2\nevent: progress\ndata: {"state":"running","pct":60}\n\n' +
      "id: 3\ndata: plain text, not JSON\n\n" +
      'id: 4\nevent: done\ndata: {"state":"finished","result":"r-42"}\n\n',
  );
  assert.equal(content.size, new TextEncoder().encode(content.text as string).byteLength);
  const secret = (listen.response as { content: Json }).content.text as string;
  assert.match(secret, /^data: \{"token":"masked-[0-9a-f]{12}"\}\n\nevent: done\ndata: \{\}\n\n$/);
}

/** A gRPC call as the HTTP/2 POST it was: 200, the call's status in grpc-status. */
function grpcEntries(place: Json, nowhere: Json, port: number) {
  const request = place.request as Json & { headers: Pair[]; postData: Json };
  const response = place.response as Json & { headers: Pair[]; content: Json };
  assert.equal(request.method, "POST");
  assert.equal(request.url, `http://127.0.0.1:${port}/atlas.Atlas/GetPlace`);
  assert.equal(request.httpVersion, "HTTP/2.0");
  assert.match(header(request.headers, "content-type")!, /^application\/grpc\b/);
  assert.equal(request.postData.mimeType, "application/grpc+json");
  assert.match(header(request.headers, "authorization")!, /^Bearer masked-[0-9a-f]{12}$/);
  assert.deepEqual(JSON.parse(request.postData.text as string), {
    latitude: 405551234,
    longitude: -744442468,
  });
  assert.equal(response.status, 200);
  assert.equal(response.httpVersion, "HTTP/2.0");
  assert.equal(header(response.headers, "grpc-status"), "0");
  // The metadata the server echoed in its trailers is masked as the request's is.
  assert.match(header(response.headers, "x-echo")!, /^masked-[0-9a-f]{12}$/);
  assert.equal(response.content.mimeType, "application/grpc+json");
  assert.match(JSON.parse(response.content.text as string).name, /Cedar Marsh/);
  const missing = nowhere.response as { status: number; headers: Pair[] };
  assert.equal(missing.status, 200);
  assert.equal(header(missing.headers, "grpc-status"), "5");
  assert.equal(header(missing.headers, "grpc-message"), "No place at 0, 0");
}
