/**
 * `convert har` on a server-rendered app, as DokuWiki is one
 * (tests/real/dokuwiki_har_test.ts): every request of its own is a page. Its
 * login and its saves are form submissions answering 302, its editor posts
 * a form to an endpoint that answers HTML, and the pages between are what
 * the user opened (the revisions, a difference). Every page was dropped as
 * "HTML document" like the pages of an app with a JSON API, nothing was
 * left, and the conversion failed: "The HAR has no API requests" (exit 2).
 *
 * What the converter does (lib/convert/rendered_app.ts): when nothing else
 * is kept and the page's own site submitted a form, its pages are the
 * journey, each a step, and a note says so. Widened: a recording of pages
 * that never submitted anything still has no API requests, and an app with
 * a JSON API keeps only the pages that take part in its session.
 */
import assert from "node:assert/strict";
import { convertWiki, runWiki, wikiRecording, wikiStandIn } from "./har_rendered_wiki.ts";

/** The parts of a HAR entry the filters read. */
interface Entry {
  request: { method: string };
  response: { status: number };
}

Deno.test("convert har: a server-rendered app's recording (pages and form posts only) becomes one step per page and passes on a fresh instance", async () => {
  const dir = await Deno.makeTempDir();
  const fresh = wikiStandIn();
  try {
    const { converted, flow, flowPath } = await convertWiki(dir, await wikiRecording());
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(converted.stderr, /Converted 9 of 9 HAR entries into 9 steps\./);
    assert.match(converted.stderr, /its pages are the journey \(a server-rendered app\)/);
    assert.match(flow, /do=revisions/);
    const run = await runWiki(flowPath, fresh.origin);
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
    assert.match(run.stdout, /9 steps: 9 passed/);
  } finally {
    await fresh.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: pages that never submitted a form nor followed a link that acts are still no API requests", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const har = JSON.parse(await wikiRecording());
    // Reads only: the log-out link (a query answered with a redirect) acts, as a form does.
    har.log.entries = har.log.entries.filter((e: Entry) =>
      e.request.method === "GET" && e.response.status === 200
    );
    const { converted } = await convertWiki(dir, JSON.stringify(har));
    assert.equal(converted.code, 2, converted.stderr);
    assert.match(
      converted.stderr,
      /The HAR has no API requests: 5 entries, all dropped as HTML document \(5\)\./,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: a form the page's script posts (an XHR answered with HTML) is a submission too", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const har = JSON.parse(await wikiRecording());
    const posts = har.log.entries.filter((e: { request: { method: string } }) =>
      e.request.method === "POST"
    );
    for (const post of posts) post._resourceType = "xhr";
    const { converted } = await convertWiki(dir, JSON.stringify(har));
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(converted.stderr, /into 9 steps\./);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: an app with a JSON API beside its pages keeps only the pages that take part in its session", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const har = JSON.parse(await wikiRecording());
    const last = har.log.entries.at(-1);
    har.log.entries.push({
      ...last,
      request: { ...last.request, method: "GET", url: "http://127.0.0.1:8181/api/pages" },
      response: {
        ...last.response,
        status: 200,
        headers: [{ name: "Content-Type", value: "application/json" }],
        content: { mimeType: "application/json", text: '{"pages":["tides"]}' },
      },
      _resourceType: "fetch",
    });
    const { converted, flow } = await convertWiki(dir, JSON.stringify(har));
    assert.equal(converted.code, 0, converted.stderr);
    assert.doesNotMatch(converted.stderr, /server-rendered app/);
    // The log-out link is an action (it sends back the page's token): kept, its token captured;
    // the revisions and the difference hold that token too, so they are kept with it.
    assert.match(flow, /do=logout&sectok=\$\{steps\.\w+\.capture\.sectok\}/, flow);
    assert.match(flow, /\/api\/pages/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
