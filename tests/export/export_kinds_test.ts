/**
 * `flowrun export artillery` of WebSocket and SSE steps (issue 55), the CLI
 * in a subprocess, without Artillery: each step becomes a `function:` item
 * of the one HTTP-engine scenario, naming a processor function that makes
 * the exchange (not a `log` item that skips it); its values stay Artillery
 * templates, so a secret set while exporting is never written; captures flow
 * into the later HTTP step's URL; what the processor does not do is named,
 * and a gRPC step is still refused with a note.
 * tests/export/artillery_kinds_test.ts runs the export with Artillery.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { runCli } from "../support/cli.ts";

const FIXTURES = new URL("../fixtures/export/", import.meta.url).pathname;
const SECRET = "kinds-token-never-in-a-script-5d1e";

/** Exports `flow` into a new temp folder; resolves to the run and the two files. */
async function exported(flow: string, env: Record<string, string> = {}) {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-export-kinds-" });
  const run = await runCli(["export", "artillery", `${FIXTURES}${flow}`, "-o", dir], { env });
  const read = (name: string) => Deno.readTextFile(`${dir}/${name}`).catch(() => "");
  const script = await read("artillery.yml");
  const processor = await read("flowrun-processor.js");
  await Deno.remove(dir, { recursive: true });
  return { run, script, processor };
}

// deno-lint-ignore no-explicit-any
type Any = any;

Deno.test("a WebSocket and an SSE step become processor calls, not skipped log items", async () => {
  const env = { KINDS_TOKEN: SECRET, WS_URL: "ws://127.0.0.1:9", HTTP_URL: "http://127.0.0.1:9" };
  const { run, script, processor } = await exported("kinds.yaml", env);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /Every step, capture and check is expressed\./);
  const flow: Any[] = (parse(script) as Any).scenarios[0].flow;
  assert.deepEqual(flow.map((item) => Object.keys(item)[0]), [
    "function",
    "function",
    "function",
    "function",
    "get",
  ]);
  assert.deepEqual(flow.slice(0, 4).map((item) => item.function), [
    "flowrunStart",
    "flowrunWebSocket1",
    "flowrunSse2",
    "flowrunBefore",
  ]);
  assert.doesNotMatch(script, /log:|not exported/);
  for (const name of ["flowrunWebSocket1", "flowrunSse2"]) {
    assert.match(processor, new RegExp(`function ${name}\\(context, events, done\\) \\{`));
    assert.match(processor, new RegExp(`^  ${name},$`, "m"), `${name} is exported`);
  }
  // The step's data: its values as Artillery templates, rendered for each virtual user.
  const data = (name: string): Any =>
    JSON.parse(
      new RegExp(
        `function ${name}\\(context, events, done\\) \\{\\n  return flowrunKind\\((.*), context, events, done\\);`,
      ).exec(processor)![1],
    );
  const chat = data("flowrunWebSocket1");
  assert.equal(chat.spec.url, "{{ $env.WS_URL }}/chat");
  assert.deepEqual(chat.spec.headers, {
    authorization: "Bearer {{ $env.KINDS_TOKEN }}",
    "x-run": "{{ $uuid }}",
  });
  assert.deepEqual(chat.spec.send[1], {
    kind: "json",
    value: { type: "subscribe", channel: "{{ f0_var_room }}" },
  });
  assert.deepEqual(chat.spec.send[3], { kind: "text", value: "bye", after: 3 });
  // A WebSocket step's until is a list, each path to hold for some message.
  assert.deepEqual(chat.spec.until, [{
    source: "$[?@.type == 'done']",
    any: [[{ at: ["type"], op: "==", value: "done" }]],
  }]);
  assert.deepEqual(chat.captures, [{
    as: "f0_chat__ticket",
    at: ["json", "messages", 0, "ticket"],
  }]);
  assert.equal(chat.checks.length, 7, "status, the header and five paths");
  const progress = data("flowrunSse2");
  assert.equal(progress.spec.url, "{{ $env.HTTP_URL }}/events?ticket={{ f0_chat__ticket }}");
  assert.equal(progress.spec.waitMs, 10_000);
  // The captures flow into the HTTP step, as HTTP captures do.
  assert.match(processor, /encodeURIComponent\(text\(v\["f0_progress__result"\]\)\)/);
  assert.ok(!script.includes(SECRET) && !processor.includes(SECRET), "the secret is not written");
});

Deno.test("what the processor does not do of a kind step is named; a reflection-only gRPC step is exported", async () => {
  const { run, script } = await exported("kinds_notes.yaml");
  assert.equal(run.code, 0, run.stderr);
  const expected = [
    /kind notes › feed: reconnects is not expressed/,
    /kind notes › feed: until "\$\[\?match\(@\.event, 'd\.\*'\)\]" is not expressed/,
    /kind notes › socket: the loop of a WebSocket or SSE step is not expressed: it runs once/,
  ];
  for (const line of expected) {
    assert.match(run.stderr, line);
    assert.match(script, new RegExp(`# Not expressed: ${line.source}`));
  }
  assert.match(run.stderr, /Not expressed \(3, also commented in the script\):/);
  assert.doesNotMatch(run.stderr, /call/, "the gRPC step is expressed");
  const flow: Any[] = (parse(script) as Any).scenarios[0].flow;
  assert.deepEqual(flow.map((item) => item.function ?? Object.keys(item)[0]), [
    "flowrunStart",
    "flowrunSse1",
    "flowrunWebSocket2",
    "flowrunGrpc3",
  ]);
  // The processor asks the server's reflection for the method: no protos/ are written.
  assert.match(run.stderr, /\(1 scenario, 0 requests\) and [^\n]*flowrun-processor\.js\.\n/);
});

Deno.test("a credential's default in a WebSocket or SSE step's headers is not written", async () => {
  const { run, script, processor } = await exported("kinds_secret_default.yaml");
  assert.equal(run.code, 0, run.stderr);
  for (const text of [script, processor]) {
    assert.doesNotMatch(text, /ws-default-credential-1f2e|sse-default-credential-9a8b/);
  }
  assert.match(processor, /env\("KINDS_TOKEN", undefined\)/, "the var reads the variable alone");
  assert.match(processor, /"x-api-key":"\{\{ \$env\.SSE_KEY \}\}"/);
  assert.match(run.stderr, /\$\{ENV\.SSE_KEY\}'s default is left out/);
  // A plain header's default is no credential: the processor sets it for each user.
  assert.match(processor, /env\("TRACE", "trace-default-kept"\)/);
});

Deno.test("a WebSocket or SSE step is authorised by its flow's auth, as in flowrun run", async () => {
  const env = { KINDS_TOKEN: SECRET, WS_URL: "ws://127.0.0.1:9", HTTP_URL: "http://127.0.0.1:9" };
  const { run, processor } = await exported("kinds_auth.yaml", env);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /Every step, capture and check is expressed\./);
  for (const name of ["flowrunWebSocket1", "flowrunSse2"]) {
    const data = JSON.parse(
      new RegExp(`return flowrunKind\\((.*), context, events, done\\);\\n\\}\\n`)
        .exec(processor.slice(processor.indexOf(`function ${name}(`)))![1],
    );
    assert.deepEqual(data.auth, { headers: { authorization: "Bearer {{ $env.KINDS_TOKEN }}" } });
  }
  assert.ok(!processor.includes(SECRET));
});

Deno.test("a gRPC step becomes a processor call with its .proto root written beside the script", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-export-grpc-" });
  try {
    const env = { KINDS_TOKEN: SECRET, GRPC_TARGET: "127.0.0.1:9", HTTP_URL: "http://127.0.0.1:9" };
    const run = await runCli(["export", "artillery", `${FIXTURES}kinds_grpc.yaml`, "-o", dir], {
      env,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /Every step, capture and check is expressed\./);
    assert.match(
      run.stderr,
      /and the \.proto files its gRPC steps call, as JSON, under .*\/protos\/\./,
    );
    assert.doesNotMatch(run.stderr, /it uploads/);
    const script = await Deno.readTextFile(`${dir}/artillery.yml`);
    const processor = await Deno.readTextFile(`${dir}/flowrun-processor.js`);
    const flow: Any[] = (parse(script) as Any).scenarios[0].flow;
    assert.deepEqual(flow.map((item) => item.function ?? Object.keys(item)[0]), [
      "flowrunStart",
      "flowrunGrpc1",
      "flowrunGrpc2",
      "flowrunGrpc3",
      "flowrunGrpc4",
      "flowrunGrpc5",
      "flowrunBefore",
      "get",
    ]);
    assert.doesNotMatch(script, /log:|not exported/);
    const data = (name: string): Any =>
      JSON.parse(
        new RegExp(
          `function ${name}\\(context, events, done\\) \\{\\n  return flowrunKind\\((.*), context, events, done\\);`,
        )
          .exec(processor)![1],
      );
    const place = data("flowrunGrpc1");
    assert.equal(place.kind, "grpc");
    assert.equal(place.spec.target, "{{ $env.GRPC_TARGET }}");
    assert.equal(place.spec.path, "/atlas.Atlas/GetPlace");
    assert.deepEqual(place.spec.metadata, {
      authorization: "Bearer {{ $env.KINDS_TOKEN }}",
      "x-echo": "{{ $uuid }}",
    });
    assert.deepEqual(place.spec.message, { latitude: 405551234, longitude: -744442468 });
    assert.deepEqual(place.captures, [{ as: "f0_place__place", at: ["json", "name"] }]);
    assert.equal(place.checks.length, 4, "status, two headers and a path");
    const chat = data("flowrunGrpc5");
    assert.deepEqual([chat.spec.requestStream, chat.spec.responseStream], [true, true]);
    assert.equal(chat.spec.messages[1].message, "{{ f0_place__place }}");
    // The root is written once for the five steps that share the .proto file.
    const roots = new Set([1, 2, 3, 4, 5].map((i) => data(`flowrunGrpc${i}`).spec.protos));
    assert.deepEqual([...roots], ["protos/1.json"]);
    const root = JSON.parse(await Deno.readTextFile(`${dir}/protos/1.json`));
    assert.ok(root.nested.atlas.nested.Atlas.methods.TripChat, JSON.stringify(root));
    for (const text of [script, processor, JSON.stringify(root)]) {
      assert.ok(!text.includes(SECRET), "the secret is not written");
    }
    assert.match(processor, /encodeURIComponent\(text\(v\["f0_chat__echoed"\]\)\)/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
