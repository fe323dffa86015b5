/**
 * `convert har` on an upload that sends several files under one field name: an
 * `<input type=file multiple name="files[]">`, or a form with the same file input twice. The
 * browser sends one part per file, in order, and the server reads them all; the flow kept only
 * the first file, so the server stored one. Each file is now its own part under the name, in the
 * recorded order (`multipart:` takes a list of files as it takes a list of values).
 *
 * Both HAR forms: Playwright's recordHar keeps the body as text (each file's bytes when they are
 * text, so the flow sends them), Chromium's DevTools export keeps no part of a body holding a file
 * (the fields come from the page's form, each file a placeholder, one per file input), and
 * Firefox and chrome-har list the parts as `params`.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";
import { convertHar } from "./har_convert.ts";

const AT = "http://127.0.0.1:8875";
const BOUNDARY = "----WebKitFormBoundaryM3tq9Xc0aLr7KdEw";
const TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** One recorded part: a text field, or a file with its name and text. */
type Part = { name: string; value: string } | { name: string; file: string; text: string };

/** A multipart body of `parts` in order, as Chromium frames one. */
function multipart(parts: Part[]): string {
  return parts.map((p) => {
    const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p.name}"`;
    return "file" in p
      ? `${head}; filename="${p.file}"\r\nContent-Type: text/plain\r\n\r\n${p.text}\r\n`
      : `${head}\r\n\r\n${p.value}\r\n`;
  }).join("") + `--${BOUNDARY}--\r\n`;
}

/** An attachments service that keeps every file of every field, in the order received. */
function standIn() {
  const stored: { field: string; name: string; text: string }[][] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    if (req.method !== "POST") return new Response("<html><body>ok</body></html>");
    const form = await req.formData();
    const files: { field: string; name: string; text: string }[] = [];
    for (const [field, v] of form.entries()) {
      if (v instanceof File) files.push({ field, name: v.name, text: await v.text() });
    }
    stored.push(files);
    return Response.json({ stored: files.length });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, stored, close: () => server.shutdown() };
}

/** The field names the forms use: PHP's `files[]` for a `multiple` input, a plain name twice. */
const FIELDS = ["files[]", "attachment"];

const FILES = [{ file: "notes-a.txt", text: "first file" }, {
  file: "notes-b.txt",
  text: "second file",
}];

/** Playwright's form: the body as text, every file's bytes in it. */
function playwright(field: string): string {
  const parts: Part[] = [
    { name: "title", value: "Q3" },
    ...FILES.map((f) => ({
      name: field,
      ...f,
    })),
  ];
  return harOf([{
    method: "POST",
    url: `${AT}/attachments`,
    headers: [["Content-Type", TYPE]],
    mime: TYPE,
    body: multipart(parts),
    json: { stored: 2 },
  }]);
}

/** Firefox's and chrome-har's form: the parts as `params`, files with their names, no text. */
function params(field: string): string {
  const har = JSON.parse(playwright(field));
  har.log.entries[0].request.postData = {
    mimeType: TYPE,
    params: [
      { name: "title", value: "Q3" },
      ...FILES.map((f) => ({
        name: field,
        fileName: f.file,
        contentType: "text/plain",
      })),
    ],
  };
  return JSON.stringify(har);
}

/** Chromium's DevTools form: the page's form, then its post recorded with no body. */
function devtools(field: string): string {
  const inputs = field === "files[]"
    ? `<input type="file" name="files[]" multiple>`
    : `<input type="file" name="${field}"><input type="file" name="${field}">`;
  const form = `<form method="post" action="/attachments" enctype="multipart/form-data">` +
    `<input name="title" value="Q3">${inputs}<button>Send</button></form>`;
  const har = JSON.parse(harOf([
    { url: `${AT}/attachments/new`, html: `<html><body>${form}</body></html>` },
    {
      method: "POST",
      url: `${AT}/attachments`,
      headers: [["Content-Type", TYPE]],
      json: { stored: 2 },
    },
  ]));
  har.log.entries[0]._resourceType = "document";
  har.log.entries[1].request.postData = { mimeType: TYPE, text: "" };
  return JSON.stringify(har);
}

for (const field of FIELDS) {
  Deno.test(`convert har: two files under "${field}" (Playwright's body text) are both sent, in order, their bytes as recorded`, async () => {
    const got = await convertAndRun(playwright(field));
    for (const run of got) {
      assert.deepEqual(run, FILES.map((f) => ({ field, name: f.file, text: f.text })));
    }
  });

  Deno.test(`convert har: two files under "${field}" (params, no bytes) are both sent, in order, as placeholders named as recorded`, async () => {
    const got = await convertAndRun(params(field));
    for (const run of got) {
      assert.deepEqual(run.map((f) => [f.field, f.name]), FILES.map((f) => [field, f.file]));
    }
  });
}

Deno.test(`convert har: a form with the same file input twice, recorded with no body (DevTools), sends a file for each input`, async () => {
  const got = await convertAndRun(devtools("attachment"));
  for (const run of got) assert.deepEqual(run.map((f) => f.field), ["attachment", "attachment"]);
});

/** Converts `har` with default options, runs the flow twice on one instance: what each run stored. */
async function convertAndRun(har: string) {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-multipart-files-" });
  const server = standIn();
  try {
    const { flow } = await convertHar(dir, har);
    for (const n of [1, 2]) {
      const out = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: server.origin } });
      assert.equal(out.code, 0, `run ${n}\n${out.stdout}\n${flow}`);
    }
    assert.equal(server.stored.length, 2, flow);
    return server.stored;
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * Playwright's recordHar keeps a multipart body as UTF-8 text: a binary file's bytes that are not
 * UTF-8 became U+FFFD, so the recording lost them. The flow wrote that text as the file (a PNG
 * whose signature reads `\ufffdPNG`) and called it recorded content; a server checking the file
 * refused it and the summary never said to replace it. Such a file is a placeholder, named as
 * one; a text file beside it keeps its bytes.
 */
Deno.test("convert har: a binary file whose bytes Playwright's text lost (U+FFFD) is a placeholder, named so; a text file keeps its bytes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-multipart-files-" });
  try {
    const png = "\ufffdPNG\r\n\u001a\n\u0000\u0000\u0000\rIHDR\u0000\u0000\u0000\u0001\ufffd\ufffd";
    const body = multipart([{ name: "files[]", file: "tide.png", text: png }, {
      name: "files[]",
      file: "notes-a.txt",
      text: "first file",
    }]);
    const { converted } = await convertHar(
      dir,
      harOf([{
        method: "POST",
        url: `${AT}/attachments`,
        headers: [["Content-Type", TYPE]],
        mime: TYPE,
        body,
        json: { stored: 2 },
      }]),
    );
    const written = await Deno.readTextFile(`${dir}/uploads/tide.png`);
    assert.ok(!written.includes("\ufffd"), written);
    assert.match(converted.stderr, /uploads\/tide\.png \(step "[^"]+", a placeholder/);
    assert.match(converted.stderr, /placeholder file must be replaced/);
    assert.equal(await Deno.readTextFile(`${dir}/uploads/notes-a.txt`), "first file");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
