/**
 * `convert har` on a recording that repeats one request many times
 * (tests/support/repeats.ts: a chat posting N messages to a room it made,
 * each post followed by a poll of the room), converted in time linear in N.
 * Stages that, for each step, walked every earlier answer of the same
 * request (which fields an answer sends only sometimes), copied the list of
 * them, or read every answer since the room was made (members the server
 * fills in later) made 4,000 repeats take most of a minute. A form posting
 * the same CSRF field each time asked for it per step, each question
 * walking every variable asked before (one more per post). Each is timed
 * alone (the building of steps, the asking), where a quadratic part shows
 * plainly, and the whole conversion.
 */
import assert from "node:assert/strict";
import { convertHar } from "../../lib/convert/har.ts";
import { newCorrelator } from "../../lib/convert/correlate/pipeline.ts";
import { addStep } from "../../lib/convert/correlate/steps.ts";
import { secretEnv } from "../../lib/convert/correlate/state.ts";
import { typedOnce } from "../../lib/convert/correlate/typed_once.ts";
import type { HarRecord } from "../../lib/convert/har_model.ts";
import { recordsOf } from "../support/har_records.ts";
import { repeatedForm, repeatedRequests, repeatSpecs } from "../support/repeats.ts";
import { assertLinear, TIMING } from "../support/timing.ts";

Deno.test(`a chat repeating one post and one poll converts in linear time ${TIMING}`, () => {
  const hars = new Map([100, 800].map((n) => [n, repeatedRequests(n)]));
  const yaml = convertHar(hars.get(800)!).yaml;
  // Still judged at scale: a member some earlier answers of the post lacked is not checked,
  // nor is the poll's count, which the room's create answered without
  // (har_created_without_test.ts); what the create answered still is.
  assert.doesNotMatch(yaml, /\$\.json\.thread/);
  assert.doesNotMatch(yaml, /\$\.json\.unread/);
  assert.match(yaml, /- name: get_room_800\n[^]*?\{ path: \$\.json\.name, [^}]*\}/);
  // 8 times the repeats: well under 8 × 3 the time (quadratic would be 64 ×).
  assertLinear("har convert (repeats)", (n) => convertHar(hars.get(n)!), 100, 8, 3);
});

Deno.test(`the steps of a request repeated many times are built in linear time ${TIMING}`, () => {
  const records = new Map([300, 2_400].map((n) => [n, recordsOf(repeatSpecs(n))]));
  const build = (all: HarRecord[]) => {
    const c = newCorrelator("a");
    for (const r of all) addStep(c, [r]);
    return c;
  };
  const c = build(records.get(300)!);
  // The post whose earlier answers all lacked `thread` does not check it; the first does not
  // either (no answer before it had one): the counts see every earlier answer of the request.
  const posts = c.steps.filter((s) => s.method === "POST" && s.noun !== "login").slice(1);
  assert.ok(posts.every((s) => s.checks.every((k) => k.path[0] !== "thread")));
  assert.ok(posts.every((s) => s.checks.some((k) => k.path[0] === "author")));
  assertLinear("steps", (n) => build(records.get(n)!), 300);
});

Deno.test(`a form posting one secret field many times converts in linear time ${TIMING}`, () => {
  const hars = new Map([100, 800].map((n) => [n, repeatedForm(n)]));
  const yaml = convertHar(hars.get(800)!).yaml;
  // One variable for the token every post sends, asked once.
  assert.equal(yaml.match(/csrf: \$\{ENV\.SEND_CSRF\}/g)?.length, 800);
  assert.doesNotMatch(yaml, /SEND_2_CSRF/);
  assertLinear("har convert (form)", (n) => convertHar(hars.get(n)!), 100, 8, 3);
});

Deno.test(`a value asked for by every step is found among the variables in linear time ${TIMING}`, () => {
  // As a form's field is asked for per step (rewrite_value.ts): a variable named for the step,
  // then the earlier one holding the same value kept (typed_once.ts).
  const ask = (n: number) => {
    const c = newCorrelator("a");
    for (let i = 0; i < n; i++) {
      typedOnce(
        c,
        "c5f0a9e2b7d14e63",
        () => secretEnv(c, `SEND_${i}_CSRF`, "c5f0a9e2b7d14e63", ""),
      );
    }
    return c;
  };
  const c = ask(50);
  assert.deepEqual([...c.env.keys()], ["SEND_0_CSRF"]);
  assert.deepEqual(new Set(c.envByValue.values()), new Set(["SEND_0_CSRF"]));
  assertLinear("variables", ask, 1_000);
});
