import assert from "node:assert/strict";
import { freshFrom } from "../../lib/convert/fresh_from.ts";

Deno.test("freshFrom: UUIDs, hex of one length, and a differing run with a digit are made fresh", () => {
  assert.equal(
    freshFrom("6f1c2b7e-8d4a-4e3f-9a1b-c5d6e7f80912", "1a2b3c4d-5e6f-4a8b-9c0d-e1f2a3b4c5d6"),
    "${RANDOM.UUID}",
  );
  assert.equal(freshFrom("0a1b2c3d", "9f8e7d6c"), "${RANDOM.HEX_8}");
  assert.equal(freshFrom("draft-17", "draft-19"), "draft-${RUN_ID}");
});

Deno.test("freshFrom: different words, or a change that is not one alphanumeric run, are data", () => {
  assert.equal(freshFrom("Alice", "Bob"), undefined);
  assert.equal(freshFrom("a 1 b", "a 2 c"), undefined);
  assert.equal(freshFrom("same", "same"), undefined);
});

Deno.test("freshFrom: a number, date or time of up to nine digits a run in both is typed or picked, never made fresh", () => {
  assert.equal(freshFrom("2", "3"), undefined);
  assert.equal(freshFrom("75001", "10115"), undefined);
  assert.equal(freshFrom("55512345", "55598765"), undefined);
  for (const [a, b] of [["2026-11-28", "2026-11-29"], ["28/11/2026", "29/11/2026"], ["-3", "-5"]]) {
    assert.equal(freshFrom(a, b), undefined, a);
  }
  assert.equal(freshFrom("1,200", "1,500"), undefined);
  assert.equal(freshFrom("+33 1 23", "+33 1 45"), undefined);
  // Ten digits or more, or digits inside text, are what they were.
  assert.equal(freshFrom("1732100123", "1732999456"), "${RANDOM.HEX_10}");
  assert.equal(freshFrom("draft-17", "draft-19"), "draft-${RUN_ID}");
});
