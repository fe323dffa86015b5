/**
 * `convert postman` on form-data file parts: the part's `Content-Type` as
 * Newman sends it. Newman (its form-data) types a part by the file's name
 * (`text/yaml` for `app.yaml`, `text/markdown` for `notes.md`) unless the
 * collection gives the part a `contentType`. flowrun typed it by the
 * placeholder's path, and an uploaded YAML file's placeholder ends in
 * `.upload` (so `run DIR/` never reads it as a flow): ioFog Controller's
 * own collection uploads four YAML files, and its server got them as
 * `application/octet-stream` (measured against Newman on the real server).
 * Newman 6's own headers for these three parts are the expected ones.
 */
import assert from "node:assert/strict";
import { sentBy } from "../support/postman_sent.ts";

const PARTS = [
  { key: "application", type: "file", src: "./test/app.yaml" },
  { key: "template", type: "file", src: "./test/app.yaml", contentType: "application/x-yaml" },
  { key: "notes", type: "file", src: "./test/notes.md" },
  { key: "picture", type: "file", src: "./test/pic.png" },
];

/** What a user does as the summary asks: puts a file where it says each upload goes. */
async function putFiles(flowsDir: string, summary: string): Promise<void> {
  const asked = [
    ...summary.matchAll(/Put the file the collection uploads at (\S+?)[ .]*(?:\(|$)/gm),
  ]
    .map((m) => m[1]);
  const placeholders = [...Deno.readDirSync(`${flowsDir}/files`)].map((e) => e.name).sort();
  assert.deepEqual(placeholders, ["app.yaml.upload", "notes.md", "pic.png"], summary);
  assert.ok(asked.length > 0, summary);
  for (const name of placeholders) await Deno.writeTextFile(`${flowsDir}/files/${name}`, "x\n");
}

Deno.test("convert postman: each uploaded file part goes out with the content type Newman gives it", async () => {
  const c = {
    info: { name: "Uploads", schema: "https://schema.getpostman.com/json/collection/v2.1.0/" },
    item: [{
      name: "upload",
      request: {
        method: "POST",
        url: "{{host}}/api/v3/application/yaml",
        body: { mode: "formdata", formdata: PARTS },
      },
    }],
    variable: [{ key: "host", value: "http://localhost" }],
  };
  const { requests } = await sentBy(c, putFiles);
  assert.equal(requests.length, 1);
  const parts = [
    ...requests[0].body.matchAll(/name="(\w+)"; filename="([^"]*)"\r\nContent-Type: ([^\r]+)/g),
  ]
    .map((m) => [m[1], m[2], m[3]]);
  assert.deepEqual(parts, [
    ["application", "app.yaml", "text/yaml"],
    ["template", "app.yaml", "application/x-yaml"],
    ["notes", "notes.md", "text/markdown"],
    ["picture", "pic.png", "image/png"],
  ]);
});
