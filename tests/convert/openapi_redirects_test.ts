/**
 * `convert openapi` on operations whose document names a redirect as their
 * one answer (httpbin's `GET /redirect/{n}`: `302: A redirection.`, and no
 * 2xx). flowrun does not follow a redirect unless a step asks, so the 3xx
 * is the response the document describes: the step checks it. It was
 * left unchecked ("the document names no 2xx response"), so a server that
 * answered 200, or 404, passed as well. The stand-ins run on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const DOCUMENT = {
  openapi: "3.0.3",
  info: { title: "redirects", version: "1" },
  paths: {
    "/redirect/{n}": {
      get: {
        parameters: [{ name: "n", in: "path", required: true, schema: { type: "integer" } }],
        responses: { 302: { description: "A redirection." } },
      },
    },
    "/moved": {
      get: {
        responses: {
          301: { description: "Moved for good." },
          308: { description: "Moved, method kept." },
          404: { description: "Nothing there." },
        },
      },
    },
  },
};

/** A stand-in that redirects as documented, or answers `status` to every request. */
function standIn(status?: number) {
  return serveStandIn((req) => {
    if (status) return new Response("", { status });
    const path = new URL(req.url).pathname;
    const code = path === "/moved" ? 308 : 302;
    return new Response(null, { status: code, headers: { location: "/get" } });
  });
}

Deno.test("convert openapi: an operation that documents only a redirect checks it, unfollowed", async () => {
  const { runs: [run], flows } = await convertAndRunSuite(DOCUMENT, standIn());
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const text = [...flows.values()].join("\n");
  assert.match(text, /status: 302/);
  assert.match(text, /anyOf:\s*\n?\s*- 301\s*\n\s*- 308|anyOf: \[301, 308\]/);
  assert.doesNotMatch(text, /follow_redirects/);
});

Deno.test("convert openapi: a server that answers 200 or 404 where the document says 302 fails the step", async () => {
  for (const status of [200, 404]) {
    const { runs: [run] } = await convertAndRunSuite(DOCUMENT, standIn(status));
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, new RegExp(`expected 302, got ${status}`));
  }
});
