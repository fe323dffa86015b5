/**
 * A Postman form field of type file with no file chosen (what Postman's importer writes for an
 * OpenAPI `format: binary` property): Newman sends the part empty with `filename=""`, which a
 * server reads as no file. Seen on LoopBack's file app: flowrun sent `filename="file.bin"`, which
 * the server stored, so its next listing differed from Newman's.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { loadFlows } from "../../lib/load/suite.ts";
import { runFlows } from "../../lib/run/flows.ts";
import "../support/engines.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

Deno.test('a file field with no file chosen is sent empty with filename="", as Newman sends it', async () => {
  const parts: [string, string, number][] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    for (const [name, value] of await req.formData()) {
      if (value instanceof File) parts.push([name, value.name, value.size]);
    }
    return Response.json({ ok: true });
  });
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-empty-" });
  try {
    const { files, summary } = convertPostman(JSON.stringify({
      info: { name: "Files", schema: V21 },
      item: [{
        name: "Upload",
        request: {
          method: "POST",
          url: `http://127.0.0.1:${server.addr.port}/files`,
          body: {
            mode: "formdata",
            // A `${` in a part's name is the name's text: multipart names are templates in a flow.
            formdata: [
              { key: "file", type: "file" },
              { key: "doc${x}", type: "file" },
              { key: "note", value: "n", type: "text" },
            ],
          },
        },
      }],
    }));
    for (const { path, text } of files) {
      await Deno.mkdir(`${dir}/${path}`.replace(/\/[^/]*$/, ""), { recursive: true });
      await Deno.writeTextFile(`${dir}/${path}`, text);
    }
    const flowFile = files.find((f) => f.path.endsWith(".yaml"))!;
    const step = parse(flowFile.text).steps[0];
    assert.equal(step.request.multipart.file.filename, "", flowFile.text);
    assert.match(
      flowFile.text + JSON.stringify(summary),
      /"file\\?" has no file chosen: sent empty, as Newman sends it/,
    );
    const { flows, problems } = await loadFlows([`${dir}/${flowFile.path}`]);
    assert.deepEqual(problems, []);
    const run = await runFlows(flows, { runId: "r" });
    assert.equal(run.status, "passed");
    assert.deepEqual(parts, [["file", "", 0], ["doc${x}", "", 0]]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
