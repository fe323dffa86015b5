/**
 * `convert har` on a page loaded twice in a row whose answers differ by the
 * single-use token each hands out, as Shaarli's list does after a save
 * (the redirect lands on it, then the user opens it again;
 * tests/real/shaarli_har_test.ts): the two identical GETs were folded into
 * one step as a duplicate poll, the first kept, so the token the next
 * request sent (the second page's) came from no kept answer: the summary
 * asked `TOKEN`, and with the recorded one the action was refused.
 *
 * What the converter does (lib/convert/polls.ts): identical reads with no
 * status field that changes are still one step, but the step is the LAST
 * read: its answer is what the requests after it were built from. Reads
 * whose answers are the same convert as before.
 */
import assert from "node:assert/strict";
import { convertAndRunTwice, homePage, singleUseRecording } from "./har_single_use_app.ts";

const FIRST = "b1b2c3d4e5f60718293a4b5c6d7e8f91";
const SECOND = "d9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f5";

Deno.test("convert har: a page read twice in a row is one step whose answer is the last, so the token the next request sends is captured, twice on one instance", async () => {
  const har = singleUseRecording([
    { method: "GET", path: "/", text: homePage(FIRST) },
    { method: "GET", path: "/", text: homePage(SECOND) },
    { method: "GET", path: `/pin?token=${SECOND}`, location: "/" },
  ]);
  const { converted, flow, runs, done } = await convertAndRunTwice(har);
  assert.equal(converted.code, 0, converted.stderr);
  assert.match(converted.stderr, /Dropped 1: duplicate poll 1\./);
  assert.doesNotMatch(converted.stderr, /TOKEN/);
  assert.ok(!flow.includes(SECOND), flow);
  assert.equal(runs.length, 2);
  for (const run of runs) assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
  assert.equal(done.pins, 2);
});
