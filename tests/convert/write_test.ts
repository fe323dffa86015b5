import assert from "node:assert/strict";
import { correlate } from "../../lib/convert/correlate/mod.ts";
import { writeFlow } from "../../lib/convert/write.ts";
import { recordsOf } from "../support/har_records.ts";

Deno.test("writeFlow: header, vars, steps; the variables it reads listed; no secret in the text", () => {
  const records = recordsOf([
    { url: "https://a.test/me", headers: [["x-api-key", "k3y-91ab7c3d"]], json: { ok: true } },
  ]);
  const c = correlate(records, [{ records }], "a");
  const { yaml, notes, mask } = writeFlow(c, { total: 1, ordered: records, notes: [] });
  assert.match(
    yaml,
    /^# Converted by flowrun convert har from a HAR recording of 1 entries: 1 step\./,
  );
  assert.match(yaml, /# {3}API_KEY +the value of the "x-api-key" header/);
  assert.match(yaml, /\nname: Recorded session on a\.test\n/);
  assert.match(yaml, /x-api-key: \$\{ENV\.API_KEY\}/);
  assert.ok(!yaml.includes("k3y-91ab7c3d"));
  assert.deepEqual(notes, []);
  assert.equal(mask("key k3y-91ab7c3d"), "key ***");
});

Deno.test("writeFlow: a secret left inside request data becomes RECORDED_SECRET, said in a note", () => {
  const token = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl";
  const records = recordsOf([{ url: "https://a.test/me", json: {} }]);
  const c = correlate(records, [{ records }], "a");
  c.secrets.add(token);
  c.steps[0].url += `?t=${token}`;
  const { yaml, notes } = writeFlow(c, { name: "Given", total: 1, ordered: records, notes: [] });
  assert.ok(!yaml.includes(token));
  assert.match(yaml, /\?t=\$\{ENV\.RECORDED_SECRET\}/);
  assert.match(yaml, /\nname: Given\n/);
  assert.match(notes[0], /^1 recorded secret value was found inside request data/);
});
