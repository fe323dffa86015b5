/**
 * `convert har` on a cookie-session app that refuses a write without a `Referer` of its own, as
 * Fossil's web UI does (measured by hand, docs/real-servers-har.md): without a `Referer` that
 * starts with the repository's base URL the request is not "CSRF safe", and the ticket's
 * submit answered 400 `Database error: not authorized: {INSERT INTO rcvfrom…}`. The browser
 * sent one on every form post; the converter dropped it as browser noise, so the flow failed
 * at the first write on any instance.
 *
 * What the converter does (lib/convert/correlate/referer_header.ts): on an unsafe request
 * that sends a cookie (the credential such a check guards), a `Referer` on an origin of the
 * recording's API is sent on the base URL var, as `Origin` is (origin_header.ts); its path is
 * kept unless a segment of it is a value an answer handed out or a secret (a recorded id
 * names nothing on another instance: the base URL's root is sent then). Widened: a GET keeps
 * dropping it, and so does a request whose page is on another site.
 */
import assert from "node:assert/strict";
import { convertThenRun, trackerRecording, trackerStandIn } from "./har_tracker.ts";

Deno.test("convert har: a form post keeps the browser's Referer on the base URL and passes where writes need it", async () => {
  const dir = await Deno.makeTempDir();
  const shape = { namedByCode: false, echoes: false, checksReferer: true };
  const fresh = trackerStandIn(shape);
  try {
    const { converted, flow, run } = await convertThenRun(
      dir,
      trackerRecording(shape),
      fresh.origin,
    );
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(flow, /referer: \$\{origin:vars\.base_url\}\/tktnew/, flow);
    assert.ok(!/referer: http/.test(flow), flow);
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
    assert.deepEqual(fresh.saved, ["Backups at 4am"]);
  } finally {
    await fresh.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: a Referer on a GET, or from another site's page, stays dropped", async () => {
  const dir = await Deno.makeTempDir();
  const shape = { namedByCode: false, echoes: false };
  const fresh = trackerStandIn(shape);
  try {
    const har = trackerRecording(shape).replace(
      '"Referer","value":"http://127.0.0.1:8080/tktnew"',
      '"Referer","value":"https://search.example/results?q=tracker"',
    ).replace(
      '"url":"http://127.0.0.1:8080/tktnew","headers":[',
      '"url":"http://127.0.0.1:8080/tktnew","headers":[{"name":"Referer","value":"http://127.0.0.1:8080/"},',
    );
    const { converted, flow, run } = await convertThenRun(dir, har, fresh.origin);
    assert.equal(converted.code, 0, converted.stderr);
    assert.equal(flow.match(/referer:/g)?.length, 2, flow);
    assert.ok(!flow.includes("search.example"), flow);
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
  } finally {
    await fresh.close();
    await Deno.remove(dir, { recursive: true });
  }
});
