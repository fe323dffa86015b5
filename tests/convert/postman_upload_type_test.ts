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
import { runCli } from "../support/cli.ts";

const PARTS = [
  { key: "application", type: "file", src: "./test/app.yaml" },
  { key: "template", type: "file", src: "./test/app.yaml", contentType: "application/x-yaml" },
  { key: "notes", type: "file", src: "./test/notes.md" },
  { key: "picture", type: "file", src: "./test/pic.png" },
];

Deno.test("convert postman: each uploaded file part goes out with the content type Newman gives it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-postman-upload-type-" });
  const got: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    got.push(await req.text());
    return Response.json({ ok: true });
  });
  try {
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
    await Deno.writeTextFile(`${dir}/c.json`, JSON.stringify(c));
    const converted = await runCli(["convert", "postman", `${dir}/c.json`, "-o", `${dir}/flows`]);
    assert.equal(converted.code, 0, converted.stderr);
    // The files where the summary says, as a user puts them.
    const asked = [
      ...converted.stderr.matchAll(/Put the file the collection uploads at (\S+?)[ .]*(?:\(|$)/gm),
    ]
      .map((m) => m[1]);
    const placeholders = [...Deno.readDirSync(`${dir}/flows/files`)].map((e) => e.name).sort();
    assert.deepEqual(placeholders, ["app.yaml.upload", "notes.md", "pic.png"], converted.stderr);
    assert.ok(asked.length > 0, converted.stderr);
    for (const name of placeholders) await Deno.writeTextFile(`${dir}/flows/files/${name}`, "x\n");
    const line = /^Run: flowrun (.*)$/m.exec(converted.stderr)?.[1];
    assert.ok(line, converted.stderr);
    const { port } = server.addr as Deno.NetAddr;
    const run = await runCli(line.split(" "), { env: { HOST: `http://127.0.0.1:${port}` } });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(got.length, 1);
    const parts = [
      ...got[0].matchAll(/name="(\w+)"; filename="([^"]*)"\r\nContent-Type: ([^\r]+)/g),
    ]
      .map((m) => [m[1], m[2], m[3]]);
    assert.deepEqual(parts, [
      ["application", "app.yaml", "text/yaml"],
      ["template", "app.yaml", "application/x-yaml"],
      ["notes", "notes.md", "text/markdown"],
      ["picture", "pic.png", "image/png"],
    ]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
