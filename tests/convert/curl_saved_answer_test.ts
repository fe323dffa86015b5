/**
 * `convert curl`: docs save an answer to a file and send that file later
 * (`curl …/config > snapshot.json`, then `curl -T snapshot.json …/config`).
 * The flow sent a file that was not there (an empty placeholder, with a note
 * asking for it), so the restore sent nothing. The saving step now captures
 * its answer whole (`$.body`) and the later step sends that capture: what
 * this run's server answered, byte for byte, whichever way the docs save it
 * (`>`, `-o`, `--output`, `-O`) and send it (`-T`, `--data-binary @`,
 * `--json @`, `-F field=<`, standard input). An answer the docs save compressed
 * (`-H 'Accept-Encoding: gzip' … > data.jsonl.gz`) and send back with
 * `Content-Encoding: gzip` is held decoded, so it goes back decoded without
 * that header, where it went out claiming gzip. Run against a server whose answer
 * differs each time and that accepts only the bytes it handed out last.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

/** Each way docs save an answer, and each way a later command sends the file. */
const SAVES = [
  (o: string) => `curl -s ${o}/config > snapshot.json`,
  (o: string) => `curl -o snapshot.json ${o}/config`,
  (o: string) => `curl --output snapshot.json ${o}/config`,
  (o: string) => `curl -sO ${o}/snapshot.json`,
];
const SENDS = [
  (o: string) => `curl -T snapshot.json ${o}/config`,
  (o: string) => `curl --data-binary @snapshot.json ${o}/config`,
  (o: string) => `curl --json @snapshot.json ${o}/config`,
  (o: string) => `curl -F 'config=<snapshot.json' ${o}/config`,
  (o: string) => `curl --data-binary @- ${o}/config < snapshot.json`,
  (o: string) => `cat snapshot.json | curl -X PUT --data-binary @- ${o}/config`,
];

const docs = (origin: string) =>
  SAVES.flatMap((save) => SENDS.map((send) => `${save(origin)}\n${send(origin)}\n`)).join("\n");

Deno.test("the later step sends the earlier answer's body, captured whole", () => {
  const { yaml, summary, files } = convertCurl(
    "curl -s http://a.test/config > snapshot.json\ncurl -T snapshot.json http://a.test/config\n",
  );
  assert.match(yaml, /capture:\n\s+snapshot: \$\.body\n/, yaml);
  assert.match(yaml, /body: \$\{steps\.get_config\.capture\.snapshot\}\n/, yaml);
  assert.ok(!yaml.includes("body_file"), yaml);
  assert.equal(files.length, 0);
  assert.ok(
    !summary.notes.some((n) => /not there|does not exist/.test(n)),
    summary.notes.join("\n"),
  );
  const b = convertCurl(
    "curl -s http://a.test/config > snapshot.json\ncurl -T snapshot.json http://a.test/config\n",
    { spelling: "b" },
  );
  assert.ok(b.yaml.includes("snapshot: { regex: '[\\s\\S]*' }"), b.yaml);
});

Deno.test("an answer whose file's name says nothing of text is carried as its bytes, no note", () => {
  // It was carried as text, with a note that bytes not UTF-8 would change:
  // curl_saved_binary_test.ts sends such an answer back byte for byte.
  const { yaml, summary } = convertCurl(
    "curl -o backup.tgz http://a.test/backup\ncurl --data-binary @backup.tgz http://a.test/restore\n",
  );
  assert.match(yaml, /backup: \{ body: base64 \}\n[\s\S]*body_base64: /, yaml);
  assert.ok(!summary.notes.some((n) => /byte for byte/.test(n)), summary.notes.join());
});

Deno.test("run: an answer saved compressed is sent back decoded, without its Content-Encoding", async () => {
  const rows = '{"metric": "cpu", "value": 1}\n{"metric": "mem", "value": 2}\n';
  const got: string[] = [];
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (req) => {
      if (req.method === "GET") {
        const gzip = /gzip/.test(req.headers.get("accept-encoding") ?? "");
        const body = gzip
          ? new Response(new Blob([rows]).stream().pipeThrough(new CompressionStream("gzip")))
          : new Response(rows);
        return new Response(body.body, { headers: gzip ? { "content-encoding": "gzip" } : {} });
      }
      const coded = req.headers.get("content-encoding") === "gzip";
      const stream = coded ? req.body!.pipeThrough(new DecompressionStream("gzip")) : req.body!;
      got.push(await new Response(stream).text());
      return new Response(null, { status: 204 });
    },
  );
  const o = `http://127.0.0.1:${server.addr.port}`;
  const text = `curl -H 'Accept-Encoding: gzip' ${o}/export > data.jsonl.gz\n` +
    `curl -X POST -H 'Content-Encoding: gzip' ${o}/import -T data.jsonl.gz\n`;
  await withCurlFlow(text, async ({ converted, runFlow }) => {
    assert.match(
      converted.stderr,
      /holds decoded; it is sent decoded, without "Content-Encoding: gzip"/,
    );
    const out = await runFlow();
    assert.equal(out.code, 0, out.stdout + out.stderr);
    assert.deepEqual(got, [rows]);
  });
});

Deno.test("run: every save and send pair sends the bytes the server answered", async () => {
  let served = "";
  let n = 0;
  const got: string[] = [];
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (req) => {
      if (req.method === "GET") {
        // A different answer each time, with a line break and text past ASCII: a stale file fails.
        served = `{"apps": {"http": {"n": ${++n}}},\n  "note": "caf\u00e9 \u2713"}\n`;
        return new Response(served, { headers: { "content-type": "application/json" } });
      }
      const multipart = req.headers.get("content-type")?.startsWith("multipart/form-data");
      // A multipart text field's line breaks go out as CRLF (as a browser sends a form's).
      const body = multipart
        ? String((await req.formData()).get("config")).replaceAll("\r\n", "\n")
        : await req.text();
      got.push(body);
      return body === served
        ? new Response(null, { status: 200 })
        : new Response("stale", { status: 400 });
    },
  );
  await withCurlFlow(docs(`http://127.0.0.1:${server.addr.port}`), async ({ dir, runFlow }) => {
    const out = await runFlow();
    assert.equal(out.code, 0, out.stdout + out.stderr);
    assert.equal(got.length, SAVES.length * SENDS.length);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
      "docs.sh",
      "flow.yaml",
    ]);
  });
});
