/**
 * `pm.expect(Object.keys(book)).to.lengthOf(3)` (and `.to.length(3)`), inside a `forEach` over
 * the answer's list: the object has exactly those keys. Two course collections check their list
 * items so; it stayed a comment. It is now a check on the object's size (its keys' count), as
 * `Object.keys(x).length` already was. A small server answers a list whose second item has a
 * fourth key, so the check fails there and passes on the first answer.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

Deno.test("postman Object.keys(x) lengthOf: a check on the object's size, as chai makes it", async () => {
  let reads = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    reads++;
    const extra = reads > 1 ? { more: 1 } : {};
    return Response.json({
      data: { books: [{ id: "a", name: "A", p: "x" }, { id: "b", name: "B", p: "y", ...extra }] },
    });
  });
  const item = (name: string, word: string) => ({
    name,
    event: [{
      listen: "test",
      script: {
        exec: [
          "const { data: { books } } = pm.response.json();",
          "pm.test('three keys', () => {",
          `  books.forEach((book) => { pm.expect(Object.keys(book)).to.${word}(3); });`,
          "});",
        ],
      },
    }],
    request: { method: "GET", url: `http://127.0.0.1:${server.addr.port}/books`, header: [] },
  });
  const dir = await Deno.makeTempDir();
  try {
    const { files } = convertPostman(JSON.stringify({
      info: { name: "Keys", schema: V21 },
      item: [item("First", "lengthOf"), item("Second", "length")],
    }));
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    assert.doesNotMatch(flow.text, /# untranslated/, flow.text);
    await Deno.writeTextFile(`${dir}/${flow.path}`, flow.text);
    const run = await runCli(["run", `${dir}/${flow.path}`, "--report-json", `${dir}/r.json`]);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const steps = report.flows[0].steps as { status: string }[];
    assert.deepEqual(steps.map((s) => s.status), ["passed", "failed"], run.stdout + flow.text);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
