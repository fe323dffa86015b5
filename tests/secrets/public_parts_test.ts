import assert from "node:assert/strict";
import { Redactor } from "../../lib/secrets/mod.ts";
import { coversAll, publicSpans, secretStretches } from "../../lib/secrets/public_parts.ts";

const RUN_ID = "20261125-060431-503cc2";

Deno.test("public parts: spans merge, stretches are the rest, whitespace alone is covered", () => {
  assert.deepEqual(publicSpans(`a${RUN_ID}${RUN_ID}b`, [RUN_ID, "x"], 4), [[1, 45]]);
  assert.deepEqual(secretStretches("ab-cd", [[2, 3]]), ["ab", "cd"]);
  assert.ok(coversAll(` ${RUN_ID} `, publicSpans(` ${RUN_ID} `, [RUN_ID], 4)));
  assert.ok(!coversAll(`${RUN_ID}-x`, publicSpans(`${RUN_ID}-x`, [RUN_ID], 4)));
});

Deno.test("a secret holding the run id masks itself, its own pieces and its cut start, not the run id", () => {
  const r = new Redactor();
  r.addPublic(RUN_ID);
  const own = "0123456789abcdefghij";
  r.add(`pw-${own}-${RUN_ID}`);
  r.add(`${RUN_ID}-tail-secret`);
  r.add(RUN_ID);
  assert.ok(!r.has(RUN_ID), "made only of the run id: no secret");
  for (const text of [`run ${RUN_ID}`, `u-${RUN_ID}`, `${RUN_ID.slice(0, 10)}…`, `new-${RUN_ID}`]) {
    assert.equal(r.redact(text), text);
  }
  assert.equal(r.redact(`p=pw-${own}-${RUN_ID}`), "p=***");
  assert.equal(r.redact(`quoted ${own.slice(2, 19)}!`), "quoted ***!");
  assert.equal(r.redact("p=pw-0123…"), "p=***…");
  assert.equal(r.redact(`t=${RUN_ID}-tail-secret`), "t=***");
});

Deno.test("shown parts keep their text readable, but never unmask the secret itself", () => {
  const r = new Redactor();
  const id = "4f1c77aa-0b7e-4d1a-9a53-2f7d3c1e9b60";
  r.add(`pw-${id}`, [id]);
  assert.equal(r.redact(`user u-${id}`), `user u-${id}`);
  assert.equal(r.redact(`p=pw-${id}`), "p=***");
  // A secret that is exactly a shown value is still a secret, whole and in pieces.
  const admin = "adm1n-passw0rd-from-the-env";
  r.add(admin, [admin, "from-the-env"]);
  assert.equal(r.redact(`x ${admin} y`), "x *** y");
  assert.equal(r.redact(`x ${admin.slice(1, 20)} y`), "x *** y");
  // A shown text of fewer than four characters hides nothing.
  r.add("ab-0123456789abcdefgh", ["ab", "-"]);
  assert.equal(r.redact("q 0123456789abcdef"), "q ***");
});
