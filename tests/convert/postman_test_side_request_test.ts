/**
 * `pm.test("when GET detail", () => { pm.sendRequest(url, (error, response) => { pm.test(…,
 * () => pm.expect(response.code).to.equal(404)) }) })` in a TEST script: Newman sends the
 * request after the response the script reads, then runs the callback's tests. Two course
 * collections read back what an edit or a delete did this way; it stayed a comment, so the
 * request was not sent and its checks were lost. It is now a step just after, the callback its
 * test script (its response parameter `pm.response`). A small server deletes a book.
 */
import assert from "node:assert/strict";
import { runWithEnvironment } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

Deno.test("postman sendRequest in a test script: a step just after, its callback's checks on its answer", async () => {
  const seen: string[] = [];
  let deleted = false;
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push(`${req.method} ${new URL(req.url).pathname}`);
    if (req.method === "DELETE") deleted = true;
    return Response.json({ ok: true }, { status: req.method === "GET" && deleted ? 404 : 200 });
  });
  const test = [
    "pm.test('deleted', () => pm.response.to.have.status(200));",
    "pm.test('when get detail books', () => {",
    "  pm.sendRequest(`http://127.0.0.1:${pm.environment.get('port')}/books/b-1`, (error, response) => {",
    "    if (!error) {",
    "      pm.test('The book should be not found', () => {",
    "        pm.expect(response.code).to.equals(404);",
    "      });",
    "    }",
    "  });",
    "});",
  ];
  // The environment's, as `pm.environment.get` reads them (a collection variable would read
  // `undefined` there, as in Newman).
  const { flow, run, report } = await runWithEnvironment(
    {
      info: { name: "Readback", schema: V21 },
      item: [
        {
          name: "Delete Book",
          event: [{ listen: "test", script: { exec: test } }],
          request: { method: "DELETE", url: "http://127.0.0.1:{{port}}/books/b-1", header: [] },
        },
        { name: "List", request: { method: "GET", url: "http://127.0.0.1:{{port}}/books" } },
      ],
    },
    { port: String(server.addr.port) },
  );
  assert.doesNotMatch(flow.text, /# untranslated/, flow.text);
  assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
  assert.deepEqual(seen, ["DELETE /books/b-1", "GET /books/b-1", "GET /books"]);
  const names = (report.flows[0].steps as { assertions: { name?: string }[] }[])
    .flatMap((s) => s.assertions.map((a) => a.name));
  assert.ok(names.includes("The book should be not found"), JSON.stringify(names));
});
