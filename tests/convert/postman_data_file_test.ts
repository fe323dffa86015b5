/**
 * Newman's `-d FILE` (`--iteration-data`) runs the whole collection once per row of a CSV or
 * JSON data file; `{{column}}` and `pm.iterationData.get("column")` read the row's value, above
 * the environment's. A public project's own suite (a FastAPI calculator, measured by hand) runs
 * its one request with `-d data.csv` (24 rows: an operation, two operands and the expected
 * result); the converted flow sent `/{{operation}}?num1={{num1}}…` once (404) and kept the
 * check of `pm.iterationData.get('result')` a comment. A data file given as Newman's is now the
 * flow's `data:` rows. Newman casts an unquoted CSV cell that reads as a number to that number
 * (a quoted one stays text), so `to.eql` of `4` passes on the answer's `4` and of `"12"` on
 * `"12"`; the rows keep those types.
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

/** One request reading three columns; its test compares the answer with a fourth. */
function collection(port: number) {
  return {
    info: { name: "Calc", schema: V21 },
    variable: [{ key: "baseUrl", value: `127.0.0.1:${port}` }],
    item: [{
      name: "Call",
      event: [{
        listen: "test",
        script: {
          exec: [
            'pm.test("status", () => pm.response.to.have.status(200));',
            'pm.test("result " + pm.iterationData.get("result"), function () {',
            "  pm.expect(pm.response.json().result).to.eql(pm.iterationData.get('result'));",
            "});",
          ],
        },
      }],
      request: { method: "GET", url: "{{baseUrl}}/{{op}}?a={{a}}&b={{b}}" },
    }],
  };
}

/** A trailing comma gives a column with no name, as the project's file has; Newman ignores it. */
const CSV = 'op,a,b,result,\nadd,2,2,4,\nadd,1,-1,Invalid,\nconcat,1,2,"12",\n';

/** Adds two numbers (text for `concat`); a negative operand is "Invalid". */
function answer(url: URL): unknown {
  const a = Number(url.searchParams.get("a"));
  const b = Number(url.searchParams.get("b"));
  if (a < 0 || b < 0) return "Invalid";
  return url.pathname === "/concat" ? `${a}${b}` : a + b;
}

Deno.test("postman data file: each row is a run of the flow, its cells typed as Newman reads them", async () => {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    seen.push(`${url.pathname}?${url.searchParams}`);
    const known = ["/add", "/concat"].includes(url.pathname);
    return Response.json(known ? { result: answer(url) } : { detail: "Not Found" }, {
      status: known ? 200 : 404,
    });
  });
  const dir = await Deno.makeTempDir();
  try {
    const c = JSON.stringify(collection(server.addr.port));
    const { files, summary } = convertPostman(c, undefined, undefined, {
      path: "data.csv",
      text: CSV,
    });
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    assert.doesNotMatch(flow.text, /# untranslated/, flow.text);
    for (const f of files) await Deno.writeTextFile(`${dir}/${f.path}`, f.text);
    const text = formatPostmanSummary(summary, dir);
    assert.match(text, /3 rows of data\.csv/, text);
    const run = await runCli(["run", `${dir}/`, "--jobs", "1", "--report-json", `${dir}/r.json`]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.deepEqual(seen, ["/add?a=2&b=2", "/add?a=1&b=-1", "/concat?a=1&b=2"]);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    assert.equal(report.flows.length, 3);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postman data file: a quoted number stays text, so comparing it with a number fails as in Newman", () => {
  const c = JSON.stringify(collection(9));
  const { files } = convertPostman(c, undefined, undefined, {
    path: "rows.csv",
    text: 'op,a,b,result\nadd,2,2,"4"\n',
  });
  const data = files.find((f) => f.path.endsWith(".data.json"))!;
  assert.deepEqual(JSON.parse(data.text), [{ op: "add", a: 2, b: 2, result: "4" }]);
});

Deno.test("postman data file: a JSON data file keeps its values; without one the summary asks for it", () => {
  const c = JSON.stringify(collection(9));
  const { files } = convertPostman(c, undefined, undefined, {
    path: "rows.json",
    text: '[{"op": "add", "a": 1, "b": 2, "result": 3}]',
  });
  const data = files.find((f) => f.path.endsWith(".data.json"))!;
  assert.deepEqual(JSON.parse(data.text), [{ op: "add", a: 1, b: 2, result: 3 }]);
  const without = formatPostmanSummary(convertPostman(c).summary, "out");
  assert.match(without, /--iteration-data FILE/, without);
});
