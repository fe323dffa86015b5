import assert from "node:assert/strict";
import { jsonHead } from "../../lib/_util/json_head.ts";

Deno.test("jsonHead writes what JSON.stringify writes, whole when it fits", () => {
  for (const value of [null, 1, 'a"b', [1, [2, {}]], { a: { b: [true, null] }, "": "" }]) {
    const head = jsonHead(value, 1_000);
    assert.equal(head.text, JSON.stringify(value));
    assert.equal(head.total, head.text.length);
  }
});

Deno.test("jsonHead stops near its limit on a huge or deep value, without recursion", () => {
  const huge = Array.from({ length: 100_000 }, (_, i) => i);
  const cut = jsonHead(huge, 100);
  assert.equal(cut.total, undefined);
  assert.ok(cut.text.length < 200 && JSON.stringify(huge).startsWith(cut.text));
  let deep: unknown = 0;
  for (let i = 0; i < 200_000; i++) deep = { a: deep };
  assert.ok(jsonHead(deep, 60).text.startsWith('{"a":{"a":'));
});
