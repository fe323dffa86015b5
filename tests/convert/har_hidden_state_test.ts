/**
 * `convert har` on a form that hands back the server's state in a hidden
 * field, as DokuWiki's editor does (tests/real/dokuwiki_har_test.ts): the
 * edit form holds `<input type="hidden" name="date" value="1795723318">`,
 * the timestamp of the revision the edit starts from, and the save sends
 * it back; a save whose `date` is not the current revision's is a conflict
 * (200, the page not saved). The number was sent as recorded (a page value
 * of digits counted only under an id's name), so the second save of a fresh
 * instance was a conflict, and so was every save of a second run.
 *
 * What the converter does (lib/convert/pages.ts `state`,
 * correlate/producers.ts): a number of 8 digits or more in a hidden input is
 * the server's state, captured from the page by a pattern whatever its
 * field's name, and sent where the recording sent it: the form's body, and a
 * link's query (`rev=` of the difference). A field the form sends empty
 * that the page held as an empty hidden input (the new page's `date`) is
 * captured from that page by its name (correlate/hidden_fields.ts): on a
 * second run the page exists and its editor holds the revision. Widened: two
 * runs on one instance; the saves sent urlencoded and multipart; a number in
 * a visible field (typed by the user) is no page value.
 */
import assert from "node:assert/strict";
import { pageValues } from "../../lib/convert/pages.ts";
import { convertWiki, runWiki, wikiRecording, wikiStandIn } from "./har_rendered_wiki.ts";

/**
 * Converts the wiki's recording (its saves multipart or not), has `check` read the flow, and
 * runs it twice on one fresh stand-in: both saves send the editor's date (the first one's was
 * empty in the recording), both runs pass, and each saved its two revisions.
 */
async function savesTwice(multipart: boolean, check: (flow: string) => void): Promise<void> {
  const dir = await Deno.makeTempDir();
  const fresh = wikiStandIn();
  try {
    const { converted, flow, flowPath } = await convertWiki(
      dir,
      await wikiRecording(undefined, multipart),
    );
    assert.equal(converted.code, 0, converted.stderr);
    check(flow);
    assert.equal(
      [...flow.matchAll(/^\s+date: \$\{steps\.open_wiki(_\d)?\.capture\.date\}$/gm)].length,
      2,
      flow,
    );
    for (const n of [1, 2]) {
      const run = await runWiki(flowPath, fresh.origin);
      assert.equal(run.code, 0, `run ${n}\n${run.stdout}\n${flow}`);
    }
    assert.equal(fresh.wiki.revisions.length, 4);
  } finally {
    await fresh.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("convert har: a hidden field's revision number is captured from the editor and sent back by the save, twice on one instance", async () => {
  await savesTwice(false, (flow) => {
    assert.ok(
      !flow.split("\n").some((l) => !l.trimStart().startsWith("#") && l.includes("1700000000")),
      flow,
    );
    assert.match(flow, /date: \{ regex: '<input\[\^>\]\*\\bname="date"/, flow);
    assert.match(flow, /rev=\$\{steps\.\w+\.capture\.date\}&do=diff/, flow);
  });
});

Deno.test("convert har: a multipart save sends the editor's date too, twice on one instance", async () => {
  await savesTwice(true, (flow) => assert.match(flow, /multipart:/, flow));
});

Deno.test("convert har: a number is server state in a hidden input only, not in a field the user types into", () => {
  const hidden = pageValues('<input type="hidden" name="date" value="1795723318">');
  assert.deepEqual(hidden.map((v) => [v.name, v.value, v.state]), [["date", "1795723318", true]]);
  assert.deepEqual(pageValues('<input type="text" name="phone" value="5550001234">'), []);
  // A short number (a count, a flag) is no state to capture.
  assert.deepEqual(pageValues('<input type="hidden" name="rev" value="0">'), []);
});
