import assert from "node:assert/strict";
import { compact } from "../../lib/check/_compact.ts";
import type { Masking } from "../../lib/model/masking.ts";
import { PLAIN } from "../../lib/model/masking.ts";

Deno.test("short values are kept whole, objects included", () => {
  const list = [1, { a: "b" }];
  assert.equal(compact(list, PLAIN), list);
  assert.equal(compact("x".repeat(2000), PLAIN), "x".repeat(2000));
  assert.equal(compact(null, PLAIN), null);
  assert.equal(compact(5, PLAIN), 5);
});

Deno.test("a long string keeps its head and says how much was left out", () => {
  const cut = compact("x".repeat(2500), PLAIN) as string;
  assert.ok(cut.endsWith(" (500 more characters)"), cut.slice(-40));
});

Deno.test("a large object becomes its JSON head, marked truncated", () => {
  const big = Array.from({ length: 1000 }, (_, i) => ({ id: i }));
  const cut = compact(big, PLAIN) as string;
  assert.match(cut, /^\[\{"id":0\},/);
  assert.match(cut, /\(\d+ more characters, truncated\)$/);
});

Deno.test("the value is masked before it is cut", () => {
  const seen: string[] = [];
  const masking: Masking = {
    ...PLAIN,
    head: (text, max) => {
      seen.push(text.slice(0, 6));
      return PLAIN.head(text.replaceAll("secret", "******"), max);
    },
  };
  const cut = compact(`secret${"x".repeat(3000)}`, masking) as string;
  assert.ok(cut.startsWith("******"), cut.slice(0, 10));
  assert.deepEqual(seen, ["secret"]);
});
