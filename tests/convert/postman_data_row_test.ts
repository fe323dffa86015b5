/**
 * `var input = Number(defined(data.Input1) ? data.Input1 : environment.Input1)`, then
 * `tests["Input is correct"] = body.input === input` (a public project's own collection, measured
 * by hand, run with `-d` rows and an environment that gives the same names): the helper's question
 * and `Number(…)` were not known, so the checks stayed comments. The rows are in hand when
 * converting: a column every row gives is known defined, and `Number(…)` of one every row gives as
 * a number is the column itself, so the check compares the answer with the row's value; a column
 * some row leaves empty stays a comment.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runConverted } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

const SCRIPT = [
  "var body = JSON.parse(responseBody);",
  "function defined(value) { return value !== null && value !== undefined; }",
  "var a = Number(defined(data.a) ? data.a : environment.a);",
  'tests["a is echoed"] = body.a === a;',
  'tests["b is there"] = defined(data.b);',
];

Deno.test("postman data rows: a column every row gives is known defined, and a number, in a legacy script", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const a = Number(new URL(req.url).pathname.split("/")[2]);
    // The third row's answer is wrong, so its check fails where Newman's does.
    return Response.json({ a: a === 3 ? 4 : a });
  });
  const dir = await Deno.makeTempDir();
  try {
    const collection = JSON.stringify({
      info: { name: "Rows", schema: V21 },
      item: [{
        name: "Echo",
        event: [{ listen: "test", script: { exec: SCRIPT } }],
        request: { method: "GET", url: `http://127.0.0.1:${server.addr.port}/echo/{{a}}` },
      }],
    });
    const environment = JSON.stringify({
      name: "local",
      values: [{ key: "a", value: "6", enabled: true }, { key: "b", value: "x", enabled: true }],
    });
    const rows = [{ a: 1, b: "x" }, { a: -2, b: null }, { a: 3, b: "y" }];
    const data = { path: "rows.json", text: JSON.stringify(rows) };
    const { files, summary } = convertPostman(collection, environment, undefined, data);
    // `b` is empty in one row: whether it is defined is not known now.
    assert.deepEqual(summary.reports.map((r) => [r.translated, r.untranslated]), [[1, 1]]);
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    assert.match(flow.text, /path: \$\.json\.a, equals: "\$\{vars\.a\}"/, flow.text);
    const { run } = await runConverted(files, dir);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /3 flows: 2 passed, 1 failed/, run.stdout);
    assert.match(
      run.stdout,
      /\[row 3\][\s\S]*a is echoed: \$\.json\.a: expected 3, got 4/,
      run.stdout,
    );
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
