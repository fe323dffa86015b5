/**
 * What `convert har` drops of the app's own traffic is named in its summary
 * (issue 38, "Done when"): for the app's hosts, each page, failed request,
 * redirect, excluded request, websocket and credentialed beacon it left out,
 * by method and path (no query: it may hold a code or a signature), grouped by
 * reason, at most 10 named per reason and the rest counted. Static assets,
 * preflights and other sites stay a count.
 *
 * Proven on Formapp and OAuthQL's stored recordings (Playwright and
 * chrome-har) and on a hand-made SPA recording of another shape
 * (`tests/fixtures/har/ledger_dropped.har`: fifteen pages and a redirect, a
 * stream cut off with status 0, a health check dropped by `--exclude-url`, a
 * `text/plain` beacon sent with the session cookie and one without, an
 * invoice preview fetched as an image with the session cookie, a websocket, a
 * preflight, static assets, a chat widget on another site).
 */
import assert from "node:assert/strict";
import { runCli } from "./support/cli.ts";

const APPS = new URL("./apps/", import.meta.url).pathname;
const FIXTURES = new URL("./fixtures/har/", import.meta.url).pathname;

/** The summary's lines naming what was dropped on the app's hosts, in order, and the lines around them. */
async function droppedLines(har: string, ...args: string[]): Promise<string[]> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-dropped-" });
  try {
    const out = await runCli(["convert", "har", har, "-o", `${dir}/flow.yaml`, ...args]);
    assert.equal(out.code, 0, out.stderr);
    const lines = out.stderr.split("\n");
    const from = lines.findIndex((l) => /^Dropped \d+: /.test(l));
    const to = lines.findIndex((l) => l.startsWith("Replaced "));
    assert.ok(from >= 0 && to > from, out.stderr);
    // The named lines come right after the counts, before what was replaced.
    return lines.slice(from + 1, to);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("the summary names the pages and the cut-off long-poll dropped on Formapp's host", async () => {
  const [pw, cdp] = await Promise.all([
    droppedLines(`${APPS}formapp/recordings/journey.pw.har`),
    droppedLines(`${APPS}formapp/recordings/journey.cdp.har`),
  ]);
  assert.deepEqual(pw, [
    "Dropped as HTML document on the app's hosts (1): GET /login.",
    "Dropped as failed (no HTTP status) on the app's hosts (1): GET /api/workspaces/ws_f8b072c2e8/changes.",
  ]);
  // chrome-har leaves the cut-off long-poll out; its preflight went to the telemetry host.
  assert.deepEqual(cdp, ["Dropped as HTML document on the app's hosts (1): GET /login."]);
});

Deno.test("the summary names OAuthQL's dropped pages with their origins: the app is on two hosts", async () => {
  const [pw, cdp] = await Promise.all([
    droppedLines(`${APPS}oauthql/recordings/journey.pw.har`),
    droppedLines(`${APPS}oauthql/recordings/journey.cdp.har`),
  ]);
  const expected = [
    "Dropped as HTML document on the app's hosts (2): GET http://127.0.0.1:8711/, GET http://127.0.0.1:8711/callback.",
  ];
  // The callback's `code` and `state` are in its query, which is never shown.
  assert.deepEqual(pw, expected);
  assert.deepEqual(cdp, expected);
});

Deno.test("every reason a request of the app's own hosts was dropped for is named; at most 10 per reason", async () => {
  const lines = await droppedLines(
    `${FIXTURES}ledger_dropped.har`,
    "--exclude-url",
    "/api/health",
  );
  assert.deepEqual(lines, [
    "Dropped as HTML document on the app's hosts (15): GET /, GET /old-invoices, GET /invoices ×3, GET /customers, GET /settings, GET /settings/billing, GET /settings/team, GET /help, GET /reports, GET /reports/2025, and 3 more.",
    "Dropped as analytics, though sent with the app's credentials, on the app's hosts (1): POST /api/track.",
    "Dropped by --exclude-url on the app's hosts (1): GET /api/health.",
    "Dropped as failed (no HTTP status) on the app's hosts (1): GET /api/invoices/stream.",
    "Dropped as static asset, though fetched with the app's credentials, on the app's hosts (1): GET /api/invoices/inv_9c2a77e1/preview.",
    "Dropped as websocket on the app's hosts (1): GET /live.",
  ]);
});
