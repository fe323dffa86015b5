/** The query walk both threads run: document order, no recursion, no argument spread. */
import assert from "node:assert/strict";
import { descend, evaluate } from "../../lib/expr/_path_walk.ts";
import { pathEngine } from "../../lib/expr/path_engine.ts";

const p3 = await pathEngine.load();
const environment = new p3.JSONPathEnvironment();

Deno.test("descendants are visited parents first, in document order", () => {
  const doc = { a: { id: 1, b: [{ id: 2 }, { id: 3 }] }, id: 4 };
  const ids = evaluate(environment.compile("$..id"), doc, p3.JSONPathNode);
  assert.deepEqual(ids, [4, 1, 2, 3]);
  assert.deepEqual(ids, p3.jsonpath.query("$..id", doc).values(), "as json-p3's own walk");
  const seen: unknown[] = [];
  descend(new p3.JSONPathNode([1, [2]], [], [1, [2]]), (n) => seen.push(n.value), p3.JSONPathNode);
  assert.deepEqual(seen, [[1, [2]], 1, [2], 2]);
});

Deno.test("a document 100,000 deep and a list of 200,000 matches are walked", () => {
  let deep: unknown = { id: 7 };
  for (let i = 0; i < 100_000; i++) deep = { a: deep };
  assert.deepEqual(evaluate(environment.compile("$..id"), deep, p3.JSONPathNode), [7]);
  const big = Array.from({ length: 200_000 }, (_, i) => i);
  assert.equal(evaluate(environment.compile("$[*]"), big, p3.JSONPathNode).length, 200_000);
});
