import assert from "node:assert/strict";
import { judged } from "../../lib/convert/two_recordings_judge.ts";
import { newTwoRecordingsCorrelator } from "../../lib/convert/two_recordings_correlate.ts";
import { alignRecords, Evidence } from "../../lib/convert/two_recordings.ts";
import { valueKey } from "../../lib/convert/json.ts";

/** A correlator whose evidence saw `values` sent equal in both recordings. */
function equalInBoth(...values: string[]) {
  const evidence = new Evidence(alignRecords([], []));
  for (const v of values) evidence.equal.add(valueKey(v));
  return newTwoRecordingsCorrelator("a", evidence);
}

Deno.test("two recordings: a value equal in both that the flow makes fresh is counted made fresh, never a credential", () => {
  // Bull Board's summary said "1 credential equal in both still read from a variable" where the
  // flow read none: `${RUN_ID}` and `${RANDOM…}` were taken for an environment variable.
  for (const template of ["harbour-notes-${RUN_ID}", "${RANDOM.HEX_8}", "job-${RANDOM.UUID}"]) {
    const t = equalInBoth("v");
    assert.equal(judged(t, "v", template), template);
    assert.equal(t.decisions.get(valueKey("v")), "fresh", template);
  }
});

Deno.test("two recordings: a value equal in both read from a variable stays a credential, in either spelling", () => {
  for (const template of ["${ENV.LOGIN_PASSWORD}", "${APP_KEY}", "Bearer ${ENV.TOKEN}"]) {
    const t = equalInBoth("v");
    judged(t, "v", template);
    assert.equal(t.decisions.get(valueKey("v")), "credential", template);
  }
});
