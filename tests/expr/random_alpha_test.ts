/**
 * `${RANDOM.ALPHA_<n>}`: n lowercase letters, for a field a server takes
 * letters in only (a name), as Postman collections make them with a helper
 * over a letters-only alphabet. Parsed within its bounds, drawn from every
 * letter, and made fresh by the Artillery export's processor.
 */
import assert from "node:assert/strict";
import { exportFresh } from "./fresh_processor.ts";
import { parseRef } from "../../lib/expr/ref.ts";
import { ExpressionSyntaxError } from "../../lib/expr/errors.ts";
import { evaluate, parseTemplate } from "../../lib/expr/template.ts";

Deno.test("RANDOM.ALPHA_n parses from 1 to 4096 and its hint names it", () => {
  const at = { text: "", offset: 0 };
  assert.deepEqual(parseRef("RANDOM.ALPHA_1", at), { kind: "random-alpha", length: 1 });
  assert.deepEqual(parseRef("RANDOM.ALPHA_4096", at), { kind: "random-alpha", length: 4096 });
  for (const inner of ["RANDOM.ALPHA_0", "RANDOM.ALPHA_4097", "RANDOM.alpha_3"]) {
    assert.throws(() => parseRef(inner, { text: `\${${inner}}`, offset: 0 }), (error) => {
      assert.ok(error instanceof ExpressionSyntaxError, String(error));
      assert.ok(error.hint?.includes("${RANDOM.ALPHA_<n>} (letters a to z)"), error.hint);
      return true;
    });
  }
});

Deno.test("RANDOM.ALPHA_n is n letters a to z, each letter drawn", () => {
  const scope = { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r" };
  const letters = new Set<string>();
  // 100 draws of 8: all 26 letters turn up (a miss is < 1e-12).
  for (let i = 0; i < 100; i++) {
    const text = evaluate(parseTemplate("${RANDOM.ALPHA_8}"), scope) as string;
    assert.match(text, /^[a-z]{8}$/);
    for (const c of text) letters.add(c);
  }
  assert.equal(letters.size, 26);
  assert.match(evaluate(parseTemplate("Name${RANDOM.ALPHA_3}"), scope) as string, /^Name[a-z]{3}$/);
});

Deno.test("the Artillery export makes RANDOM.ALPHA_n fresh in its processor", async () => {
  const fresh = await exportFresh("/o?name=${RANDOM.ALPHA_6}");
  assert.equal(fresh.text, "/o?name={{ f0_fresh_1 }}");
  assert.deepEqual(fresh.notes, []);
  assert.match(String(fresh.vars.f0_fresh_1), /^[a-z]{6}$/);
});
