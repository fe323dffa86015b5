/**
 * A data file's column the environment also gives (`Input1` in both, as a public project's own
 * suite has it, measured by hand: `newman run … -d inputData.json -e env.json`): Newman reads the
 * row's value, its `data` scope being above the environment, but the converter wrote the column
 * into the vars file with an empty value, and a run parameter wins over every row, so each
 * request was sent with the column empty (`/add//`, 404). A column is now left out of the vars
 * file; the environment's other values stay in it.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runConverted } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

Deno.test("postman data file: a column the environment also gives is the row's value, not the vars file's", async () => {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    seen.push(url.pathname);
    return Response.json({ ok: true }, {
      status: /^\/add\/-?\d+\/-?\d+$/.test(url.pathname) ? 200 : 404,
    });
  });
  const dir = await Deno.makeTempDir();
  try {
    const collection = JSON.stringify({
      info: { name: "Math", schema: V21 },
      item: [{
        name: "Add",
        event: [{
          listen: "test",
          script: { exec: ["pm.test('200', () => pm.response.to.have.status(200));"] },
        }],
        request: { method: "GET", url: "{{base}}/add/{{a}}/{{b}}" },
      }],
    });
    const values = [["base", `http://127.0.0.1:${server.addr.port}`], ["a", "6"], ["b", "2"], [
      "unit",
      "cm",
    ]];
    const environment = JSON.stringify({
      name: "local",
      values: values.map(([key, value]) => ({ key, value, enabled: true })),
    });
    const data = { path: "rows.json", text: JSON.stringify([{ a: 0, b: 1 }, { a: -2, b: 5 }]) };
    const { files } = convertPostman(collection, environment, undefined, data);
    const varsFile = JSON.parse(files.find((f) => f.path.endsWith(".vars.json"))!.text);
    assert.deepEqual(Object.keys(varsFile).sort(), ["unit"]);
    const { run } = await runConverted(files, dir);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.deepEqual(seen, ["/add/0/1", "/add/-2/5"]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
