/**
 * `convert curl`: an answer saved to a file whose name says nothing of text
 * (`-o dump.bin`, `> snapshot.db`) and sent later (`--data-binary @dump.bin`,
 * `-T snapshot.db`, `-F f=@dump.bin`). The flow captured the answer as text
 * and sent that text: bytes that are not UTF-8 (a gzip's, a PNG's) became
 * U+FFFD and the server got something else. The saving step now captures the
 * body's bytes as base64 (`{body: base64}`) and the later step sends them back
 * as bytes (`body_base64`, a part's `content_base64`). Run with the CLI against
 * a server whose answer is not UTF-8 and differs each time, which accepts an
 * upload only when it is, byte for byte, its last answer.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { runCli } from "../support/cli.ts";

/** The docs: two exports saved to files that say nothing of text, each sent back three ways. */
const docs = (o: string) =>
  [
    `curl -o dump.bin ${o}/export`,
    `curl --data-binary @dump.bin ${o}/import`,
    `curl -s ${o}/export > snapshot.db`,
    `curl -T snapshot.db ${o}/import`,
    `curl -F file=@snapshot.db ${o}/import`,
    "",
  ].join("\n");

/** Bytes no UTF-8 decoder gives back: gzip's magic, a lone 0xff, a cut sequence, a NUL. */
function answer(n: number): Uint8Array<ArrayBuffer> {
  return new Uint8Array([0x1f, 0x8b, 0x08, 0x00, n, 0xff, 0xfe, 0xc3, 0x00, 0xe2, 0x82, 0x0a, n]);
}

/** The file part's bytes of a multipart body. */
function filePart(body: Uint8Array, type: string): Uint8Array {
  const boundary = /boundary="?([^";]+)"?/.exec(type)![1];
  const text = new TextDecoder("latin1").decode(body);
  const start = text.indexOf("\r\n\r\n", text.indexOf(`--${boundary}`)) + 4;
  const end = text.indexOf(`\r\n--${boundary}`, start);
  return body.subarray(start, end);
}

/** A server answering each export differently; an import is 204 only when it is the last answer. */
function exporter() {
  let n = 0;
  let served = new Uint8Array(0);
  const got: boolean[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    if (req.method === "GET") {
      served = answer(++n);
      return new Response(served, { headers: { "content-type": "application/octet-stream" } });
    }
    const raw = new Uint8Array(await req.arrayBuffer());
    const type = req.headers.get("content-type") ?? "";
    const bytes = type.startsWith("multipart/") ? filePart(raw, type) : raw;
    const same = bytes.length === served.length && bytes.every((b, i) => b === served[i]);
    got.push(same);
    return new Response(same ? null : "not the snapshot", { status: same ? 204 : 400 });
  });
  return { server, got, origin: `http://127.0.0.1:${server.addr.port}` };
}

Deno.test("a saved answer named as no text is captured as base64 and sent as bytes", () => {
  for (const spelling of ["a", "b"] as const) {
    const { yaml, summary, files } = convertCurl(docs("http://a.test"), { spelling });
    assert.match(yaml, /(capture|extract):\n\s+dump: \{ body: base64 \}\n/, yaml);
    assert.match(yaml, /body_base64: \$\{steps\.get_export\.(capture\.)?dump\}\n/, yaml);
    assert.match(yaml, /content_base64: \$\{steps\.get_export_2\.(capture\.)?snapshot\}\n/, yaml);
    assert.match(yaml, /filename: snapshot\.db\n\s+content_type: application\/octet-stream\n/);
    assert.equal(files.length, 0);
    assert.ok(!summary.notes.some((n) => /byte for byte/.test(n)), summary.notes.join("\n"));
  }
});

Deno.test("a saved answer named as text is still captured as text", () => {
  const { yaml } = convertCurl(
    "curl -o conf.json http://a.test/config\ncurl -T conf.json http://a.test/config\n",
  );
  assert.match(yaml, /conf: \$\.body\n/, yaml);
  assert.match(yaml, /body: \$\{steps\.get_config\.capture\.conf\}\n/, yaml);
});

Deno.test("run: each upload is the server's last answer, byte for byte, on two runs", async () => {
  const { server, got, origin } = exporter();
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/docs.sh`, docs(origin));
    const converted = await runCli(["convert", "curl", "docs.sh", "-o", "flow.yaml"], {
      cwd: dir,
    });
    assert.equal(converted.code, 0, converted.stderr);
    for (const run of [1, 2]) {
      const out = await runCli(["run", "flow.yaml"], { cwd: dir });
      assert.equal(out.code, 0, `run ${run}: ${out.stdout}${out.stderr}`);
      // The answer's bytes are never shown: a report shows the body's size.
      assert.match(out.stdout + out.stderr, /passed|✓|ok/i);
    }
    assert.deepEqual(got, [true, true, true, true, true, true]);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
      "docs.sh",
      "flow.yaml",
    ]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
