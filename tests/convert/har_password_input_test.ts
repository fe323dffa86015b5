/**
 * `convert har` on a login form whose password field is not named like
 * one, as DokuWiki's is (tests/real/dokuwiki_har_test.ts): it posts `u` and
 * `p`, and the page that held the form says what `p` is,
 * `<input type="password" name="p">`. Judged by the field's name, `p` was
 * no credential: the flow held the password the recording typed, and the
 * summary asked for nothing.
 *
 * What the converter does (lib/convert/correlate/password_fields.ts): a
 * field that a recorded page's form declares `type="password"` is a
 * credential by the page's word. The request that sends it is a login, and
 * its value is asked of the user as `LOGIN_PASSWORD`, never written.
 * Widened: single-quoted and unquoted attributes, a JSON login body; a
 * field named `p` that no page declares a password stays as recorded.
 */
import assert from "node:assert/strict";
import { passwordFields, sendsPassword } from "../../lib/convert/correlate/password_fields.ts";
import type { HarRecord } from "../../lib/convert/har_model.ts";
import { convertWiki, PASSWORD, runWiki, wikiRecording, wikiStandIn } from "./har_rendered_wiki.ts";

Deno.test("convert har: a login form's field the page declares type=password is asked for as LOGIN_PASSWORD, never written", async () => {
  const dir = await Deno.makeTempDir();
  const fresh = wikiStandIn();
  try {
    const { converted, flow, flowPath } = await convertWiki(dir, await wikiRecording());
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(converted.stderr, /Set before running: LOGIN_PASSWORD\./);
    assert.ok(!flow.includes(PASSWORD), flow);
    assert.match(flow, /- name: login\n/);
    assert.match(flow, /^\s+p: \$\{ENV\.LOGIN_PASSWORD\}$/m);
    assert.match(flow, /^\s+u: editor$/m);
    const run = await runWiki(flowPath, fresh.origin);
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
    assert.ok(!run.stdout.includes(PASSWORD), run.stdout);
    const wrong = await runWiki(flowPath, fresh.origin, "not-the-password");
    assert.equal(wrong.code, 1, wrong.stdout);
    assert.match(wrong.stdout, /✘ login/);
  } finally {
    await fresh.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: a field named p that no page declares a password is sent as recorded", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const har = JSON.parse(await wikiRecording());
    for (const e of har.log.entries) {
      e.response.content.text = e.response.content.text.replace('type="password"', 'type="text"');
    }
    const { converted, flow } = await convertWiki(dir, JSON.stringify(har));
    assert.equal(converted.code, 0, converted.stderr);
    assert.doesNotMatch(converted.stderr, /LOGIN_PASSWORD/);
    assert.match(flow, new RegExp(`^\\s+p: ${PASSWORD}$`, "m"), flow);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: password inputs are found however the page quotes them, and a JSON login sends one", () => {
  const page = (text: string) => ({ mimeType: "text/html", responseText: text }) as HarRecord;
  const names = passwordFields([
    page("<input type='password' name='pw'>"),
    page("<input name=secret_code type=password>"),
    page('<input type="text" name="user">'),
  ]);
  assert.deepEqual([...names].sort(), ["pw", "secret_code"]);
  const login = {
    method: "POST",
    headers: [],
    bodyText: '{"u":"ann","pw":"typed"}',
  } as unknown as HarRecord;
  assert.ok(sendsPassword(names, login));
  const empty = { method: "POST", headers: [], bodyText: "u=ann&pw=" } as unknown as HarRecord;
  assert.ok(!sendsPassword(names, empty));
});
