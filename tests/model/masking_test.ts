/** The Masking interface: PLAIN shortens like the redactor, without masking anything. */
import assert from "node:assert/strict";
import { headOf, type Masking, PLAIN } from "../../lib/model/masking.ts";
import { Redactor } from "../../lib/secrets/redactor.ts";

Deno.test("PLAIN masks nothing and cuts like a redactor with no secret", () => {
  // A Redactor is a Masking (checked here: redactor.ts does not name the type in its API).
  const empty: Masking = new Redactor();
  for (const text of ["", "abc", "abcdef", "a***b***c", "😀😀😀😀😀😀", "x".repeat(300)]) {
    assert.equal(PLAIN.redact(text), text);
    for (const max of [1, 3, 5, 80]) {
      assert.equal(PLAIN.shorten(text, max), empty.shorten(text, max));
    }
    assert.equal(PLAIN.head(text, 4, 6), empty.head(text, 4, 6));
  }
});

Deno.test("headOf never splits a mask or a surrogate pair", () => {
  assert.equal(headOf("id *** end", 5), "id …");
  assert.equal(headOf("😀😀😀", 2), "😀😀…");
  assert.equal(headOf("abcdef", 3, 6), "abcdef");
});
