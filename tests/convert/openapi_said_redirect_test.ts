/**
 * `convert openapi` on an operation whose document names a 2xx and no
 * redirect, while its words say it redirects (httpbin's `GET /cookies/set`:
 * "Sets cookie(s) … and redirects to cookie list.", `200: Redirect to cookie
 * list`). The 200 is the answer at the end of the redirect, as a browser
 * (or Swagger UI) that follows it shows: the step follows redirects. It got
 * the 302, unfollowed, and failed its `status: 200`. An operation whose
 * words say nothing of a redirect still gets the 3xx as its answer: a
 * server that redirects it (to a login page, say) fails its check. The
 * stand-ins run on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const DOCUMENT = {
  openapi: "3.0.3",
  info: { title: "cookies", version: "1" },
  paths: {
    "/cookies/set": {
      get: {
        summary: "Sets cookie(s) as provided by the query string and redirects to cookie list.",
        responses: { 200: { description: "Redirect to cookie list" } },
      },
    },
    "/cookies/drop": {
      get: {
        summary: "Deletes the cookies.",
        responses: { 200: { description: "Redirected to the cookie list." } },
      },
    },
    "/cookies": {
      get: { summary: "Returns the cookies.", responses: { 200: { description: "The cookies." } } },
    },
    "/account": {
      get: { summary: "Returns the account.", responses: { 200: { description: "The account." } } },
    },
  },
};

/** Each path but /cookies and /login redirects there; the landing pages answer 200. */
function standIn(counts: Map<string, number>) {
  return serveStandIn((req) => {
    const path = new URL(req.url).pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    if (path === "/cookies" || path === "/login") return Response.json({ cookies: {} });
    const location = path === "/account" ? "/login" : "/cookies";
    return new Response(null, { status: 302, headers: { location } });
  });
}

Deno.test("convert openapi: a 2xx documented for what the words say redirects is the answer after following it", async () => {
  const counts = new Map<string, number>();
  const { runs: [run], flows } = await convertAndRunSuite(DOCUMENT, standIn(counts));
  const text = [...flows.values()].join("\n");
  assert.equal((text.match(/follow_redirects: true/g) ?? []).length, 2, text);
  assert.match(run.stdout, /get_account[^]*expected 200, got 302/, run.stdout);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  // Only the account failed: the cookie steps followed to the list (twice) and passed.
  assert.equal((run.stdout.match(/expected 200, got/g) ?? []).length, 1, run.stdout);
  assert.equal(counts.get("/cookies"), 3);
  assert.equal(counts.get("/login"), undefined);
});
