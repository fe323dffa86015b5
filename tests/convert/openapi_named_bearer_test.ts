/**
 * `convert openapi` on a document whose writes require `bearerAuth` while
 * nothing declares it: `swagger-jsdoc` route comments write the
 * requirement, the definition that should declare the scheme does not (a
 * course project's Express book API, measured by hand: `POST /api/books`
 * refused 401 in every run). Before, the requirement matched no scheme and
 * no step sent a token. Now a name that says bearer (`bearerAuth`) is an
 * http bearer scheme, which the login's `{token}` serves; a name that says
 * nothing of its kind (`auth`) stays as written. The stand-in is the
 * project's app (openapi_jsdoc_document.ts), its register route mounted.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite } from "../support/openapi_suite.ts";
import { jsdocDocument, jsdocStandIn, type Seen } from "./openapi_jsdoc_document.ts";

Deno.test("convert openapi: an undeclared requirement named bearerAuth sends the login's token", async () => {
  const seen: Seen = [];
  const { runs, summary } = await convertAndRunSuite(
    jsdocDocument("bearerAuth"),
    jsdocStandIn(seen, { register: true }),
  );
  const writes = seen.filter((r) => r.method === "POST" && r.path === "/api/books");
  assert.ok(writes.length > 0, summary + runs[0].stdout);
  for (const write of writes) assert.equal(write.auth, "Bearer t.o.k");
  assert.equal(runs[0].code, 0, runs[0].stdout);
  // The login and the sign-up send none.
  for (const r of seen.filter((r) => r.path.startsWith("/api/auth/"))) assert.equal(r.auth, null);
});

Deno.test("convert openapi: an undeclared requirement whose name says no kind stays unsigned", async () => {
  const seen: Seen = [];
  await convertAndRunSuite(jsdocDocument("auth"), jsdocStandIn(seen, { register: true }));
  const writes = seen.filter((r) => r.method === "POST" && r.path === "/api/books");
  assert.ok(writes.length > 0);
  for (const write of writes) assert.equal(write.auth, null);
});
