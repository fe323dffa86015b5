/**
 * A guard clause in a test script (a public project's own collection for Restful Booker, measured
 * by hand: `if (resBody.length === 0) { pm.test.skip("No results"); return; }` before the test of
 * the first element): Newman runs the tests after it only when the answer has elements, the flow
 * checked them on every answer and failed the empty search Newman passed. The statements after a
 * bare `return;` under an `if` are now the `else` of that `if`: at the script's level, inside a
 * `pm.test` callback, and under a condition on the status, each with Newman's verdicts on an empty
 * list, a full one, and a full one whose element lacks the field.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { runNewman } from "../support/newman_counts.ts";
import { newmanThenFlow } from "../support/newman_then_flow.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

const TESTS = [
  "const body = pm.response.json();",
  'pm.test("is a list", () => pm.expect(body).to.be.an("array"));',
  'pm.test("inner", () => {',
  "  if (body.length === 0) return;",
  '  pm.expect(body[0].bookingid).to.be.a("number");',
  "});",
  "if (pm.response.code !== 200) {",
  "  return;",
  "}",
  "if (body.length === 0) {",
  '  console.warn("none");',
  '  pm.test.skip("No results to validate");',
  "  return;",
  "}",
  'pm.test("first has an id", () => pm.expect(body[0]).to.have.property("bookingid"));',
];

function collection(base: string) {
  const get = (name: string, n: number) => ({
    name,
    event: [{ listen: "test", script: { exec: TESTS } }],
    request: { method: "GET", url: `{{baseUrl}}/booking?n=${n}` },
  });
  return {
    info: { name: "Guards", schema: V21 },
    variable: [{ key: "baseUrl", value: base }],
    item: [get("none", 0), get("one", 1)],
  };
}

/** `n` bookings; `bent` gives elements without their id. */
function bookings() {
  const state = { bent: false };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const n = Number(new URL(req.url).searchParams.get("n"));
    const one = state.bent ? { id: 1 } : { bookingid: 1 };
    return Response.json(Array.from({ length: n }, () => one));
  });
  return { state, url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

Deno.test("postman early return: the tests after a guard's return run only when it does not hold", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-early-return-" });
  const server = bookings();
  try {
    const { counts, summary } = await newmanThenFlow(dir, collection(server.url), server.url);
    assert.equal(counts.failedAssertions, 0, JSON.stringify(counts));
    const flow = await Deno.readTextFile(`${dir}/flows/1_guards.yaml`);
    assert.match(flow, /else:/, flow);
    // An element without its id fails the same two tests in both runners.
    server.state.bent = true;
    const bent = await runNewman(`${dir}/collection.json`, { baseUrl: server.url });
    assert.equal(bent.failedAssertions, 2, JSON.stringify(bent));
    const run = await runCli(summary.match(/^Run: flowrun (.*)$/m)![1].split(" "));
    assert.notEqual(run.code, 0, run.stdout);
    const out = run.stdout + run.stderr;
    const failed = new Set([...out.matchAll(/✘ ([^:\n]+?)(?: ›[^:\n]*)?: \$/g)].map((m) => m[1]));
    assert.deepEqual([...failed].sort(), ["first has an id", "inner"], out);
    assert.match(out, /1 passed, 1 failed|2 steps: 1 passed/, out);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
