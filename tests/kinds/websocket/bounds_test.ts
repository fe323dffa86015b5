/**
 * Every way a websocket step ends is bounded, proven against real servers
 * the test starts: a sender that never stops (by count, by wait, by the
 * step's timeout), one that never sends, a message too large and many that
 * together are, a handshake that never completes; polling with `loop.until`,
 * retries while the server is down, and SIGINT in the middle of a stream.
 * Counts and ratios only, no wall-clock limits.
 */
import assert from "node:assert/strict";
import { denoServer, flakyFront, rawServer, type TestServer, TOKEN, wsServer } from "./servers.ts";
import { runFlow } from "./run_flow.ts";
import { silentListener } from "../../support/silent_listener.ts";

/** A flow of one websocket step at `path` with `keys` (YAML lines at the map's indent) and step `extra`. */
function flow(port: number, path: string, keys: string[] = [], extra: string[] = []): string {
  return [
    "name: bounds",
    "steps:",
    "  - name: s",
    "    websocket:",
    `      url: "ws://127.0.0.1:${port}${path}"`,
    ...keys.map((k) => `      ${k}`),
    ...extra.map((e) => `    ${e}`),
    "",
  ].join("\n");
}

/**
 * Runs one websocket step at `path` whose `$.json` must pass `checks`
 * (`[path, operator, value]`), and says which did not.
 */
async function expectJson(
  server: TestServer,
  path: string,
  keys: string[],
  checks: [string, string, unknown][],
  args: string[] = [],
): Promise<void> {
  const lines = checks.map(([p, op, v]) => `    - { path: "${p}", ${op}: ${JSON.stringify(v)} }`);
  const run = await runFlow(flow(server.port, path, keys, ["assert:", "  json:", ...lines]), {
    args,
  });
  const failed = run.steps[0]?.assertions?.filter((a) => !a.passed).map((a) => a.message);
  assert.deepEqual(failed, [], run.stdout);
  assert.equal(run.code, 0, run.stdout);
}

Deno.test("a sender that never stops ends at count, at wait, or at the step's timeout, with what arrived", async () => {
  const server = await wsServer();
  try {
    await expectJson(server, "/flood", ["count: 7"], [
      ["$.json.stopped", "equals", "count"],
      ["$.json.messages", "length", 7],
      ["$.json.messages[6].n", "equals", 6],
      ["$.json.close", "equals", null],
    ]);
    await expectJson(server, "/flood", ["wait: 1s", "count: 100000"], [
      ["$.json.stopped", "equals", "wait"],
      ["$.json.messages[0].n", "equals", 0],
    ]);
    await expectJson(server, "/flood", ["count: 100000"], [
      ["$.json.stopped", "equals", "timeout"],
    ], ["--timeout", "2s"]);
  } finally {
    await server.close();
  }
});

Deno.test("with until, the bound ending first fails the step naming how many messages arrived", async () => {
  const server = await wsServer();
  try {
    const run = await runFlow(
      flow(server.port, "/flood", ['until: "$[?@.n == -1]"', "count: 25"]),
    );
    assert.equal(run.code, 1, run.stdout);
    const until = run.steps[0].assertions?.find((a) => a.path === "until");
    assert.equal(
      until?.message,
      `until "$[?@.n == -1]" did not hold in the 25 messages received, the most "count" allows (25).`,
    );
    const silent = await runFlow(flow(server.port, "/silent", ['until: "$[0]"', "wait: 200ms"]));
    assert.equal(silent.code, 1, silent.stdout);
    assert.match(
      silent.stdout,
      /until "\$\[0\]" did not hold in the 0 messages that arrived within 200 ms\./,
    );
    // Until that holds stops at once: the flood's fourth message; a value in it comes from the flow.
    await expectJson(server, "/flood", ['until: "$[?@.n == ${ENV.STOP_AT:-3}]"'], [
      ["$.json.stopped", "equals", "until"],
      ["$.json.messages", "length", 4],
    ]);
  } finally {
    await server.close();
  }
});

Deno.test("a message larger than --max-body, or many that together are, is an error body-too-large", async () => {
  const server = await wsServer();
  try {
    const one = await runFlow(flow(server.port, "/huge?bytes=200000"), {
      args: ["--max-body", "64KiB"],
    });
    assert.equal(one.code, 1, one.stdout);
    assert.equal(one.steps[0].status, "error");
    assert.match(one.steps[0].message ?? "", /more than 65536 bytes/);
    const many = await runFlow(flow(server.port, "/flood", ["count: 100000"]), {
      args: ["--max-body", "2KiB"],
    });
    assert.equal(many.steps[0].status, "error", many.stdout);
    assert.match(many.steps[0].message ?? "", /more than 2048 bytes/);
    // Under the bound the same message arrives whole.
    await expectJson(server, "/huge?bytes=200000", ["count: 1"], [
      ["$.json.messages[0]", "length", 200000],
    ], ["--max-body", "1MiB"]);
  } finally {
    await server.close();
  }
});

Deno.test("the bound counts bytes as they are after permessage-deflate: a compressed bomb is body-too-large", async () => {
  const server = await wsServer(undefined, true);
  try {
    // Five megabytes of one letter compress to a few kilobytes on the wire.
    const run = await runFlow(flow(server.port, "/huge?bytes=5000000"), {
      args: ["--max-body", "64KiB"],
    });
    assert.equal(run.steps[0].status, "error", run.stdout);
    assert.match(run.steps[0].message ?? "", /more than 65536 bytes/);
    assert.ok(
      server.seen.some((s) => s.startsWith("extensions permessage-deflate")),
      server.seen.join(),
    );
  } finally {
    await server.close();
  }
});

Deno.test("a connection dropped without a close frame ends receiving with close code 1006", async () => {
  const server = await wsServer();
  try {
    await expectJson(server, "/drop", [], [
      ["$.json.stopped", "equals", "closed"],
      ["$.json.close.code", "equals", 1006],
      ["$.json.messages[0].type", "equals", "bye"],
    ]);
  } finally {
    await server.close();
  }
});

Deno.test("a server that breaks the protocol after a good message is an error in a sentence naming the breach, not a hang or a crash", async () => {
  // A text frame {"ok":1}, then a frame with a reserved opcode (3).
  const good = new TextEncoder().encode('{"ok":1}');
  const raw = rawServer([
    new Uint8Array([0x81, good.length, ...good]),
    new Uint8Array([0x83, 0x00]),
  ]);
  try {
    const run = await runFlow(flow(raw.port, "/", ["count: 5"]));
    assert.equal(run.code, 1, run.stdout);
    assert.equal(run.steps[0].status, "error");
    assert.match(
      run.steps[0].message ?? "",
      /^Invalid WebSocket frame: invalid opcode 3 \(127\.0\.0\.1:\d+\)\.$/,
    );
  } finally {
    raw.close();
  }
});

Deno.test("a handshake that never completes is a timeout error, retried like HTTP's", async () => {
  // Accepts connections and never answers.
  const silent = silentListener();
  try {
    const { port, held } = silent;
    const run = await runFlow(
      flow(port, "/chat", [], ["options: { retry: { count: 1, delay: 10ms } }"]),
      { args: ["--timeout", "300ms"] },
    );
    assert.equal(run.code, 1, run.stdout);
    assert.equal(run.steps[0].status, "error");
    assert.equal(run.steps[0].attempts, 2);
    assert.equal(held.length, 2, "each attempt connected");
    assert.match(run.steps[0].message ?? "", /did not open within 300 ms/);
  } finally {
    silent.close();
  }
});

Deno.test("retries while the server is down: two dropped connections, then the third attempt passes", async () => {
  const server = await wsServer();
  const front = flakyFront(server.port, 2);
  try {
    const run = await runFlow(
      flow(front.port, "/chat", [`headers: { authorization: "Bearer ${TOKEN}" }`, "count: 1"], [
        "options: { retry: { count: 3, delay: 10ms } }",
        "assert: { status: 101 }",
      ]),
    );
    assert.equal(run.code, 0, run.stdout);
    assert.equal(run.steps[0].attempts, 3);
  } finally {
    front.close();
    await server.close();
  }
});

Deno.test("a port nobody listens on: connection refused, in a sentence naming it, after each retry", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const run = await runFlow(
    flow(port, "/chat", [], ["options: { retry: { count: 2, delay: 10ms } }"]),
  );
  assert.equal(run.code, 1, run.stdout);
  assert.equal(run.steps[0].attempts, 3);
  assert.equal(run.steps[0].message, `Connection refused by 127.0.0.1:${port} (after 3 attempts).`);
});

Deno.test("a binary message an expression made that is not base64 is the step's expression error, nothing sent", async () => {
  const server = await wsServer();
  try {
    const run = await runFlow(
      `name: b\nvars: { bytes: "%%%" }\n` +
        flow(server.port, "/chat", ['send: [{ binary: "${vars.bytes}" }]']).replace(
          "name: bounds\n",
          "",
        ),
    );
    assert.equal(run.code, 1, run.stdout);
    assert.equal(run.steps[0].status, "error");
    assert.equal(run.steps[0].failure_kind, "expression");
    assert.equal(
      run.steps[0].message,
      `"binary" of message 1 of "send" is not base64 once its expressions are resolved.`,
    );
    assert.deepEqual(server.seen, [], "no connection was made");
  } finally {
    await server.close();
  }
});

Deno.test("a URL an expression made that a WebSocket cannot take is a bad-url error in a sentence, not a crash", async () => {
  const run = await runFlow(
    'name: u\nsteps:\n  - name: s\n    websocket: { url: "${ENV.WS_URL}" }\n',
    { env: { WS_URL: "ws://127.0.0.1:9/chat#room" } },
  );
  assert.equal(run.code, 1, run.stdout);
  assert.equal(
    run.steps[0].message,
    `"ws://127.0.0.1:9/chat#room" is not a URL a WebSocket can connect to (the URL contains a fragment identifier).`,
  );
  const http = await runFlow(
    'name: u\nsteps:\n  - name: s\n    websocket: { url: "${ENV.WS_URL}" }\n',
    { env: { WS_URL: "ftp://127.0.0.1:9/chat" } },
  );
  assert.equal(
    http.steps[0].message,
    `"ftp://127.0.0.1:9/chat" is not an absolute ws or wss URL.`,
  );
});

Deno.test("loop.until polls a websocket step: it connects again until the server says ready", async () => {
  const server = denoServer();
  try {
    const run = await runFlow(
      flow(server.port, "/status", [], [
        "loop:",
        "  max_attempts: 5",
        "  sleep_ms: 10",
        "  until:",
        "    json:",
        '      - { path: "$.json.messages[0].state", equals: ready }',
      ]),
    );
    assert.equal(run.code, 0, run.stdout);
    assert.equal(run.steps[0].attempts, 3);
    assert.equal(server.seen.filter((s) => s.startsWith("open /status")).length, 3);
  } finally {
    await server.close();
  }
});

Deno.test("SIGINT in the middle of a stream ends the run at once: exit 130, reports written", async () => {
  const server = await wsServer();
  let opened: () => void = () => {};
  const open = new Promise<void>((resolve) => opened = resolve);
  const timer = setInterval(() => server.seen.length > 0 && opened(), 5);
  try {
    const run = await runFlow(flow(server.port, "/flood", ["count: 100000"]), {
      args: ["--timeout", "60s"],
      interruptOn: open,
    });
    assert.equal(run.killed, false, "the run ended on its own after SIGINT");
    assert.equal(run.code, 130, run.stdout + run.stderr);
    assert.ok(run.json.length > 0 && run.junit.length > 0 && run.html.length > 0);
    assert.notEqual(run.steps[0]?.status, "passed");
  } finally {
    clearInterval(timer);
    await server.close();
  }
});
