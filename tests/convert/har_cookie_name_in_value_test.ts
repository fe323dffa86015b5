/**
 * `convert har` on a login cookie whose NAME holds the instance's project code, which the server
 * also writes inside the cookie's own VALUE, as Fossil's web UI does (measured by hand,
 * docs/real-servers-har.md): the login sets `fossil-<16 hex digits of the project code>` =
 * `<hash>/<project code>/<user>`. A fresh instance has another code, so another name: the capture
 * `{cookie: fossil-84ed909103a16e91}` failed the login there ("the response sets no cookie") and
 * every later step was skipped; the code, a piece of the secret value, was also masked inside the
 * `Cookie` header's name (`fossil-***=…`), so the name sent was no cookie's at all.
 *
 * What the converter does (lib/convert/correlate/cookie_names.ts): a piece of the name of
 * letters and digits mixed (no word spells one) that the server wrote into the same cookie's
 * value too is the instance's, by that evidence, not by the name's look; the cookie and the
 * piece are read from the fresh `Set-Cookie` by a pattern. Widened: a name of words whose word
 * the value repeats (`tracker_login=…login…`) stays a capture by its name.
 */
import assert from "node:assert/strict";
import { convertThenRun, trackerRecording, trackerStandIn } from "./har_tracker.ts";

Deno.test("convert har: a cookie named for a code its own value holds is read by a pattern and passes on another instance", async () => {
  const dir = await Deno.makeTempDir();
  const fresh = trackerStandIn({ namedByCode: true, echoes: false });
  try {
    const har = trackerRecording({ namedByCode: true, echoes: false });
    const { converted, flow, run } = await convertThenRun(dir, har, fresh.origin);
    assert.equal(converted.code, 0, converted.stderr);
    assert.ok(!flow.includes("{ cookie: tracker-84ed909103a16e91 }"), flow);
    assert.ok(!flow.includes("tracker-***"), flow);
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
    assert.deepEqual(fresh.saved, ["Backups at 4am"]);
  } finally {
    await fresh.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: a cookie named in words is captured by its name, though its value repeats a word", async () => {
  const dir = await Deno.makeTempDir();
  const fresh = trackerStandIn({ namedByCode: false, echoes: false });
  try {
    const har = trackerRecording({ namedByCode: false, echoes: false })
      .replaceAll("%2Fadmin", "%2Flogin");
    const { converted, flow, run } = await convertThenRun(dir, har, fresh.origin);
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(flow, /\{ cookie: tracker_login \}/, flow);
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
  } finally {
    await fresh.close();
    await Deno.remove(dir, { recursive: true });
  }
});
