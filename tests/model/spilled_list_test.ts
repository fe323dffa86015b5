/**
 * A spilled list reads as the array it stands for to everything the run's
 * end does with a failed flow's steps (counting, recapping, masking, JSON),
 * two lists read in turn each give their own items, and a write changes
 * only the copy parsed then, as reading afresh always did.
 */
import assert from "node:assert/strict";
import { spilledList } from "../../lib/model/spilled_list.ts";

const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

Deno.test("a spilled list answers as its array to every way of reading one", () => {
  const items = [{ name: "a", n: 1 }, { name: "b", n: 2 }, { name: "c", n: 3 }];
  const bytes = encode(items);
  let reads = 0;
  const list = spilledList<{ name: string; n: number }>(() => (reads++, bytes));
  assert.ok(Array.isArray(list));
  assert.equal(list.length, 3);
  assert.equal(list[2].name, "c");
  assert.equal(list.at(-1)?.n, 3);
  assert.deepEqual([...list].map((i) => i.name), ["a", "b", "c"]);
  assert.deepEqual(list.filter((i) => i.n > 1).map((i) => i.n), [2, 3]);
  assert.equal(list.find((i) => i.name === "b")?.n, 2);
  assert.equal(list.findIndex((i) => i.name === "c"), 2);
  assert.deepEqual([...list.entries()].map(([i, v]) => `${i}${v.name}`), ["0a", "1b", "2c"]);
  assert.equal(list.reduce((sum, i) => sum + i.n, 0), 6);
  assert.ok(list.every((i) => i.n > 0) && list.some((i) => i.n === 3));
  assert.ok(1 in list && !(3 in list));
  assert.deepEqual(Object.keys(list), ["0", "1", "2"]);
  assert.equal(JSON.stringify(list), JSON.stringify(items));
  assert.equal(JSON.stringify({ steps: list }), JSON.stringify({ steps: items }));
  let count = 0;
  for (const _ of list) count++;
  assert.equal(count, 3);
  // All of that parsed the JSON once: the list read last stays parsed.
  assert.equal(reads, 1);
});

Deno.test("two spilled lists read in turn each give their own items", () => {
  const a = spilledList<number>(() => encode([1, 2]));
  const b = spilledList<number>(() => encode([3, 4, 5]));
  for (let i = 0; i < 3; i++) {
    assert.deepEqual([...a], [1, 2]);
    assert.equal(b.length, 3);
    assert.equal(a[1] + b[2], 7);
  }
});

Deno.test("a write changes only the copy parsed then: read again later, the list is as spilled", () => {
  const list = spilledList<number>(() => encode([1, 2]));
  const other = spilledList<number>(() => encode([9]));
  list[0] = 7;
  assert.equal(other[0], 9);
  assert.equal(list[0], 1);
});
