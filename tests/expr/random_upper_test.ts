/**
 * `${RANDOM.UPPER_<n>}`: n capital letters, for a code a server takes in
 * capitals only, as Postman collections make one from `'ABC…Z'` or with
 * `.toUpperCase()`. Parsed within the bounds of `ALPHA_<n>`, drawn from every
 * capital, and made fresh by the Artillery export's processor.
 */
import assert from "node:assert/strict";
import { exportFresh } from "./fresh_processor.ts";
import { parseRef } from "../../lib/expr/ref.ts";
import { ExpressionSyntaxError } from "../../lib/expr/errors.ts";
import { evaluate, parseTemplate } from "../../lib/expr/template.ts";

Deno.test("RANDOM.UPPER_n parses from 1 to 4096 and its hint names it", () => {
  const at = { text: "", offset: 0 };
  assert.deepEqual(parseRef("RANDOM.UPPER_1", at), { kind: "random-upper", length: 1 });
  assert.deepEqual(parseRef("RANDOM.UPPER_4096", at), { kind: "random-upper", length: 4096 });
  for (const inner of ["RANDOM.UPPER_0", "RANDOM.UPPER_4097", "RANDOM.upper_3"]) {
    assert.throws(() => parseRef(inner, { text: `\${${inner}}`, offset: 0 }), (error) => {
      assert.ok(error instanceof ExpressionSyntaxError, String(error));
      assert.ok(error.hint?.includes("${RANDOM.UPPER_<n>} (A to Z)"), error.hint);
      return true;
    });
  }
});

Deno.test("RANDOM.UPPER_n is n capitals A to Z, each capital drawn", () => {
  const scope = { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r" };
  const capitals = new Set<string>();
  // 100 draws of 8: all 26 capitals turn up (a miss is < 1e-12).
  for (let i = 0; i < 100; i++) {
    const text = evaluate(parseTemplate("${RANDOM.UPPER_8}"), scope) as string;
    assert.match(text, /^[A-Z]{8}$/);
    for (const c of text) capitals.add(c);
  }
  assert.equal(capitals.size, 26);
  assert.match(evaluate(parseTemplate("SKU-${RANDOM.UPPER_3}"), scope) as string, /^SKU-[A-Z]{3}$/);
});

Deno.test("the Artillery export makes RANDOM.UPPER_n fresh in its processor", async () => {
  const fresh = await exportFresh("/o?code=${RANDOM.UPPER_6}");
  assert.equal(fresh.text, "/o?code={{ f0_fresh_1 }}");
  assert.deepEqual(fresh.notes, []);
  assert.match(String(fresh.vars.f0_fresh_1), /^[A-Z]{6}$/);
});
