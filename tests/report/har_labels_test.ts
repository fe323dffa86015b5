/**
 * The HAR report's labels: one per opaque secret, the same everywhere in a run; an auth scheme
 * stays beside its token's label; a secret holding another one is masked whole, so no part of
 * it shows beside a label; ordinary words and short values are left to the usual masking.
 */
import assert from "node:assert/strict";
import { SecretLabels } from "../../lib/report/har_labels.ts";

Deno.test("a secret keeps one label in every place, an auth scheme stays beside it", () => {
  let n = 0;
  const labels = new SecretLabels(() => `00000000000${n++}`);
  const token = "tok_9f8e7d6c5b4a";
  const out = labels.apply(
    { response: `{"token":"${token}"}`, header: `Bearer ${token}`, again: [token] },
    [token, `Bearer ${token}`],
  );
  assert.deepEqual(out, {
    response: '{"token":"masked-000000000000"}',
    header: "Bearer masked-000000000000",
    again: ["masked-000000000000"],
  });
  // A later flow's piece: the same label.
  assert.equal(labels.apply(`x ${token}`, [token]), "x masked-000000000000");
});

Deno.test("a secret holding another one (not after a scheme) is masked whole; words and short ones are left", () => {
  const labels = new SecretLabels(() => "aaaaaaaaaaaa");
  const inner = "k3y-0123456789";
  const outer = `zz9-${inner}`;
  assert.equal(labels.apply(`${outer} | ${inner}`, [outer, inner]), "*** | masked-aaaaaaaaaaaa");
  assert.equal(
    labels.apply("admin password s3c", ["admin", "password", "s3c"]),
    "admin password s3c",
  );
});
