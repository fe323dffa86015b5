/**
 * `convert har` keeps the WebSocket conversations a recording holds (issue
 * 55): Chromium's HAR (DevTools' export and Playwright's `recordHar`) holds
 * each socket's frames in `_webSocketMessages`, and the socket becomes a
 * `websocket:` step that sends the recorded messages in order (text, JSON,
 * binary as base64) and waits for as many as the recording received before
 * the journey went on; its headers, values and secrets are treated as an
 * HTTP step's (by where a value came from), and what a later request sends
 * of a received message is captured from it.
 *
 * The fast part reads a hand-written DevTools-style recording
 * (`tests/fixtures/har_websocket/chat.har`); the browser part records a page
 * that talks to a server this test starts, converts that recording and runs
 * the flow against a fresh server.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { convertHar } from "../../lib/convert/har.ts";
import { runCli } from "../support/cli.ts";
import { startChat } from "../fixtures/har_websocket/chat_server.ts";

const FIXTURES = new URL("../fixtures/har_websocket/", import.meta.url).pathname;
const TOKEN = "tok_5f2a9c81d7e34b60a1c2";
const API_KEY = "k3y-rec0rded-9f8e7d6c5b";

interface FlowStep {
  name: string;
  request?: { url: string; headers?: Record<string, string> };
  websocket?: {
    url: string;
    headers?: Record<string, string>;
    subprotocols?: string[];
    send?: Record<string, unknown>[];
    count?: number;
    until?: string;
    wait?: string;
  };
  capture?: Record<string, unknown>;
  assert?: { status?: number; json?: { path: string; [op: string]: unknown }[] };
}

/** The fixture converted: flow text, parsed flow and summary. */
async function convertChat() {
  const har = await Deno.readTextFile(`${FIXTURES}chat.har`);
  const { yaml, summary } = convertHar(har);
  const flow = parse(yaml) as { vars: Record<string, string>; steps: FlowStep[] };
  return { yaml, flow, summary };
}

Deno.test("a recorded WebSocket becomes a websocket step: its messages sent in their recorded turns, the received ones counted", async () => {
  const { yaml, flow, summary } = await convertChat();
  assert.deepEqual(flow.steps.map((s) => s.name), ["login", "chat", "get_ticket"]);
  assert.equal(summary.kept, 3);
  assert.equal(summary.dropped.websocket, undefined, JSON.stringify(summary.dropped));
  const chat = flow.steps[1];
  assert.equal(chat.request, undefined);
  const ws = chat.websocket!;
  // The API's own server (ws:// of the http:// origin the journey sent to): its base URL serves,
  // as http:// connects as ws://, so one variable points the whole flow at another instance.
  assert.equal(ws.url, "${vars.base_url}/chat");
  assert.deepEqual(Object.keys(flow.vars), ["base_url"]);
  assert.equal(flow.vars.base_url, "${ENV.BASE_URL:-http://127.0.0.1:8080}");
  assert.ok(!yaml.includes("WS_BASE_URL"), yaml);
  assert.deepEqual(ws.subprotocols, ["chat.v1", "chat.v0"]);
  // Each in its recorded turn: the page sent the next message once the previous one's reply came.
  assert.deepEqual(ws.send, [
    { text: "hello" },
    {
      json: { type: "subscribe", room: "lobby", token: "${steps.login.capture.token}" },
      after: 1,
    },
    // Sent once the message it answered came (issue 52/55), not once 2 messages came.
    { binary: "AAECAw==", after: { message: "$[?@.type == 'subscribed']" } },
  ]);
  // Three arrived before the next request began; the fourth came while the journey went on. The
  // ticket the next request reads is captured from one of them, so the step waits until a message
  // holds it (websocket_await.ts) rather than for the recorded count of three.
  assert.equal(ws.count, undefined);
  assert.equal(ws.until, "$[?@.type == 'subscribed'].ticket");
  assert.equal(ws.wait, "10s");
  assert.equal(chat.assert?.status, 101);
  assert.ok(
    summary.notes.some((n) =>
      /^The WebSocket ws:\/\/127\.0\.0\.1:8080\/chat: 1 received message recorded after the next request began is not replayed/
        .test(n)
    ),
    summary.notes.join("\n"),
  );
});

Deno.test("a socket on another server than the API's keeps a base URL of its own (WS_BASE_URL)", async () => {
  const har = JSON.parse(await Deno.readTextFile(`${FIXTURES}chat.har`));
  har.log.entries[1].request.url = "ws://127.0.0.1:9090/chat";
  const { yaml, summary } = convertHar(JSON.stringify(har), {
    includeHosts: ["127.0.0.1:8080", "127.0.0.1:9090"],
  });
  const flow = parse(yaml) as { vars: Record<string, string>; steps: FlowStep[] };
  assert.equal(flow.steps[1].websocket?.url, "${vars.ws_base_url}/chat");
  assert.equal(flow.vars.ws_base_url, "${ENV.WS_BASE_URL:-ws://127.0.0.1:9090}");
  assert.match(yaml, /^#\s+WS_BASE_URL\s+the WebSocket server's base URL/m);
  assert.equal(summary.kept, 3);
});

Deno.test("a websocket step's headers follow the HTTP rules: browser noise dropped, secrets by provenance", async () => {
  const { yaml, flow, summary } = await convertChat();
  const ws = flow.steps[1].websocket!;
  // The token the login answered is captured; the key no response gave is a variable.
  assert.deepEqual(ws.headers, {
    authorization: "Bearer ${steps.login.capture.token}",
    "x-api-key": "${ENV.API_KEY}",
  });
  assert.ok(summary.env.includes("API_KEY"), summary.env.join(","));
  for (const secret of [TOKEN, API_KEY]) assert.ok(!yaml.includes(secret), yaml);
});

Deno.test("a value a received message handed out is captured from the websocket step", async () => {
  const { flow } = await convertChat();
  const [, chat, ticket] = flow.steps;
  assert.equal(ticket.request?.url, "${vars.base_url}/api/tickets/${steps.chat.capture.ticket}");
  const captured = chat.capture?.ticket as { path: string; first: boolean };
  // Found by what the message says, not by where it arrived: the filter names its type.
  assert.deepEqual(captured, {
    path: "$.json.messages[?@.type == 'subscribed'].ticket",
    first: true,
  });
  // The first JSON message received is checked as the HTTP side checks a body.
  assert.deepEqual(chat.assert?.json, [
    { path: "$.json.messages[1].type", equals: "subscribed" },
    { path: "$.json.messages[1].room", equals: "lobby" },
    { path: "$.json.messages[1].ticket", type: "string" },
    { path: "$.json.messages[1].members", type: "number" },
  ]);
});

Deno.test("a sent message's secrets are treated as a body's: a produced token captured, a typed one a variable, never written", async () => {
  const har = JSON.parse(await Deno.readTextFile(`${FIXTURES}chat.har`));
  const typed = "hunter2-Secret!x";
  har.log.entries[1]._webSocketMessages = [
    {
      type: "send",
      time: 1795669201.1,
      opcode: 1,
      data: JSON.stringify({ type: "auth", password: typed }),
    },
    { type: "send", time: 1795669201.2, opcode: 1, data: `AUTH ${TOKEN} costs $5 \${x}` },
    { type: "receive", time: 1795669201.3, opcode: 1, data: "42" },
  ];
  const { yaml, summary } = convertHar(JSON.stringify(har));
  const ws = (parse(yaml) as { steps: FlowStep[] }).steps[1].websocket!;
  assert.deepEqual(ws.send, [
    { json: { type: "auth", password: "${ENV.CHAT_PASSWORD}" } },
    // A token inside text is found too; a literal "${" is written "$${" so it is sent as it was.
    { text: "AUTH ${steps.login.capture.token} costs $5 $${x}" },
  ]);
  assert.equal(ws.count, 1);
  assert.ok(summary.env.includes("CHAT_PASSWORD"), summary.env.join(","));
  for (const secret of [typed, TOKEN, API_KEY]) assert.ok(!yaml.includes(secret), yaml);
});

Deno.test("development-server sockets and sockets with no recorded message are still dropped", () => {
  const entry = (url: string, messages?: unknown[], protocol?: string) => ({
    _resourceType: "websocket",
    request: {
      method: "GET",
      url,
      headers: protocol ? [{ name: "Sec-WebSocket-Protocol", value: protocol }] : [],
    },
    response: { status: 101, content: {} },
    ...(messages ? { _webSocketMessages: messages } : {}),
  });
  const ping = [{ type: "receive", time: 1, opcode: 1, data: '{"type":"connected"}' }];
  const har = JSON.stringify({
    log: {
      entries: [
        {
          request: { method: "GET", url: "http://127.0.0.1:5173/api/me" },
          response: { status: 200, content: { mimeType: "application/json", text: "{}" } },
          _resourceType: "fetch",
        },
        entry("ws://127.0.0.1:5173/?token=abc", ping, "vite-hmr"),
        entry("ws://127.0.0.1:5173/_next/webpack-hmr", ping),
        entry("ws://127.0.0.1:5173/live"),
      ],
    },
  });
  const { summary, yaml } = convertHar(har);
  assert.equal(summary.kept, 1, yaml);
  assert.equal(summary.dropped.websocket, 3);
});

Deno.test("the converted websocket step loads: validate accepts the flow", async () => {
  const { yaml } = await convertChat();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-ws-" });
  try {
    await Deno.writeTextFile(`${dir}/flow.yaml`, yaml);
    const out = await runCli(["validate", `${dir}/flow.yaml`], { env: { API_KEY: "k" } });
    assert.equal(out.code, 0, `${out.stdout}${out.stderr}\n${yaml}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** `convert har FIXTURE --verify URL` into a temporary folder; the CLI run. */
async function verify(har: string, url: string, env: Record<string, string> = {}) {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-ws-verify-" });
  try {
    await Deno.writeTextFile(`${dir}/chat.har`, har);
    const args = ["convert", "har", `${dir}/chat.har`, "-o", `${dir}/flow.yaml`, "--verify", url];
    const out = await runCli(args, { env });
    const flow = await Deno.readTextFile(`${dir}/flow.yaml`).catch(() => "");
    return { ...out, flow };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("--verify replays a websocket step on the verified instance: its ws origin follows the --verify URL", async () => {
  // Playwright's recording of the chat page (tests/convert/har_websocket_browser_test.ts makes one).
  const har = await Deno.readTextFile(`${FIXTURES}chat.pw.har`);
  const app = startChat();
  try {
    const out = await verify(har, app.origin);
    assert.equal(out.code, 0, `${out.stderr}\n${out.flow}`);
    assert.match(out.stderr, /Verified 4 steps against http:\/\/127\.0\.0\.1:\d+: all pass/);
    assert.equal(app.refused, 0);
    assert.equal(app.tickets, 1, "the socket's subscribe reached the verified instance");
  } finally {
    await app.close();
  }
});

Deno.test("--verify never sends a websocket step to a host that is not the API's", async () => {
  // The socket recorded on another port than the API: without WS_BASE_URL it is not the API's.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let connections = 0;
  const accepting = (async () => {
    for await (const conn of listener) {
      connections++;
      conn.close();
    }
  })();
  const recorded = JSON.parse(await Deno.readTextFile(`${FIXTURES}chat.pw.har`));
  for (const entry of recorded.log.entries) {
    const url = new URL(entry.request.url);
    if (url.protocol === "ws:") entry.request.url = `ws://127.0.0.1:${listener.addr.port}/chat`;
  }
  const app = startChat();
  try {
    const out = await verify(JSON.stringify(recorded), app.origin);
    assert.match(
      out.stderr,
      /not sent "chat": its host 127\.0\.0\.1:\d+ is not the API's/,
      out.stderr,
    );
    assert.equal(connections, 0);
  } finally {
    listener.close();
    await accepting.catch(() => {});
    await app.close();
  }
});
