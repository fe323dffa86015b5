/**
 * The one live browser test of `convert har`, and not for the conversion:
 * tests/convert/taskboard_test.ts converts and replays Taskboard's stored
 * recordings without a browser. What a stored recording cannot show is
 * whether it is still what the app and Chromium make today: this test
 * clicks through the current Taskboard with the recorder's own journey
 * (tests/apps/taskboard/record.ts) in headless Chromium, recorded both ways,
 * and checks that each recording reaches the same API endpoints (method and
 * path, ids left out) as the stored one of its producer. When the app gained
 * a feature or the journey changed without a re-recording, it fails and says
 * to run `deno task record:apps taskboard`. One session, no conversion.
 */
import assert from "node:assert/strict";
import { ignoreBrowser, whyBrowserIgnored } from "../support/browser.ts";
import { recordSession } from "../support/record_har.ts";
import { startTaskboard } from "../support/taskboard_app.ts";
import { journey } from "../apps/taskboard/record.ts";

const RECORDINGS = new URL("../apps/taskboard/recordings/", import.meta.url);

/** `METHOD /path` of each API or download request to the app, ids as `:id`, sorted, once each. */
function endpoints(har: string, appPort: string): string[] {
  const out = new Set<string>();
  for (const entry of JSON.parse(har).log.entries) {
    const url = new URL(entry.request.url);
    if (url.port !== appPort || !/^\/(api|downloads)\//.test(url.pathname)) continue;
    const path = url.pathname.split("/").map((s) => /\d/.test(s) ? ":id" : s).join("/");
    out.add(`${entry.request.method} ${path}`);
  }
  return [...out].sort();
}

Deno.test({
  name:
    `Taskboard's stored recordings are what the current app and Chromium record${whyBrowserIgnored}`,
  ignore: ignoreBrowser,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const app = await startTaskboard();
    let live;
    try {
      live = await recordSession((page) => journey(page, app.origin, app.user.email));
    } finally {
      await app.close();
    }
    const port = new URL(app.origin).port;
    for (
      const [name, now] of [["session.pw.har", live.playwright], [
        "session.cdp.har",
        live.chromeHar,
      ]]
    ) {
      const stored = await Deno.readTextFile(new URL(name, RECORDINGS));
      const storedPort = String(new URL(JSON.parse(stored).log.entries[0].request.url).port);
      assert.deepEqual(
        endpoints(now, port),
        endpoints(stored, storedPort),
        `${name} is not what the app records today: re-record with \`deno task record:apps taskboard\``,
      );
    }
  },
});
