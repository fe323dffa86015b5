/**
 * moment.js objects change in place: `today.add(3, 'd')` moves `today` itself, so a booking
 * collection that writes `const today = moment(); var checkin = today.add(1, 'd').add(2,
 * 'w').format(…); var checkout = today.add(3, 'd').format(…)` sends a check-out 18 days on,
 * after its check-in (Newman 6.2.2 sent `2027-01-30` and `2027-02-02` for `add(1, 'd').add(2,
 * 'M')` then `add(3, 'd')`). The converter read each `add` from the moment as declared and
 * wrote the check-out 3 days on, before the check-in: a booking Newman never sends. A shift
 * written as a statement of its own (`today.add(7, 'days');`) stayed a comment and moved
 * nothing. Now a shift of a moment kept in a variable moves that variable for the statements
 * after it, as moment does; `moment()` itself, and a moment copied with `moment(day)`, is a
 * new one, left alone.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runConverted, withBodySink } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const DAY = 86_400_000;

const PRE = [
  "const moment = require('moment');",
  "const today = moment();",
  "var checkin = today.add(1, 'd').add(2, 'w').format('YYYY-MM-DD');",
  "pm.environment.set('checkin', checkin);",
  "var checkout = today.add(3, 'd').format('YYYY-MM-DD');",
  "pm.environment.set('checkout', checkout);",
  // A fresh moment is not the one moved above.
  "pm.environment.set('fresh', moment().add(1, 'd').format('YYYY-MM-DD'));",
  "let later = moment();",
  "later.subtract(2, 'days');",
  "later.add(5, 'days');",
  "pm.environment.set('later', later.format('YYYY-MM-DD'));",
];

Deno.test("postman moment: a shift moves the moment kept in a variable, as moment.js does", async () => {
  await withBodySink(async (base, seen, dir) => {
    const { files } = convertPostman(JSON.stringify({
      info: { name: "Booking", schema: V21 },
      item: [{
        name: "Create Booking",
        event: [{ listen: "prerequest", script: { exec: PRE } }],
        request: {
          method: "POST",
          url: `${base}/booking`,
          header: [{ key: "Content-Type", value: "application/json" }],
          body: {
            mode: "raw",
            raw: '{"checkin": "{{checkin}}", "checkout": "{{checkout}}", "fresh": "{{fresh}}",' +
              ' "later": "{{later}}"}',
          },
        },
      }],
    }));
    const before = Date.now();
    const { run, flow } = await runConverted(files, dir);
    const after = Date.now();
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    assert.doesNotMatch(flow.text, /# untranslated/, flow.text);
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const on = (n: number) => [day(before + n * DAY), day(after + n * DAY)];
    const [sent] = seen;
    assert.ok(on(15).includes(sent.checkin), JSON.stringify(sent));
    assert.ok(on(18).includes(sent.checkout), JSON.stringify(sent));
    assert.ok(on(1).includes(sent.fresh), JSON.stringify(sent));
    assert.ok(on(3).includes(sent.later), JSON.stringify(sent));
  });
});
