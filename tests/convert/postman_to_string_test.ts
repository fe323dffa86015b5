/**
 * `x.toString()` of a variable (`pm.expect(message).to.include(bookId.toString())`, `bookId`
 * read with `pm.collectionVariables.get`) stayed a comment: the check was lost (a Flask
 * project's own collection has one). A variable's value, a made value or a literal is text
 * already where a check compares it: the check is now the variable's expression. A response
 * part's `toString()` compared with a literal is the part or the number or boolean the literal
 * writes (postman_part_text_test.ts). A small server answers the id it made, then a message with
 * it or with another.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

function item(name: string, method: string, path: string, lines: string[]) {
  return {
    name,
    event: [{ listen: "test", script: { exec: lines } }],
    request: { method, url: `{{base}}${path}`, header: [] },
  };
}

const SAYS_ID = [
  'pm.test("Id is in the message", function () {',
  "    const bookId = pm.collectionVariables.get('idToDelete');",
  "    pm.expect(pm.response.json().message).to.include(bookId.toString());",
  "});",
];

Deno.test("postman to string: a variable's toString() is its text, checked as Newman checks it", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "POST") return Response.json({ id: 7 }, { status: 201 });
    return Response.json({ message: path === "/books/7" ? "Book 7 deleted" : "Book 8 deleted" });
  });
  const dir = await Deno.makeTempDir();
  try {
    const { files, summary } = convertPostman(JSON.stringify({
      info: { name: "Text", schema: V21 },
      variable: [{ key: "base", value: `http://127.0.0.1:${server.addr.port}` }, {
        key: "idToDelete",
        value: "",
      }],
      item: [
        item("add", "POST", "/books", [
          "pm.collectionVariables.set('idToDelete', pm.response.json().id);",
        ]),
        item("delete", "DELETE", "/books/{{idToDelete}}", SAYS_ID),
        item("delete other", "DELETE", "/books/other", SAYS_ID),
        item("part", "DELETE", "/books/7", [
          'pm.test("part", () => pm.expect(pm.response.json().message.toString()).to.eql("x"));',
        ]),
      ],
    }));
    assert.deepEqual(summary.reports.map((r) => [r.translated, r.untranslated]), [
      [0, 0],
      [1, 0],
      [1, 0],
      [1, 0],
    ]);
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    assert.match(flow.text, /contains: "\$\{steps\.add\.capture\.idToDelete\}"/, flow.text);
    await Deno.writeTextFile(`${dir}/${flow.path}`, flow.text);
    const run = await runCli(["run", `${dir}/${flow.path}`, "--report-json", `${dir}/r.json`]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const steps = report.flows[0].steps.map((s: { name: string; status: string }) =>
      `${s.name} ${s.status}`
    );
    assert.deepEqual(steps.slice(0, 3), ["add passed", "delete passed", "delete_other failed"]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
