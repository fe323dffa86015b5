/**
 * `convert har` on a login form with a "keep me signed in" checkbox whose
 * name reads like a credential, as Shaarli's `longlastingsession` does
 * (tests/real/shaarli_har_test.ts): the box sends `on`, and the name ends
 * in SESSION, so the field was taken for a secret the user types: the
 * summary asked `LOGIN_LONGLASTINGSESSION` beside the password, and a user
 * who set only what they know (the password) could not run the flow.
 *
 * What the converter does (lib/convert/correlate/choice_fields.ts): the
 * recorded page that held the form declares the field
 * `<input type="checkbox">`, whose value is the page's own (its `value`,
 * `on` when it has none), never typed; the value sent is that one, so it
 * is sent as recorded. Widened: a radio's declared values; a text input is
 * no choice.
 */
import assert from "node:assert/strict";
import { choiceFields } from "../../lib/convert/correlate/choice_fields.ts";
import type { HarRecord } from "../../lib/convert/har_model.ts";
import { convertAndRunTwice, singleUseRecording } from "./har_single_use_app.ts";

Deno.test("convert har: a login form's checkbox named like a secret sends the page's own value, only the password asked, twice on one instance", async () => {
  const { converted, flow, runs, done } = await convertAndRunTwice(singleUseRecording());
  assert.equal(converted.code, 0, converted.stderr);
  assert.match(converted.stderr, /Set before running: LOGIN_PASSWORD\./);
  assert.match(flow, /^\s+keep_session: "on"$/m);
  assert.equal(runs.length, 2);
  for (const run of runs) assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
  assert.equal(done.logins, 2);
  assert.equal(done.pins, 2);
});

Deno.test("convert har: a checkbox or radio is found with its declared values; a value no page declared is not one", () => {
  const page = (text: string) => ({ mimeType: "text/html", responseText: text }) as HarRecord;
  const fields = choiceFields([
    page('<input type="checkbox" name="keep_session" checked>'),
    page(
      "<input type=radio name=auth_mode value='totp'><input type='radio' name=auth_mode value=sms>",
    ),
    page('<input type="text" name="api_key">'),
  ]);
  assert.deepEqual([...fields.get("keep_session")!], ["on"]);
  assert.deepEqual([...fields.get("auth_mode")!].sort(), ["sms", "totp"]);
  assert.ok(!fields.has("api_key"));
});
