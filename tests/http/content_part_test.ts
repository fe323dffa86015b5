/**
 * A multipart `{content}` part (lib/load/content_part.ts,
 * lib/http/content_part.ts): text the flow holds, an earlier answer most
 * often, sent as its UTF-8 bytes with its line breaks as they are: with a
 * filename as a file part, without as a part with neither filename nor type
 * (curl's `-F 'f=<file'`). A text field's line breaks go out as CRLF, as a
 * browser's form sends them; the bytes of a saved answer must not change.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { runFlowText } from "../support/cli.ts";
import { stepFlowText } from "../support/step_flow.ts";
import "../support/engines.ts";

const load = (request: string) => loadFlow(stepFlowText([], request), "t.yaml");

Deno.test("a {content} part loads with its filename and type, or neither", () => {
  const { flow, problems } = load(
    '{url: "http://x.test", method: POST, multipart: {a: {content: "x\\ny", filename: a.json, content_type: application/json}, b: {content: z}}}',
  );
  assert.deepEqual(problems, []);
  const [a, b] = flow!.steps[0].request.multipart!;
  assert.ok(a.kind === "content" && b.kind === "content");
  assert.deepEqual([a.filename, a.contentType, b.filename, b.contentType], [
    "a.json",
    "application/json",
    undefined,
    undefined,
  ]);
});

Deno.test("a {content} part's mistakes: a map as content, a file beside it, a list as filename", () => {
  const codes = (multipart: string) =>
    load(`{url: "http://x.test", method: POST, multipart: ${multipart}}`).problems.map((p) =>
      p.code
    );
  assert.deepEqual(codes("{a: {content: {b: 1}}}"), ["wrong-type"]);
  assert.deepEqual(codes("{a: {content: x, file: y.txt}}"), ["unknown-key"]);
  assert.deepEqual(codes("{a: {content: x, filename: [y]}}"), ["wrong-type"]);
});

Deno.test("run: each {content} part arrives byte for byte, beside a field and its CRLF", async () => {
  const got: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    got.push(`${req.headers.get("content-type")}\n${await req.text()}`);
    return new Response("a\nb\r\nc \u00e9\n", { headers: { "content-type": "text/plain" } });
  });
  try {
    const flow = [
      "name: f",
      "steps:",
      "  - name: export",
      `    request: {url: "http://127.0.0.1:${server.addr.port}/export"}`,
      "    capture: {saved: $.body}",
      "  - name: upload",
      "    request:",
      "      method: POST",
      `      url: http://127.0.0.1:${server.addr.port}/import`,
      "      multipart:",
      '        file: {content: "${steps.export.capture.saved}", filename: dump.txt}',
      '        raw: {content: "${steps.export.capture.saved}"}',
      '        field: "${steps.export.capture.saved}"',
      "",
    ].join("\n");
    const run = await runFlowText(flow, {});
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const [type, ...body] = got[1].split("\n");
    const boundary = /boundary=(\S+)$/.exec(type)![1];
    const sent = body.join("\n");
    const answer = "a\nb\r\nc \u00e9\n";
    assert.equal(
      sent,
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="dump.txt"\r\n` +
        `Content-Type: application/octet-stream\r\n\r\n${answer}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="raw"\r\n\r\n${answer}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="field"\r\n\r\n` +
        `a\r\nb\r\nc \u00e9\r\n\r\n--${boundary}--\r\n`,
    );
  } finally {
    await server.shutdown();
  }
});
