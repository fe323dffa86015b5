/**
 * A pre-request script that makes a number or a boolean with `Math.random()` itself (no lodash,
 * no `{{$random…}}`) was left a comment, so a raw JSON body written `"price": {{price}}` was sent
 * with the placeholder as written, no JSON at all, and the server refused it where Newman's
 * booking was taken: `Math.floor(Math.random() * 100) + 1` (a whole number from 1 to 100),
 * `Math.random() < 0.5` (true or false). A whole number so made is `${RANDOM.DIGITS_n}` with the
 * most digits that stay in its range, as `_.random(min, max)`; a comparison of `Math.random()`
 * with a fraction is `${RANDOM.BOOL}`. A range no count of digits stays in (`* 2`: 0 or 1), or an
 * index into a list a response gives (`Math.floor(Math.random() * (n - 0 + 1)) + 0`, where `n` is
 * the list's length less one, as a project's collection picks a booking: the request went to
 * `/booking/` with nothing after it), is the range's least value, one the script could have drawn.
 *
 * Newman 6.2.1 (by hand, this collection against a server that printed the body) sent e.g.
 * `{"price": 58, "paid": true, "index": 3, "code": 5593, "rounded": 6, "bit": 0}`; for the list,
 * `/items/0`, `/items/2` and `/items/1` in three runs.
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";
import { jsonPoster } from "../support/postman_items.ts";
import { runConverted, withBodySink } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

const SCRIPT = [
  'pm.collectionVariables.set("price", Math.floor(Math.random() * 100) + 1);',
  'pm.collectionVariables.set("paid", Math.random() < 0.5);',
  'pm.collectionVariables.set("index", Math.floor(10 * Math.random()));',
  "const low = 1000, high = 9999;",
  'pm.collectionVariables.set("code", low + Math.trunc(Math.random() * (high - low + 1)));',
  'pm.collectionVariables.set("rounded", Math.round(Math.random() * 9));',
  // 0 or 1: no made value of digits stays in it; 0 is one the script could have drawn.
  'pm.collectionVariables.set("bit", Math.floor(Math.random() * 2));',
];

const FIELDS = ["price", "paid", "index", "code", "rounded", "bit"];

/** A booking whose raw body writes every made value unquoted, as JSON numbers and booleans. */
function collection(base: string) {
  const raw = `{${FIELDS.map((f) => `"${f}": {{${f}}}`).join(", ")}}`;
  const script = [{ listen: "prerequest", script: { exec: SCRIPT } }];
  return {
    info: { name: "Made numbers", schema: V21 },
    item: [jsonPoster(base)("Book", "/booking", raw, script)],
  };
}

Deno.test("postman Math.random(): a whole number in its range and a boolean, as Newman sends", () =>
  withBodySink(async (base, seen, dir) => {
    const { files, summary } = convertPostman(JSON.stringify(collection(base)));
    const text = formatPostmanSummary(summary, dir);
    assert.doesNotMatch(text, /^Not translated/m, text);
    // One run: the body is JSON the server reads, each value of the kind and range Newman's is.
    const { run, flow } = await runConverted(files, dir);
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    const got = seen[0] as unknown as Record<string, unknown>;
    const whole = (name: string, min: number, max: number) => {
      const v = got[name];
      assert.ok(
        Number.isInteger(v) && (v as number) >= min && (v as number) <= max,
        `${name}: ${v}`,
      );
    };
    whole("price", 1, 100);
    whole("index", 0, 9);
    whole("code", 1000, 9999);
    whole("rounded", 0, 9);
    whole("bit", 0, 1);
    assert.equal(typeof got.paid, "boolean", flow.text);
  }));

/** A list read, whose test script picks an index into the answer, then a read of that item. */
function listCollection(base: string) {
  const pick = [
    "var n = pm.response.json().length - 1;",
    'pm.collectionVariables.set("pick", Math.floor(Math.random() * (n - 0 + 1)) + 0);',
  ];
  return {
    info: { name: "Picked item", schema: V21 },
    item: [
      {
        name: "List",
        event: [{ listen: "test", script: { exec: pick } }],
        request: { method: "GET", url: `${base}/items` },
      },
      { name: "Read", request: { method: "GET", url: `${base}/items/{{pick}}` } },
    ],
  };
}

Deno.test("postman Math.random() over a response's length: the least index, one Newman could pick", async () => {
  const paths: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    paths.push(new URL(req.url).pathname);
    return Response.json(["a", "b", "c"]);
  });
  const dir = await Deno.makeTempDir();
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    const { files, summary } = convertPostman(JSON.stringify(listCollection(base)));
    const text = formatPostmanSummary(summary, dir);
    assert.doesNotMatch(text, /^Not translated/m, text);
    const { run, flow } = await runConverted(files, dir);
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    assert.deepEqual(paths, ["/items", "/items/0"]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
