import assert from "node:assert/strict";
import { BoundedCache } from "../../lib/_util/bounded_cache.ts";

Deno.test("a kept value is built once; past the limit the cache starts over", () => {
  const cache = new BoundedCache<number>(2);
  let built = 0;
  const get = (key: string) => cache.get(key, () => ++built);
  assert.equal(get("a"), 1);
  assert.equal(get("a"), 1);
  assert.equal(get("b"), 2);
  assert.equal(get("c"), 3);
  assert.equal(get("a"), 4, "forgotten when the cache started over");
});
