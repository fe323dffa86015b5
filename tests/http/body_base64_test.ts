/**
 * Bytes a flow carries as base64: a capture of the body's bytes
 * (`{body: base64}`), sent back as the request's body (`body_base64`) or as a
 * file part (`{content_base64, filename}`). A capture holds text, and an
 * answer that is not UTF-8 (an archive, an image, a database's snapshot)
 * loses its bytes as text: each byte that is no UTF-8 becomes U+FFFD, and a
 * byte order mark is dropped. The bytes travel as base64 and arrive as the
 * server sent them; reports show their size, never them.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { runFlowText } from "../support/cli.ts";
import { stepFlowText } from "../support/step_flow.ts";
import "../support/engines.ts";

const load = (request: string, capture = "") =>
  loadFlow(stepFlowText([], request) + capture, "t.yaml");

/** Answers no text gives back: not UTF-8, a byte order mark first, a cut sequence at the end. */
const ANSWERS: Record<string, Uint8Array<ArrayBuffer>> = {
  gzip: new Uint8Array([0x1f, 0x8b, 0x08, 0x00, 0xff, 0xfe, 0x00, 0x0a, 0x80]),
  bom: new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d, 0x0a]),
  cut: new Uint8Array([0x61, 0xe2, 0x82]),
};

/** The bytes as a stream of two pieces, split inside the answer. */
function pieces(bytes: Uint8Array<ArrayBuffer>): ReadableStream<Uint8Array> {
  return ReadableStream.from([bytes.slice(0, 5), bytes.slice(5)]);
}

/** A server answering each export's bytes and telling whether each upload was them. */
function server() {
  const got: string[] = [];
  const s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const name = url.pathname.split("/").at(-1)!;
    // One answer streams in two pieces, with no length: the runner reads it block by block.
    if (req.method === "GET" && name === "gzip") return new Response(pieces(ANSWERS[name]));
    if (req.method === "GET") return new Response(ANSWERS[name]);
    const type = req.headers.get("content-type") ?? "";
    const raw = new Uint8Array(await req.arrayBuffer());
    const text = new TextDecoder("latin1").decode(raw);
    const want = new TextDecoder("latin1").decode(ANSWERS[name]);
    const same = type.startsWith("multipart/")
      ? text.includes(`filename="${name}.bin"\r\nContent-Type: image/png\r\n\r\n${want}\r\n--`)
      : text === want && type === "application/octet-stream";
    got.push(`${name} ${req.method} ${same}`);
    return new Response(null, { status: same ? 204 : 400 });
  });
  return { got, origin: `http://127.0.0.1:${s.addr.port}`, close: () => s.shutdown() };
}

Deno.test("body_base64, {body: base64} and content_base64 load", () => {
  const { flow, problems } = load(
    '{url: "http://x.test", method: POST, body_base64: "H4sI"}',
    "    capture: {dump: {body: base64}}\n",
  );
  assert.deepEqual(problems, []);
  assert.equal(flow!.steps[0].request.bodyBase64?.kind, "const");
  assert.deepEqual(flow!.steps[0].captures[0].from, { kind: "body", encoding: "base64" });
  const part = load(
    '{url: "http://x.test", method: POST, multipart: {f: {content_base64: "YQ==", filename: a.bin}}}',
  );
  assert.deepEqual(part.problems, []);
  assert.equal(part.flow!.steps[0].request.multipart![0].kind, "base64");
});

Deno.test("validate names each mistake of the new keys", () => {
  const said = (request: string, capture = "") =>
    load(request, capture).problems.map((p) => `${p.code}: ${p.message}`);
  const post = (body: string) => `{url: "http://x.test", method: POST, ${body}}`;
  assert.deepEqual(said(post('body_base64: "not base64!"')), [
    'wrong-type: Expected "body_base64" of step "s" to be base64 text (RFC 4648).',
  ]);
  assert.match(said(post("body_base64: {a: 1}"))[0], /to be base64 text, got a map/);
  assert.match(said(post('body_base64: "YQ==", body: x'))[0], /^conflicting-keys: /);
  assert.match(said('{url: "http://x.test", body_base64: "YQ=="}')[0], /^bad-method: A GET/);
  assert.match(
    said(post('multipart: {f: {content_base64: "YQ=="}}'))[0],
    /^missing-key: .*filename/,
  );
  assert.deepEqual(said(post('body: "x"'), "    capture: {dump: {body: hex}}\n"), [
    'wrong-type: Expected "body" in capture "dump" of step "s" to be base64, got "hex".',
  ]);
});

Deno.test("run: each answer that is not text goes back byte for byte, as a body and as a part", async () => {
  const s = server();
  try {
    const steps = Object.keys(ANSWERS).flatMap((name) => [
      `  - name: get_${name}`,
      `    request: {url: "${s.origin}/${name}"}`,
      "    capture: {dump: {body: base64}, text: $.body}",
      `  - name: put_${name}`,
      `    request: {method: PUT, url: "${s.origin}/${name}", body_base64: "\${steps.get_${name}.capture.dump}"}`,
      `  - name: post_${name}`,
      "    request:",
      `      method: POST`,
      `      url: "${s.origin}/${name}"`,
      `      multipart: {f: {content_base64: "\${steps.get_${name}.capture.dump}", filename: ${name}.bin, content_type: image/png}}`,
    ]);
    const run = await runFlowText(["name: f", "steps:", ...steps, ""].join("\n"), {});
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.deepEqual(
      s.got,
      Object.keys(ANSWERS).flatMap((n) => [`${n} PUT true`, `${n} POST true`]),
    );
    const put = run.report.flows[0].steps.find((x: { name: string }) => x.name === "put_gzip");
    assert.ok(put, JSON.stringify(run.report));
    // A report shows a base64 body as its size, never its bytes nor their base64.
    assert.ok(!JSON.stringify(run.report).includes("H4sIAP"));
  } finally {
    await s.close();
  }
});

Deno.test("run: text that is not base64 fails its step, nothing sent, the text never shown", async () => {
  const s = server();
  try {
    const flow = [
      "name: f",
      "steps:",
      `  - name: put`,
      `    request: {method: PUT, url: "${s.origin}/gzip", body_base64: "\${ENV.DUMP}"}`,
      "",
    ].join("\n");
    const run = await runFlowText(flow, { DUMP: "secret words!" });
    assert.notEqual(run.code, 0);
    assert.match(run.stdout + run.stderr, /body_base64 is not base64 text/);
    assert.ok(!(run.stdout + run.stderr).includes("secret words"));
    assert.deepEqual(s.got, []);
  } finally {
    await s.close();
  }
});

Deno.test("run: the base64 of an answer that holds a secret is masked wherever it is shown", async () => {
  const token = "tok-4f9a8b7c6d5e";
  const answer = new Uint8Array([...new TextEncoder().encode(`{"t":"${token}"}`), 0xff, 0x00]);
  const b64 = btoa(String.fromCharCode(...answer));
  const s = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) => req.method === "GET" ? new Response(answer) : new Response("no", { status: 400 }),
  );
  try {
    const origin = `http://127.0.0.1:${s.addr.port}`;
    const flow = [
      "name: f",
      "steps:",
      "  - name: get",
      `    request: {url: "${origin}/d", headers: {Authorization: "Bearer \${ENV.API_TOKEN}"}}`,
      "    capture: {dump: {body: base64}}",
      "  - name: put",
      `    request: {method: PUT, url: "${origin}/d", headers: {x-dump: "\${steps.get.capture.dump}"}, body: x}`,
      "    assert: {status: 204}",
      "",
    ].join("\n");
    const run = await runFlowText(flow, { API_TOKEN: token });
    assert.notEqual(run.code, 0);
    const shown = run.stdout + run.stderr + JSON.stringify(run.report);
    assert.match(shown, /x-dump/i);
    // The whole value is the secret's, not only the letters that spell the token.
    assert.ok(!shown.includes(b64.slice(0, 7)), shown);
    assert.ok(!shown.includes(token));
  } finally {
    await s.shutdown();
  }
});
