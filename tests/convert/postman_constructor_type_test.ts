/**
 * `tests["Input is an object"] = resultObject.input.constructor === Object;`: the legacy sandbox's
 * way to ask a value's type (a public project's own collection, measured by hand, asks it of each
 * of its five requests' answers) stayed a comment. A JSON value has one of five built-in
 * constructors, so the comparison is now the type check flowrun has, on either side of `===` or
 * `==`; each fails when the answer holds another type, as the script's test does.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCollection } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

const TESTS = [
  "var body = JSON.parse(responseBody);",
  'tests["object"] = body.input.constructor === Object;',
  'tests["number"] = body.input.n.constructor == Number;',
  'tests["text"] = String === body.input.s.constructor;',
  'tests["list"] = body.list.constructor === Array;',
  'tests["flag"] = body.flag.constructor === Boolean;',
  'tests["list is no object"] = body.list.constructor === Object;',
  'tests["text is no number"] = body.input.s.constructor === Number;',
];

Deno.test("postman legacy tests: `x.constructor === Number` is a type check that holds or fails as the script's", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json({ input: { n: 4, s: "4" }, list: [1], flag: false }),
  );
  const dir = await Deno.makeTempDir();
  try {
    const collection = {
      info: { name: "Types", schema: V21 },
      item: [{
        name: "Answer",
        event: [{ listen: "test", script: { exec: TESTS } }],
        request: { method: "GET", url: `http://127.0.0.1:${server.addr.port}/answer` },
      }],
    };
    const { summary } = convertPostman(JSON.stringify(collection));
    assert.deepEqual(summary.reports.map((r) => [r.translated, r.untranslated]), [[7, 0]]);
    const report = await runCollection(collection, dir);
    const verdicts = Object.fromEntries(
      report.flows[0].steps[0].assertions.map((
        a: { name: string; passed: boolean },
      ) => [a.name, a.passed]),
    );
    assert.deepEqual(verdicts, {
      object: true,
      number: true,
      text: true,
      list: true,
      flag: true,
      "list is no object": false,
      "text is no number": false,
    });
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
