/**
 * `convert openapi`: a POST whose answer the document does not describe is
 * searched at run time for the item its collection's paths address
 * (`undescribed_answer.ts`), unless its own words say it is the same
 * operation as the one at the item's path: httpbin's `/anything` and
 * `/anything/{anything}` are one handler for every method, each "Returns
 * anything passed in request data.", and the POST's answer (an echo of the
 * request) holds no `anything`, so every operation at `/anything/{anything}`
 * waited for a capture that never came and was never sent (5 of 78 lost,
 * measured by hand on httpbin 0.9.2 and 0.7.0, docs/real-servers.md).
 * One summary on both paths says there is no item to make: the parameter is
 * the document's to fill, as any other it gives no producer for, and the
 * stand-in answers every method at both paths, as httpbin does. A create
 * whose words differ from its item's ("Create a note", "Read a note") is
 * still searched (tests/convert/openapi_undescribed_answer_test.ts).
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const echo = (summary: string) => ({ summary, responses: { "200": { description: "Echo" } } });

function document(words: (method: string, item: boolean) => string): Record<string, unknown> {
  const at = (item: boolean) =>
    Object.fromEntries(
      ["get", "post", "put", "delete"].map((m) => [m, { tags: ["Echo"], ...echo(words(m, item)) }]),
    );
  return {
    openapi: "3.0.3",
    info: { title: "Echo", version: "1" },
    paths: {
      "/anything": at(false),
      "/anything/{anything}": {
        parameters: [{ name: "anything", in: "path", required: true, schema: { type: "string" } }],
        ...at(true),
      },
    },
  };
}

/** Echoes what it was sent under `/anything`, for every method; the paths it answered. */
function startServer() {
  const seen: string[] = [];
  const stand = serveStandIn(async (req) => {
    const url = new URL(req.url);
    seen.push(`${req.method} ${url.pathname.replace(/^\/anything\/.+$/, "/anything/{anything}")}`);
    if (!/^\/anything(\/.+)?$/.test(url.pathname)) return new Response(null, { status: 404 });
    return Response.json({ method: req.method, url: req.url, data: await req.text() });
  });
  return { ...stand, seen };
}

Deno.test("convert openapi: a POST that is one handler with its item path (one summary for both) is no create to search the answer of", async () => {
  const server = startServer();
  const one = "Returns anything passed in request data.";
  const { runs, summary } = await convertAndRunSuite(document(() => one), server);
  assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr);
  for (const method of ["GET", "POST", "PUT", "DELETE"]) {
    assert.ok(server.seen.includes(`${method} /anything/{anything}`), `${method}: ${server.seen}`);
  }
  assert.doesNotMatch(summary, /\{anything\} of .* ← POST \/anything/);
});

Deno.test("convert openapi: a create whose words differ from its item's is still searched for the item", async () => {
  const server = startServer();
  const said = (m: string, item: boolean) => `${m} ${item ? "one thing" : "things"}`;
  const { summary } = await convertAndRunSuite(document(said), server);
  assert.match(summary, /\{anything\} of GET \/anything\/\{anything\} ← POST \/anything/);
});
