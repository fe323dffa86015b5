/**
 * `convert har` on the images a page's stylesheet loads from the app's own
 * host, as qBittorrent's web UI does (`/images/spinner.gif`,
 * `/images/tabs.gif`; tests/real/qbittorrent_har_test.ts): a GIF is a
 * tracking pixel only with the event it reports in its query
 * (`/p.gif?e=view`, Google's `__utm.gif?utmwv=…`); one without is a theme's
 * image, a static asset. The summary filed ten of them as "analytics, though
 * sent with the app's credentials". Widened to the class: a GIF under any
 * path, with and without a query, beside the API call that is kept.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";

Deno.test("convert har: a GIF without a query is a static asset, one with the event in its query a pixel", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-gif-" });
  try {
    const gif = (path: string) => ({ url: `http://127.0.0.1:4242${path}`, mime: "image/gif" });
    const har = JSON.parse(harOf([
      { url: "http://127.0.0.1:4242/api/items", json: { items: [] } },
      gif("/images/spinner.gif"),
      gif("/css/images/tabs.gif"),
      gif("/p.gif?e=view&u=%2Fhome"),
      gif("/__utm.gif?utmwv=5.7.2&utmn=1"),
    ]));
    for (const e of har.log.entries.slice(1)) {
      e.response.content = {
        mimeType: "image/gif",
        size: 43,
        text: "R0lGODlhAQABAAAAACw=",
        encoding: "base64",
      };
    }
    await Deno.writeTextFile(`${dir}/r.har`, JSON.stringify(har));
    const converted = await runCli(["convert", "har", `${dir}/r.har`, "-o", `${dir}/flow.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(converted.stderr, /Converted 1 of 5 HAR entries into 1 steps?\./);
    assert.match(
      converted.stderr,
      /Dropped 4: (?:static asset 2, analytics\/third-party host 2|analytics\/third-party host 2, static asset 2)\./,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
