/**
 * A name a response under a collection handed out (`GET /files` → `["notes.txt"]`) and a later
 * request opens right under that collection (`GET /files/notes.txt`, a download) is captured:
 * seen on LoopBack's file-transfer page, whose upload body no HAR form holds, so the replay's
 * placeholder upload made another name and the literal download answered 404. A name the
 * recording itself sent first is the run's own (tests/convert/har_client_named_test.ts), not the
 * listing's; the same word under another collection or in a query stays as recorded.
 */
import assert from "node:assert/strict";
import { convertHar } from "../../lib/convert/har.ts";
import { runPassesOn } from "../support/run_twice.ts";

/** A file store whose uploads are named `prefix-N.txt`; `/docs/notes.txt` always exists. */
function fileApi(prefix: string) {
  const files: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/files" && req.method === "POST") {
      files.push(`${prefix}-${files.length + 1}.txt`);
      return Response.json({ files: [{ fieldname: "file", originalname: files.at(-1) }] });
    }
    if (url.pathname === "/files") return Response.json(files);
    if (url.pathname === "/docs/notes.txt") return new Response("docs");
    const name = decodeURIComponent(url.pathname.slice("/files/".length));
    if (!files.includes(name)) return new Response("no such file", { status: 404 });
    return new Response("content", {
      headers: { "content-disposition": `attachment; filename="${name}"` },
    });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, stop: () => server.shutdown() };
}

function recording(origin: string, typedName?: string): string {
  const entry = (method: string, path: string, answer: unknown, text?: string) => ({
    startedDateTime: "2026-11-26T10:00:00.000Z",
    request: {
      method,
      url: `${origin}${path}`,
      headers: [],
      ...(text === undefined ? {} : { postData: { mimeType: "application/json", text } }),
    },
    response: {
      status: 200,
      headers: typeof answer === "string"
        ? [{ name: "Content-Disposition", value: "attachment" }]
        : [],
      content: typeof answer === "string"
        ? { mimeType: "text/plain", text: answer }
        : { mimeType: "application/json", text: JSON.stringify(answer) },
    },
    _resourceType: typeof answer === "string" ? "document" : "fetch",
  });
  const sent = typedName === undefined ? undefined : JSON.stringify({ name: typedName });
  return JSON.stringify({
    log: {
      entries: [
        // The upload's body is not in the recording (as in both HAR forms for multipart).
        entry("POST", "/files", { files: [{ originalname: "notes.txt" }] }, sent),
        entry("GET", "/files", ["notes.txt"]),
        entry("GET", "/files/notes.txt", "content"),
        entry("GET", "/docs/notes.txt?name=notes.txt", "docs"),
      ],
    },
  });
}

Deno.test("a name a listing handed out is captured where a request opens it under that collection", async () => {
  const recorded = fileApi("rec");
  const fresh = fileApi("fresh");
  try {
    const { yaml } = convertHar(recording(recorded.url));
    const body = yaml.replace(/^\s*#.*$/gm, "");
    assert.doesNotMatch(body, /\/files\/notes\.txt/, yaml);
    assert.match(body, /\/docs\/notes\.txt\?name=notes\.txt/, "elsewhere it stays as recorded");
    const run = await runPassesOn(yaml, "files.yaml", fresh.url);
    assert.equal(run.flows[0].steps.length, 4, "the download is a step");
  } finally {
    await recorded.stop();
    await fresh.stop();
  }
});

Deno.test("a name the recording sent before a response repeated it is the run's own, not the listing's", () => {
  // The client named the file in its create: the name is made the run's own (its extension kept
  // last) and sent in the create and the download; never captured from the listing.
  const { yaml } = convertHar(recording("http://127.0.0.1:9", "notes.txt"));
  const body = yaml.replace(/^\s*#.*$/gm, "");
  assert.match(body, /^ {2}file_name: notes-\$\{RUN_ID\}\.txt$/m, yaml);
  assert.match(body, /name: \$\{vars\.file_name\}/, yaml);
  assert.match(body, /\/files\/\$\{vars\.file_name\}/, yaml);
  assert.doesNotMatch(body, /\/files\/\$\{steps\./, yaml);
});
