/**
 * The websocket step end to end, the CLI run as a subprocess against real
 * servers the test starts — the `ws` package's and Deno's own: a JSON chat
 * (subprotocol, an auth header the server checks, text, JSON and binary
 * messages, `until`), a capture from a message feeding a later HTTP step,
 * close codes, and a refused upgrade.
 */
import assert from "node:assert/strict";
import { denoServer, type TestServer, TICKET, TOKEN, wsServer } from "./servers.ts";
import { runFlow } from "./run_flow.ts";
import { runCli } from "../../support/cli.ts";

const CHAT = await Deno.readTextFile(
  new URL("../../fixtures/websocket/chat.yaml", import.meta.url),
);

const SERVERS: [string, () => Promise<TestServer> | TestServer][] = [
  ["ws's WebSocketServer", () => wsServer()],
  ["Deno.upgradeWebSocket", () => denoServer()],
];

/** Runs `test` with a chat server of each kind and Deno's (for its HTTP `/whoami`). */
async function withServers(
  test: (chat: TestServer, http: TestServer, label: string) => Promise<void>,
): Promise<void> {
  for (const [label, start] of SERVERS) {
    const chat = await start();
    const http = denoServer();
    try {
      await test(chat, http, label);
    } finally {
      await chat.close();
      await http.close();
    }
  }
}

Deno.test("a chat: handshake header and subprotocol, text, JSON and binary sent, replies checked until done, a capture feeds an HTTP step", async () => {
  await withServers(async (chat, http, label) => {
    const run = await runFlow(CHAT, {
      env: {
        WS_URL: `ws://127.0.0.1:${chat.port}`,
        WS_TOKEN: TOKEN,
        HTTP_URL: `http://127.0.0.1:${http.port}`,
      },
    });
    assert.equal(run.code, 0, `${label}: ${run.stdout}${run.stderr}`);
    const [step, whoami] = run.steps;
    assert.equal(step.status, "passed", label);
    assert.equal(step.request?.method, "WEBSOCKET");
    assert.equal(step.request?.url, `ws://127.0.0.1:${chat.port}/chat`);
    assert.equal(step.response?.status, 101);
    assert.equal(step.assertions?.length, 8);
    assert.deepEqual(step.captures, ["ticket"]);
    assert.equal(whoami.status, "passed", label);
    // What the server saw: the subprotocol chosen, every message in order.
    assert.deepEqual(chat.seen, [
      "open /chat chat.v1",
      "text hello",
      'text {"type":"subscribe","channel":"lobby"}',
      "binary aGVsbG8=",
      "text bye",
    ]);
  });
});

Deno.test("the close code is checkable: 1000 and an application's 4001, with the reason; null when the step stopped first", async () => {
  await withServers(async (chat, _http, label) => {
    const flow = (send: string, extra = "") =>
      `name: close\nsteps:\n  - name: s\n    websocket:\n      url: "ws://127.0.0.1:${chat.port}/chat"\n` +
      `      headers: { authorization: "Bearer ${TOKEN}" }\n      send: [{ text: ${send} }]\n${extra}` +
      `    assert:\n      json:\n        - { path: $.json.close, equals: CLOSE }\n`;
    const expect = async (yaml: string, close: unknown) => {
      const run = await runFlow(yaml.replace("CLOSE", JSON.stringify(close)));
      assert.equal(run.code, 0, `${label}: ${run.stdout}`);
      assert.equal(run.steps[0].assertions?.[0].passed, true, label);
    };
    await expect(flow("bye"), { code: 1000, reason: "done" });
    await expect(flow("quit"), { code: 4001, reason: "app says bye" });
    await expect(flow("bye", "      count: 1\n"), null);
    // A wrong expectation fails the step: the check can fail.
    const wrong = await runFlow(flow("quit").replace("CLOSE", '{code: 1000, reason: ""}'));
    assert.equal(wrong.code, 1, label);
    assert.match(wrong.stdout, /4001/);
  });
});

Deno.test("a refused upgrade is a response: its status (401), headers and JSON body are checkable", async () => {
  await withServers(async (chat, _http, label) => {
    const run = await runFlow(
      `name: refused\nsteps:\n  - name: s\n    websocket:\n      url: "ws://127.0.0.1:${chat.port}/chat"\n` +
        `      headers: { authorization: "Bearer wrong" }\n    assert:\n      status: 401\n` +
        `      json:\n        - { path: $.json.error, equals: unauthorized }\n` +
        `      headers: { content-type: application/json }\n`,
    );
    assert.equal(run.code, 0, `${label}: ${run.stdout}`);
    assert.equal(run.steps[0].response?.status, 401);
    assert.equal(chat.seen.length, 0, "no connection opened");
  });
});

Deno.test("until that never holds fails the step with a sentence naming how many messages arrived and why receiving ended", async () => {
  await withServers(async (chat, _http, label) => {
    const run = await runFlow(
      `name: until\nsteps:\n  - name: s\n    websocket:\n      url: "ws://127.0.0.1:${chat.port}/chat"\n` +
        `      headers: { authorization: "Bearer ${TOKEN}" }\n      send: [{ text: one }, { text: quit }]\n` +
        `      until: "$[?@.type == 'never']"\n`,
    );
    assert.equal(run.code, 1, `${label}: ${run.stdout}`);
    const failed = run.steps[0].assertions?.filter((a) => !a.passed) ?? [];
    assert.deepEqual(failed.map((a) => [a.path, a.message]), [[
      "until",
      `until "$[?@.type == 'never']" did not hold in the 2 messages that arrived before the server closed the connection (code 4001).`,
    ]]);
    assert.match(run.stdout, /did not hold in the 2 messages/);
  });
});

Deno.test("the ticket a message carries and the token in a header are masked in every artifact", async () => {
  await withServers(async (chat, http, label) => {
    // The flow fails at its end on purpose: a failed step shows its request and response in full.
    const yaml = CHAT + `  - name: again\n    websocket:\n      url: "\${ENV.WS_URL}/echo"\n` +
      `      send:\n        - text: "ticket=\${steps.chat.capture.ticket}"\n` +
      `        - json: { note: "\${steps.chat.capture.ticket}" }\n      count: 2\n` +
      `    assert:\n      json:\n        - { path: $.json.messages, length: 99 }\n`;
    const run = await runFlow(yaml, {
      env: {
        WS_URL: `ws://127.0.0.1:${chat.port}`,
        WS_TOKEN: TOKEN,
        HTTP_URL: `http://127.0.0.1:${http.port}`,
      },
    });
    assert.equal(run.code, 1, `${label}: ${run.stdout}`);
    // The ticket went out and came back: it is in what the run saw, and masked in what it wrote.
    assert.ok(chat.seen.includes(`text ticket=${TICKET}`), JSON.stringify(chat.seen));
    const artifacts = {
      console: run.stdout + run.stderr,
      json: run.json,
      junit: run.junit,
      html: run.html,
      log: run.log,
    };
    for (const [name, text] of Object.entries(artifacts)) {
      assert.ok(text.length > 0, `${label}: ${name} written`);
      assert.ok(!text.includes(TICKET), `${label}: the ticket is masked in ${name}`);
      assert.ok(!text.includes(TOKEN), `${label}: the token is masked in ${name}`);
    }
    const again = run.steps[2];
    assert.equal(again.status, "failed");
    assert.match(JSON.stringify(again), /ticket=\*+/, "the request's messages are shown, masked");
  });
});

Deno.test("a send item with after waits for that many messages: sent after the server's ready, not before", async () => {
  await withServers(async (chat, _http, label) => {
    const flow = (after: string) =>
      `name: gate\nsteps:\n  - name: s\n    websocket:\n      url: "ws://127.0.0.1:${chat.port}/gate"\n` +
      `      send: [{ text: hello${after} }]\n      count: 2\n      wait: 5s\n` +
      `    assert:\n      json:\n        - { path: "$.json.messages[?@.got == 'hello'].type", equals: [EXPECT] }\n`;
    // Without after, both go at once: too early. With after: 1, hello waits for ready.
    const eager = await runFlow(flow("").replace("EXPECT", "too-early"));
    assert.equal(eager.code, 0, `${label}: ${eager.stdout}`);
    const patient = await runFlow(flow(", after: 1").replace("EXPECT", "echo"));
    assert.equal(patient.code, 0, `${label}: ${patient.stdout}`);
    assert.equal(patient.steps[0].request?.method, "WEBSOCKET");
  });
});

Deno.test("an http:// URL connects as ws://: the API's base URL serves a websocket step too", async () => {
  await withServers(async (chat, _http, label) => {
    const flow =
      `name: base\nvars:\n  base_url: http://127.0.0.1:${chat.port}\nsteps:\n  - name: s\n` +
      `    websocket:\n      url: "\${vars.base_url}/chat"\n` +
      `      headers: { authorization: "Bearer ${TOKEN}" }\n      count: 1\n` +
      `    assert:\n      status: 101\n      json:\n        - { path: "$.json.messages[0].type", equals: welcome }\n`;
    const run = await runFlow(flow);
    assert.equal(run.code, 0, `${label}: ${run.stdout}`);
    assert.equal(run.steps[0].request?.url, `ws://127.0.0.1:${chat.port}/chat`, label);
    assert.ok(chat.seen.some((s) => s.startsWith("open /chat")), label);
  });
});

Deno.test("an item the message that stops receiving makes due is still sent before the step closes", async () => {
  await withServers(async (chat, _http, label) => {
    // The welcome is the one message counted; the reply to it is the conversation's last word.
    const flow =
      `name: last\nsteps:\n  - name: s\n    websocket:\n      url: "ws://127.0.0.1:${chat.port}/chat"\n` +
      `      headers: { authorization: "Bearer ${TOKEN}" }\n` +
      `      send: [{ text: first }, { text: last-word, after: 1 }, { text: never, after: 2 }]\n` +
      `      count: 1\n`;
    const run = await runFlow(flow);
    assert.equal(run.code, 0, `${label}: ${run.stdout}`);
    const said = chat.seen.filter((s) => s.startsWith("text "));
    assert.deepEqual(said, ["text first", "text last-word"], label);
  });
});

Deno.test("websocket steps run in worker threads too (--workers 2): four chat flows at once", async () => {
  const chat = await wsServer();
  const http = denoServer();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-ws-workers-" });
  try {
    for (let i = 1; i <= 4; i++) {
      await Deno.writeTextFile(
        `${dir}/chat${i}.yaml`,
        CHAT.replace("name: chat\n", `name: chat${i}\n`),
      );
    }
    const run = await runCli(["run", dir, "--jobs", "4", "--workers", "2"], {
      env: {
        WS_URL: `ws://127.0.0.1:${chat.port}`,
        WS_TOKEN: TOKEN,
        HTTP_URL: `http://127.0.0.1:${http.port}`,
      },
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /4 flows: 4 passed · 8 steps: 8 passed/);
    assert.equal(chat.seen.filter((s) => s === "open /chat chat.v1").length, 4);
  } finally {
    await chat.close();
    await http.close();
    await Deno.remove(dir, { recursive: true });
  }
});
