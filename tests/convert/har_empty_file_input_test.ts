/**
 * `convert har` on a multipart form whose file input was left empty, as
 * Redmine's issue form is (tests/real/redmine_har_test.ts): the browser
 * sends the part with `filename=""` and no byte. The flow sent a
 * placeholder file instead (`uploads/upload.bin`, "file content not
 * recorded: replace it"), so every replay attached that file to the issue,
 * and the summary asked the user to replace a file nobody chose.
 *
 * What the converter does (correlate/rewrite_body.ts): such a part is sent
 * as the browser sent it, `filename: ""` and an empty file, and is no
 * upload to replace, and the run does not warn that its file is empty.
 * Widened: a file part with a name and no recorded bytes (Chromium keeps
 * none) is still a placeholder to replace.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const BOUNDARY = "----WebKitFormBoundaryE7mpty";

/** A multipart body: a subject, and the file input `name` with `fileName` and no byte. */
function body(fileName: string): string {
  return `--${BOUNDARY}\r\nContent-Disposition: form-data; name="subject"\r\n\r\nLow\r\n` +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="attachments[file]"; filename="${fileName}"\r\n` +
    `Content-Type: application/octet-stream\r\n\r\n\r\n--${BOUNDARY}--\r\n`;
}

function recording(fileName: string): string {
  const mimeType = `multipart/form-data; boundary=${BOUNDARY}`;
  const entry = {
    startedDateTime: "2026-01-01T00:00:00.000Z",
    time: 5,
    request: {
      method: "POST",
      url: "http://127.0.0.1:3000/issues",
      headers: [{ name: "Content-Type", value: mimeType }],
      cookies: [],
      postData: { mimeType, text: body(fileName) },
    },
    response: {
      status: 201,
      headers: [{ name: "Content-Type", value: "application/json" }],
      cookies: [],
      content: { mimeType: "application/json", text: '{"ok":true}' },
    },
    _resourceType: "xhr",
  };
  return JSON.stringify({
    log: { version: "1.2", creator: { name: "stand-in" }, entries: [entry] },
  });
}

Deno.test('convert har: a file input left empty is sent as the browser sent it, filename "" and no byte, and is no upload to replace', async () => {
  const dir = await Deno.makeTempDir();
  const bodies: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    bodies.push(await req.text());
    return Response.json({ ok: true }, { status: 201 });
  });
  try {
    await Deno.writeTextFile(`${dir}/app.har`, recording(""));
    const converted = await runCli(["convert", "har", `${dir}/app.har`, "-o", `${dir}/app.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    assert.doesNotMatch(converted.stderr, /placeholder|replace/, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/app.yaml`);
    assert.match(flow, /filename: ""/, flow);
    const { port } = server.addr as Deno.NetAddr;
    const run = await runCli(["run", `${dir}/app.yaml`], {
      env: { BASE_URL: `http://127.0.0.1:${port}` },
    });
    assert.equal(run.code, 0, run.stdout);
    // The run does not ask for content either: the browser sent none (CUPS's driver page, whose
    // PPD file input is left empty, had every run warn "Put the file's content there").
    assert.doesNotMatch(run.stderr, /warning\[empty-file\]/, run.stderr);
    assert.equal(bodies.length, 1);
    assert.match(bodies[0], /name="attachments\[file\]"; filename=""\r\n/, bodies[0]);
    assert.doesNotMatch(bodies[0], /not recorded/, bodies[0]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: a chosen file whose bytes the recording lacks is still a placeholder to replace", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/app.har`, recording("scan.pdf"));
    const converted = await runCli(["convert", "har", `${dir}/app.har`, "-o", `${dir}/app.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(converted.stderr, /uploads\/scan\.pdf .*placeholder/, converted.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
