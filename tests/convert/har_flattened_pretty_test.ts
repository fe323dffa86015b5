/**
 * `convert har` on chrome-har's recording of a JSON body the page sent pretty-printed
 * (TiddlyWiki 5.3.6 saves each tiddler with `JSON.stringify(fields, null, 4)`; by hand in
 * docs/real-servers-har.md). chrome-har keeps the body only as name/value pairs, and the body
 * rebuilt from them is the compact text: 40 bytes short of what the browser sent, all of it
 * indentation. The summary said a JSON list was lost and asked to check the step's body, for
 * every save of the journey, though nothing was. The same members written with the indent the
 * page used give the size sent: nothing is lost, and nothing is said.
 */
import assert from "node:assert/strict";
import { convertHarText } from "../support/cli.ts";
import { chromeHarEntry } from "../support/har_records.ts";

const SENT = { title: "Harbour notes", text: "Crates leave at noon.", fields: { list: "a b" } };

for (const indent of [2, 4, "\t"]) {
  Deno.test(`convert har: a JSON body the page pretty-printed (indent ${JSON.stringify(indent)}) and chrome-har kept as pairs is not reported as a lost list`, async () => {
    const entry = chromeHarEntry("PUT", "http://127.0.0.1:8080/tiddlers/x", { ok: true }, SENT);
    entry.request.bodySize = JSON.stringify(SENT, null, indent).length;
    const har = { log: { version: "1.2", creator: { name: "chrome-har" }, entries: [entry] } };
    const { flow, summary } = await convertHarText(JSON.stringify(har));
    assert.doesNotMatch(summary, /lose JSON lists/, summary);
    assert.match(flow, /title: Harbour notes/, flow);
  });
}

Deno.test("convert har: a pretty-printed body that is still short of the size sent is reported", async () => {
  const entry = chromeHarEntry("PUT", "http://127.0.0.1:8080/tiddlers/x", { ok: true }, SENT);
  entry.request.bodySize = JSON.stringify(SENT, null, 4).length + 3;
  const har = { log: { version: "1.2", creator: { name: "chrome-har" }, entries: [entry] } };
  const { summary } = await convertHarText(JSON.stringify(har));
  assert.match(summary, /lose JSON lists/, summary);
});
