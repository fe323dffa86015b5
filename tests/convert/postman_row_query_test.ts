/**
 * Query parameters a pre-request script adds only for a data row's non-empty
 * cells (a data-driven Restful Booker suite, measured by hand, see
 * docs/real-servers.md, builds its search so): Newman sends each row its own
 * URL, `?firstname=Jim` for one row, no query at all for a row of empty
 * cells. Every spelling of the idiom — a helper pushing `key=value` onto a
 * list then joined onto the URL written back, `pm.request.url.query.add` under
 * an `if` on the cell, `addQueryParams` in a `forEach` over the column names —
 * is sent row by row as Newman sends it, compared against Newman on a server
 * the test starts.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { runNewman } from "../support/newman_counts.ts";
import { ROW_SEARCH, scriptedGets, urlRecorder } from "../support/postman_items.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

const SPELLINGS: [string, string[]][] = [
  ["pushed and joined", ROW_SEARCH],
  ["query added under an if", [
    'const first = pm.iterationData.get("firstname");',
    'if (first) { pm.request.url.query.add({ key: "firstname", value: first }); }',
    'if (pm.iterationData.get("lastname") !== "") {',
    '  pm.request.url.query.add({ key: "lastname", value: pm.iterationData.get("lastname") });',
    "}",
  ]],
  ["addQueryParams in a forEach", [
    '["firstname", "lastname"].forEach((k) => {',
    "  const v = pm.iterationData.get(k);",
    '  if (v !== undefined && String(v).length > 0) pm.request.addQueryParams(k + "=" + v);',
    "});",
  ]],
];

/** One search per spelling, its URL the collection's until the script adds to it. */
function collection(base: string) {
  return {
    info: { name: "Row queries", schema: V21 },
    variable: [{ key: "baseUrl", value: base }],
    item: scriptedGets(SPELLINGS, "/booking"),
  };
}

Deno.test("postman row query: parameters added only for a row's non-empty cells are sent row by row as Newman sends them", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-row-query-" });
  const keeper = urlRecorder(() => Response.json([]));
  try {
    const file = `${dir}/collection.json`;
    await Deno.writeTextFile(file, JSON.stringify(collection(keeper.url)));
    await Deno.writeTextFile(
      `${dir}/rows.csv`,
      "firstname,lastname\nJim,\n,Brown\n,\nSally Ann,Jones\nZoë,O'Neil <QA>\n",
    );
    const counts = await runNewman(file, { baseUrl: keeper.url }, `${dir}/rows.csv`);
    assert.equal(counts.failedAssertions, 0, JSON.stringify(counts));
    const newman = keeper.seen.splice(0);
    assert.equal(newman.length, 5 * SPELLINGS.length, newman.join("\n"));
    assert.deepEqual(newman.slice(0, 3), [
      "/booking?firstname=Jim",
      "/booking?firstname=Jim",
      "/booking?firstname=Jim",
    ]);
    assert.equal(newman[6], "/booking", newman.join("\n"));

    const args = ["convert", "postman", file, "-d", `${dir}/rows.csv`, "-o", `${dir}/flows`];
    const converted = await runCli(args);
    assert.equal(converted.code, 0, converted.stderr);
    const summary = converted.stdout + converted.stderr;
    assert.doesNotMatch(summary, /Sent as the collection holds them/, summary);
    const run = await runCli(summary.match(/^Run: flowrun (.*)$/m)![1].split(" "));
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.deepEqual(keeper.seen, newman);
  } finally {
    await keeper.close();
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * Scripts the row interpreter must give up on, each with the rows it reads and whether the
 * request is then named (the symbolic translator may still say an endless script's URL).
 */
const UNSAID: [string, string[] | undefined, string, boolean][] = [
  // A number cell's trim() throws in Newman's sandbox: nothing is guessed for it.
  ["a number cell's trim()", undefined, "firstname,lastname\n12,\n", true],
  // Endless recursion: given up, never the converter's RangeError.
  [
    "an endless recursion",
    [
      "function f(n) { return f(n + 1); }",
      'const v = pm.iterationData.get("firstname");',
      "f(0);",
      'pm.request.url = pm.variables.get("baseUrl") + "/booking?firstname=" + v;',
    ],
    "firstname,lastname\nJim,\n",
    false,
  ],
];

for (const [what, script, csv, named] of UNSAID) {
  Deno.test(`postman row query: a script that reads a cell in a way not said here stays named (${what})`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-row-query-" });
    try {
      const c = collection("http://127.0.0.1:9");
      c.item = [c.item[0]];
      if (script) c.item[0].event[0].script.exec = script;
      await Deno.writeTextFile(`${dir}/rows.csv`, csv);
      await Deno.writeTextFile(`${dir}/c.json`, JSON.stringify(c));
      const converted = await runCli([
        "convert",
        "postman",
        `${dir}/c.json`,
        "-d",
        `${dir}/rows.csv`,
        "-o",
        `${dir}/flows`,
      ]);
      assert.equal(converted.code, 0, converted.stderr);
      if (named) {
        assert.match(converted.stdout + converted.stderr, /Sent as the collection holds them/);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}
