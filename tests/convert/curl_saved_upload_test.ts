/**
 * `convert curl`: a multipart part that sends a file an earlier command saved
 * its answer to (`curl -o dump.json …/export`, then `curl -F file=@dump.json
 * …/import` or `-F 'config=<dump.json'`). The flow sent an empty placeholder
 * file for `@`, with a note asking the user to save the answer there before
 * each run, and sent `<`'s text as a form field, its line breaks turned into
 * CRLF; curl sends the file's bytes as they are. The part is now a
 * `{content}` part holding the saving step's capture: a file part with the
 * filename and type curl sends, or a part with neither, each byte for byte.
 * So is a `<file` on disk whose text has line breaks. Run against a server
 * whose answer differs each time; what it receives from the real curl and
 * from the flow is compared part by part, headers and bytes.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { runCli } from "../support/cli.ts";
import { hasCurl } from "../support/has_curl.ts";

/** One part as it arrived: its head's lines and its bytes as Latin-1 text (one character a byte). */
type Part = { head: string; bytes: string };

/** The parts of a raw multipart body, split at its boundary. */
function rawParts(body: Uint8Array, type: string): Part[] {
  const boundary = /boundary="?([^";]+)"?/.exec(type)![1];
  const text = new TextDecoder("latin1").decode(body);
  return text.split(`--${boundary}`).slice(1, -1).map((chunk) => {
    const at = chunk.indexOf("\r\n\r\n");
    // Part heads compare case-insensitively, in any order: curl writes `Content-Type`.
    const head = chunk.slice(2, at).split("\r\n").map((l) => l.toLowerCase()).sort().join("\n");
    return { head, bytes: chunk.slice(at + 4, -2) };
  });
}

/** The docs: an export saved two ways, then sent back as a file part and as a text part. */
const docs = (o: string) =>
  [
    `curl -s ${o}/export > dump.json`,
    `curl -F file=@dump.json ${o}/import`,
    `curl -o saved.bin ${o}/export`,
    `curl -F 'config=<saved.bin' -F note=hi ${o}/import`,
    `curl -F 'notes=<notes.txt' ${o}/import`,
    "",
  ].join("\n");

/** A server answering each export differently, recording each import's parts and its last export. */
function exporter() {
  let n = 0;
  let served = "";
  const got: { parts: Part[]; served: string }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    if (req.method === "GET") {
      // Line breaks, a CR and text past ASCII: any change on the way back shows.
      served = `{"n": ${++n},\n "crlf": "a\\r\\nb",\n "note": "caf\u00e9 \u2713"}\n`;
      return new Response(served, { headers: { "content-type": "application/json" } });
    }
    const body = new Uint8Array(await req.arrayBuffer());
    got.push({ parts: rawParts(body, req.headers.get("content-type")!), served });
    return new Response(null, { status: 204 });
  });
  return { server, got, origin: `http://127.0.0.1:${server.addr.port}` };
}

/** The served answer's bytes as Latin-1 text, as `rawParts` holds a part's. */
const latin1 = (text: string) => new TextDecoder("latin1").decode(new TextEncoder().encode(text));

Deno.test("a saved answer sent as a multipart part is the saving step's capture, no file", () => {
  const { yaml, summary, files } = convertCurl(
    "curl -o dump.json http://a.test/dump\ncurl -F file=@dump.json -F 'c=<dump.json' http://a.test/load\n",
  );
  assert.match(yaml, /capture:\n\s+dump: \$\.body\n/, yaml);
  assert.match(
    yaml,
    /file:\n\s+content: \$\{steps\.get_dump\.capture\.dump\}\n\s+filename: dump\.json\n\s+content_type: application\/octet-stream\n/,
    yaml,
  );
  assert.match(yaml, /c:\n\s+content: \$\{steps\.get_dump\.capture\.dump\}\n/, yaml);
  assert.equal(files.length, 0);
  assert.ok(
    !summary.notes.some((n) => /multipart file|does not exist/.test(n)),
    summary.notes.join("\n"),
  );
});

Deno.test({
  name: "run: each part arrives as the real curl sends it, the answer byte for byte",
  ignore: !hasCurl,
  async fn() {
    const { server, got, origin } = exporter();
    const [byCurl, byFlow] = [await Deno.makeTempDir(), await Deno.makeTempDir()];
    try {
      for (const dir of [byCurl, byFlow]) {
        await Deno.writeTextFile(`${dir}/docs.sh`, docs(origin));
        await Deno.writeTextFile(`${dir}/notes.txt`, "first line\nsecond line\r\nthird\n");
      }
      const curl = await new Deno.Command("bash", { args: ["docs.sh"], cwd: byCurl }).output();
      assert.ok(curl.success, new TextDecoder().decode(curl.stderr));
      const converted = await runCli(
        ["convert", "curl", "docs.sh", "-o", "flow.yaml"],
        { cwd: byFlow },
      );
      assert.equal(converted.code, 0, converted.stderr);
      const out = await runCli(["run", "flow.yaml"], { cwd: byFlow });
      assert.equal(out.code, 0, out.stdout + out.stderr);
      assert.equal(got.length, 6);
      const [curlGot, flowGot] = [got.slice(0, 3), got.slice(3)];
      for (const [i, sent] of flowGot.entries()) {
        assert.deepEqual(sent.parts, curlGot[i].parts.length ? sentAs(curlGot[i], sent) : []);
      }
      // The saved answers went back as this run's server answered them.
      assert.equal(flowGot[0].parts[0].bytes, latin1(flowGot[0].served));
      assert.equal(flowGot[1].parts[0].bytes, latin1(flowGot[1].served));
      assert.ok(flowGot[1].parts[0].bytes.includes("\n "), "line breaks kept as LF");
      assert.equal(flowGot[2].parts[0].bytes, "first line\nsecond line\r\nthird\n");
      assert.deepEqual([...Deno.readDirSync(byFlow)].map((e) => e.name).sort(), [
        "docs.sh",
        "flow.yaml",
        "notes.txt",
      ]);
    } finally {
      await server.shutdown();
      for (const dir of [byCurl, byFlow]) await Deno.remove(dir, { recursive: true });
    }
  },
});

/** What curl sent, with the answer of the flow's own run where curl sent its own run's. */
function sentAs(byCurl: { parts: Part[]; served: string }, byFlow: { served: string }): Part[] {
  return byCurl.parts.map((p) => ({
    head: p.head,
    bytes: p.bytes === latin1(byCurl.served) ? latin1(byFlow.served) : p.bytes,
  }));
}
