/**
 * Reading a `websocket:` step: what a well-formed one becomes, and each
 * mistake one positioned problem with its code, before anything is sent.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../../lib/load/load_flow.ts";
import { runCli } from "../../support/cli.ts";
// The YAML parser and the JSONPath engine, loaded first: flows with anchors or filters load at once.
import "../../support/engines.ts";
import type { WebSocketSpec } from "../../../lib/kinds/websocket/mod.ts";

/** A flow with one websocket step whose map is `body` (indented under the key). */
function flow(body: string): string {
  return `name: ws\nvars: { room: lobby }\nsteps:\n  - name: chat\n    websocket:\n${
    body.split("\n").map((l) => `      ${l}`).join("\n")
  }\n`;
}

function problemsOf(body: string) {
  return loadFlow(flow(body), "ws.yaml").problems.map((p) => ({
    code: p.code,
    line: p.line,
    message: p.message,
  }));
}

Deno.test("a websocket step is read into its spec: url, headers, subprotocols, send, until, count, wait", () => {
  const { flow: loaded, problems } = loadFlow(
    flow(
      [
        'url: "ws://127.0.0.1:${PORT:-1}/chat"',
        'headers: { Authorization: "Bearer ${ENV.TOKEN:-x}" }',
        "subprotocols: [chat.v1, chat.v2]",
        "send:",
        "  - text: hello",
        '  - json: { type: subscribe, channel: "${vars.room}" }',
        "    after: 1",
        '  - binary: "aGVsbG8="',
        "until: \"$[?@.type == 'done']\"",
        "count: 10",
        "wait: 5s",
      ].join("\n"),
    ),
    "ws.yaml",
  );
  assert.deepEqual(problems, []);
  const call = loaded!.steps[0].call!;
  assert.equal(call.kind, "websocket");
  const spec = call.spec as WebSocketSpec;
  assert.equal(spec.url.source, "ws://127.0.0.1:${PORT:-1}/chat");
  assert.deepEqual(spec.headers.map(([n, v]) => [n, v.kind === "template" && v.template.source]), [
    ["authorization", "Bearer ${ENV.TOKEN:-x}"],
  ]);
  assert.deepEqual(spec.subprotocols, ["chat.v1", "chat.v2"]);
  assert.deepEqual(spec.send.map((s) => [s.kind, s.after]), [
    ["text", undefined],
    ["json", 1],
    ["binary", undefined],
  ]);
  assert.equal(spec.until?.[0].source, "$[?@.type == 'done']");
  assert.equal(spec.count, 10);
  assert.equal(spec.waitMs, 5000);
});

Deno.test("without count the step receives at most 1,000 messages; without wait, for the step's timeout", () => {
  const spec = loadFlow(flow('url: "wss://example.test/feed"'), "ws.yaml").flow!.steps[0].call!
    .spec as WebSocketSpec;
  assert.equal(spec.count, 1000);
  assert.equal(spec.waitMs, undefined);
  assert.deepEqual(spec.send, []);
});

Deno.test("each mistake in a websocket step is one positioned problem with its code", () => {
  const cases: [string, string, number, RegExp][] = [
    ['url: "ws://x.test"\nuntill: "$[0]"', "unknown-key", 7, /untill/],
    ["headers: {a: b}", "missing-key", 5, /"url"/],
    [
      'url: "ftp://x.test/chat"',
      "bad-url",
      6,
      /"ftp:\/\/x.test\/chat" is not an absolute ws or wss URL/,
    ],
    [
      'url: "ws://x.test"\nsend:\n  - { text: a, json: {b: 1} }',
      "conflicting-keys",
      8,
      /"text" and "json"/,
    ],
    ['url: "ws://x.test"\nsend:\n  - {}', "missing-key", 8, /Message 1 of "send" says no message/],
    [
      'url: "ws://x.test"\nsend:\n  - { binary: "not base64!" }',
      "bad-base64",
      8,
      /"not base64!" of message 1 of "send" is not base64/,
    ],
    ['url: "ws://x.test"\nsend:\n  - { bytes: "AA==" }', "unknown-key", 8, /bytes/],
    ['url: "ws://x.test"\nsend: hello', "wrong-type", 7, /"send" of a websocket step to be a list/],
    [
      'url: "ws://x.test"\nsend:\n  - { text: a, after: -1 }',
      "wrong-type",
      8,
      /"after" of message 1 of "send"/,
    ],
    ['url: "ws://x.test"\nsend:\n  - { after: 1 }', "missing-key", 8, /says no message/],
    ['url: "ws://x.test"\nuntil: "$[?@.type =="', "bad-path", 7, /./],
    [
      'url: "ws://x.test"\ncount: 0',
      "wrong-type",
      7,
      /"count" of a websocket step to be an integer of at least 1, got the number 0/,
    ],
    ['url: "ws://x.test"\nwait: soon', "wrong-type", 7, /wait/],
    ['url: "ws://x.test"\nsubprotocols: [{a: 1}]', "wrong-type", 7, /subprotocols/],
    [
      'url: "ws://x.test"\nheaders: [a]',
      "wrong-type",
      7,
      /"headers" of a websocket step to be a map/,
    ],
    [
      'url: "ws://x.test"\nheaders: {"bad name": x}',
      "bad-header",
      7,
      /"bad name" is not a header name/,
    ],
    [
      'url: "ws://x.test"\nheaders: {a: [1]}',
      "wrong-type",
      7,
      /header "a" of a websocket step to be a string/,
    ],
    ['url: "ws://x.test/${vars.nope}"', "unknown-var", 6, /nope/],
    ['url: "ws://x.test/chat#room"', "bad-url", 6, /has a #fragment/],
    [
      'url: "ws://x.test"\nuntil: "$.json.messages[0]"',
      "bad-path",
      7,
      /can never hold: \$ is a list/,
    ],
    ['url: "ws://x.test"\nuntil: "$[\'type\']"', "bad-path", 7, /can never hold/],
  ];
  const wrong = cases.flatMap(([body, code, line, message]) => {
    const problems = problemsOf(body);
    const ok = problems.length === 1 && problems[0].code === code &&
      problems[0].line === line && message.test(problems[0].message);
    return ok ? [] : [`${body}: ${JSON.stringify(problems)}`];
  });
  assert.deepEqual(wrong, []);
});

Deno.test("headers and subprotocols may come from anchors, aliases and merge keys, as a request's do", () => {
  const text = [
    "name: ws",
    'x-auth: &auth { authorization: "Bearer ${ENV.TOKEN:-x}" }',
    "x-protocols: &protocols [chat.v1]",
    "steps:",
    "  - name: chat",
    "    websocket:",
    '      url: "ws://x.test/chat"',
    "      headers: { <<: *auth, x-room: lobby, x-n: 7 }",
    "      subprotocols: *protocols",
    "",
  ].join("\n");
  const { flow: loaded, problems } = loadFlow(text, "ws.yaml");
  assert.deepEqual(problems, []);
  const spec = loaded!.steps[0].call!.spec as WebSocketSpec;
  assert.deepEqual(spec.headers.map(([n]) => n), ["authorization", "x-room", "x-n"]);
  assert.deepEqual(spec.subprotocols, ["chat.v1"]);
});

Deno.test("until paths that can hold are taken: filters, indices, descendants", () => {
  for (const until of ["$[?@.type == 'done']", "$[0].type", "$..type", "$[?@ == 'bye']", "$[*]"]) {
    assert.deepEqual(problemsOf(`url: "ws://x.test"\nuntil: "${until}"`), [], until);
  }
});

Deno.test("a URL made by an expression is checked when it runs, not at load", () => {
  assert.deepEqual(problemsOf('url: "${ENV.WS_URL:-http://x.test}"'), []);
});

Deno.test("flowrun validate lists every mistake of a websocket step, each with its position", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-ws-validate-" });
  try {
    await Deno.writeTextFile(
      `${dir}/ws.yaml`,
      flow(
        [
          'url: "ftp://127.0.0.1:9/chat"',
          "send:",
          '  - { text: a, binary: "AA==" }',
          '  - { binary: "%%%" }',
          'until: "$[?@.type =="',
        ].join("\n"),
      ),
    );
    const run = await runCli(["validate", `${dir}/ws.yaml`]);
    assert.equal(run.code, 2, run.stdout + run.stderr);
    const out = run.stdout + run.stderr;
    for (
      const where of [
        "ws.yaml:6:12 error[bad-url]",
        "ws.yaml:8:22 error[conflicting-keys]",
        "ws.yaml:9:21 error[bad-base64]",
        "ws.yaml:10:14 error[bad-path]",
      ]
    ) {
      assert.ok(out.includes(where), `${where} in:\n${out}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
