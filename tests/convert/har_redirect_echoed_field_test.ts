/**
 * `convert har` on a redirect whose query echoes the fields the form just sent, as Fossil's
 * new-wiki-page form does (measured by hand, docs/real-servers-har.md): `POST /wikinew` sends
 * `name=OpsNotes&mimetype=text/x-markdown` and answers 302 to
 * `/wikiedit?name=OpsNotes&mimetype=text/x-markdown`. The redirect's `text/x-markdown` was taken
 * for a value the server handed out and, shaped like no word, for a secret: the flow asked the
 * user for `RECORDED_SECRET` in place of the markup's type the page's editor sends with the save.
 *
 * What the converter does (lib/convert/correlate/producers.ts): a redirect's query value that
 * the same request sent under the same name is the client's own, by that evidence: neither a
 * capture nor a secret, sent as recorded. Widened: a value the redirect hands out that the
 * request did not send (the ticket's id in its path) is still captured.
 */
import assert from "node:assert/strict";
import { convertThenRun, trackerRecording, trackerStandIn } from "./har_tracker.ts";

Deno.test("convert har: a redirect that echoes the form's own fields asks for no secret and passes", async () => {
  const dir = await Deno.makeTempDir();
  const fresh = trackerStandIn({ namedByCode: false, echoes: true });
  try {
    const har = trackerRecording({ namedByCode: false, echoes: true });
    const { converted, flow, run } = await convertThenRun(dir, har, fresh.origin);
    assert.equal(converted.code, 0, converted.stderr);
    assert.ok(!flow.includes("RECORDED_SECRET"), flow);
    assert.match(flow, /mimetype: text\/x-markdown/, flow);
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
    assert.deepEqual(fresh.saved, ["Backups at 4am"]);
  } finally {
    await fresh.close();
    await Deno.remove(dir, { recursive: true });
  }
});
