/**
 * `convert har` on values a page hands out only in its links, as DokuWiki's
 * pages do (tests/real/dokuwiki_har_test.ts): the revisions page links the
 * difference with an older revision by its timestamp
 * (`<a href="/doku.php?id=…&amp;rev=1795723318&amp;do=diff">`), and every
 * page's logout link carries the session's CSRF token (`&amp;sectok=…`). A
 * page value was a `<meta>`, an input, a `data-` attribute or a script's
 * string, never a link's query: a journey that opened the revisions and the
 * difference without editing first sent the recorded revision (404 on a
 * fresh instance) and the recorded token (403).
 *
 * What the converter does (lib/convert/pages.ts `linkValues`): the query
 * values of a page's own links and forms (`href`, `action`) are page values
 * like its inputs' (a long number is the server's state), captured from the
 * page by a pattern when a later request sends them. Widened: a number
 * and a token; a link to another site is not the page's.
 */
import assert from "node:assert/strict";
import { pageValues } from "../../lib/convert/pages.ts";
import { convertWiki, runWiki, wikiRecording, wikiStandIn } from "./har_rendered_wiki.ts";

Deno.test("convert har: a revision and a token handed out only in links are captured from the page that links them", async () => {
  const dir = await Deno.makeTempDir();
  const fresh = wikiStandIn();
  fresh.wiki.revisions.push("1795000000", "1795000001");
  try {
    const har = JSON.parse(await wikiRecording());
    // Log in, open the revisions, the difference, log out: no editor, no hidden field.
    har.log.entries.splice(2, 4);
    const { converted, flow, flowPath } = await convertWiki(dir, JSON.stringify(har));
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(flow, /rev=\$\{steps\.open_wiki_2\.capture\.rev\}&do=diff/, flow);
    assert.match(flow, /do=logout&sectok=\$\{steps\.open_wiki_2\.capture\.sectok\}/, flow);
    const run = await runWiki(flowPath, fresh.origin);
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
  } finally {
    await fresh.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: a page's link values are its own links' query values, a long number its state", () => {
  const html = '<a href="/w?id=t&amp;rev=1795723318&amp;do=diff">d</a>' +
    "<form action='/w?do=save&token=c9f2a71be04d'></form>" +
    '<a href="https://other.test/share?ref=ab12cd34ef">x</a><a href="/w?page=3">3</a>';
  assert.deepEqual(pageValues(html).map((v) => [v.name, v.value, v.state ?? false]), [
    ["rev", "1795723318", true],
    ["token", "c9f2a71be04d", false],
  ]);
  const rev = pageValues(html)[0];
  assert.equal(
    new RegExp(rev.pattern).exec('<a href="/w?id=t&amp;rev=42424242&amp;x=1">')?.[1],
    "42424242",
  );
});
