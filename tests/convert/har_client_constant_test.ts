/**
 * `convert har` on a field the client sends with the same value every time,
 * when a page later happens to hold that value too. MediaWiki's editor
 * (tests/real/mediawiki_har_test.ts) posts `formatversion=2` with every API
 * call, and its second edit form holds the page's revision `editRevId` = `2`:
 * the second editor's API calls were sent `formatversion=${…edit_rev_id}`,
 * so a second run (revisions 4 and 5) asked for a format that does not
 * exist and failed.
 *
 * What the converter does (correlate/client_constants.ts): a field the
 * client had sent with that same value before the answer that hands it out
 * is the client's constant and is sent as recorded; the same value under
 * another field (`baserevid`, sent with the page's earlier revision before)
 * is still the page's.
 */
import assert from "node:assert/strict";
import { formExchange } from "../support/har_records.ts";
import { convertHar } from "./har_convert.ts";

const ORIGIN = "http://wiki.test";

/** One recorded exchange: a page (HTML) or a form post answered with JSON. */
function entry(method: string, path: string, body: string | undefined, answer: string) {
  return formExchange(method, `${ORIGIN}${path}`, body, answer);
}

/** An editor page whose form holds the revision the edit starts from. */
const editor = (rev: string) =>
  `<form method="post" action="/save"><input type="hidden" value="${rev}" name="editRevId">` +
  `<textarea name="text"></textarea></form>`;

/** Two edits: each opens the editor, stashes through the API (formatversion=2), saves. */
function recording(): string {
  const entries = [];
  for (const [rev, next] of [["1", "2"], ["2", "3"]]) {
    entries.push(entry("GET", "/edit?title=Tides", undefined, editor(rev)));
    entries.push(
      entry("POST", "/api", `action=stash&formatversion=2&baserevid=${rev}`, '{"stash":"ok"}'),
    );
    entries.push(entry("POST", "/save", `editRevId=${rev}&text=t${next}`, `{"rev":${next}}`));
  }
  return JSON.stringify({ log: { version: "1.2", creator: { name: "t", version: "1" }, entries } });
}

Deno.test("convert har: a field the client sent with the same value before a page held it stays the client's constant", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const { flow } = await convertHar(dir, recording());
    const sent = [...flow.matchAll(/^\s+formatversion: (.*)$/gm)].map((m) => m[1]);
    assert.deepEqual(sent, ['"2"', '"2"'], flow);
    // The page's revision is still captured where the client sends it as the page's.
    const base = [...flow.matchAll(/^\s+baserevid: (.*)$/gm)].map((m) => m[1]);
    assert.equal(base.length, 2, flow);
    assert.ok(base.every((b) => b.includes(".capture.")), flow);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
