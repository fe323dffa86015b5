import assert from "node:assert/strict";
import {
  canonicalKey,
  deepEqual,
  jsonType,
  nestsDeeperThan,
  show,
  typed,
} from "../../lib/check/json_value.ts";
import { PLAIN } from "../../lib/model/masking.ts";

Deno.test("canonical keys agree exactly when deepEqual does", () => {
  const pairs: [unknown, unknown][] = [
    [{ b: [1, 2], a: null }, { a: null, b: [1, 2] }],
    [[1, 2], [12]],
    [5, "5"],
    [{ a: [] }, { a: {} }],
    [["a,", "b"], ["a", ",b"]],
    [true, "true"],
  ];
  for (const [a, b] of pairs) {
    assert.equal(canonicalKey(a) === canonicalKey(b), deepEqual(a, b), JSON.stringify([a, b]));
  }
});

Deno.test("deep values are compared, keyed and measured without recursion", () => {
  const deep = JSON.parse("[".repeat(100_000) + "]".repeat(100_000));
  assert.equal(deepEqual(deep, JSON.parse("[".repeat(100_000) + "]".repeat(100_000))), true);
  assert.equal(canonicalKey(deep).length > 100_000, true);
  assert.equal(nestsDeeperThan(deep, 99_999), true);
  assert.equal(nestsDeeperThan(deep, 100_000), false);
});

Deno.test("values in messages: JSON, shortened, masked, with their type", () => {
  assert.equal(jsonType(undefined), "null");
  assert.equal(typed("a"), 'string "a"');
  assert.equal(typed([1]), "array [1]");
  assert.equal(show("x".repeat(100), 10), `"${"x".repeat(8)}…`);
  const masking = {
    ...PLAIN,
    shorten: (text: string, max: number) => PLAIN.shorten(text.replaceAll("pw", "**"), max),
  };
  assert.equal(show({ token: "pw" }, 80, masking), '{"token":"**"}');
});
