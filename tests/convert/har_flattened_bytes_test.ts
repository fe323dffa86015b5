/**
 * `convert har` on chrome-har's recording of a JSON save that holds text beyond ASCII, as n8n
 * 1.123's editor saves a workflow whose trigger is named `When clicking ‘Execute workflow’`
 * with `"tags": ["6yN4g2UNNHPXoNGr"]` (docs/real-servers.md). chrome-har keeps the body as
 * pairs (a one-item list becomes its item) and writes `bodySize` as the text's length in
 * characters, while `Content-Length` counts the bytes sent: each curly quote is one character
 * and three bytes. The repair that restores a list when the body then has the size the
 * browser sent compared bytes with characters, found no shape that fits and sent `tags` as a
 * string, which the server refused. The bytes on the wire are `Content-Length`'s.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { jsonAnswer } from "../support/har_records.ts";

const SAVED = { name: "When clicking ‘Execute workflow’", tags: ["t1"], versionId: "v1" };

/** chrome-har's entry for a JSON PATCH of `sent`: one pair per list item, `bodySize` in characters. */
function entry(url: string, sent: Record<string, unknown>) {
  const text = JSON.stringify(sent);
  const params = Object.entries(sent).flatMap(([name, v]) =>
    (Array.isArray(v) ? v : [v]).map((value) => ({ name, value }))
  );
  const answer = JSON.stringify({ data: { ...sent, tags: [{ id: "t1", name: "harbour" }] } });
  return {
    startedDateTime: "2026-01-01T00:00:00.000Z",
    time: 1,
    request: {
      method: "PATCH",
      url,
      httpVersion: "HTTP/1.1",
      headers: [
        { name: "Content-Type", value: "application/json" },
        { name: "Content-Length", value: String(new TextEncoder().encode(text).length) },
      ],
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: text.length,
      postData: { mimeType: "application/json", params },
    },
    ...jsonAnswer(200, "OK", [{ name: "Content-Type", value: "application/json" }], answer),
  };
}

Deno.test("convert har: a flattened JSON save with text beyond ASCII is measured in the bytes Content-Length says were sent, so its one-item list is a list again", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-flattened-bytes-" });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const saved = await req.json();
    return Array.isArray(saved.tags)
      ? Response.json({ data: { ...saved, tags: [{ id: "t1", name: "harbour" }] } })
      : Response.json({ message: "tags is not a list" }, { status: 500 });
  });
  try {
    const har = {
      log: {
        version: "1.2",
        creator: { name: "chrome-har", version: "1" },
        entries: [entry("http://127.0.0.1:5678/rest/workflows/w1", SAVED)],
      },
    };
    await Deno.writeTextFile(`${dir}/ui.har`, JSON.stringify(har));
    const converted = await runCli(["convert", "har", `${dir}/ui.har`, "-o", `${dir}/ui.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    assert.doesNotMatch(converted.stderr, /lose JSON lists/, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/ui.yaml`);
    const { port } = server.addr as Deno.NetAddr;
    const run = await runCli(["run", `${dir}/ui.yaml`], {
      env: { BASE_URL: `http://127.0.0.1:${port}` },
    });
    assert.equal(run.code, 0, run.stdout + run.stderr + flow);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
