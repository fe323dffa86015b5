/**
 * `convert openapi` on a document describing two creates that take the
 * login's credentials, the first of which the server does not serve:
 * `swagger-jsdoc` documents a register route the project's app never
 * mounts (404), beside `POST /api/users` (a course project's Express book
 * API, measured by hand). Before, the suite signed up by the register
 * alone, the login was refused and every step its token serves failed.
 * Now the other create signs up after it, run only when the first was
 * refused; where the first signs up, the second is skipped (never a second
 * account of the same name), but its own flow still sends it, with that
 * flow's own account: an operation never sent counts against the suite. The stand-in is the project's app
 * (openapi_jsdoc_document.ts).
 */
import assert from "node:assert/strict";
import { convertAndRunSuite } from "../support/openapi_suite.ts";
import { jsdocDocument, jsdocStandIn, type Seen } from "./openapi_jsdoc_document.ts";

Deno.test("convert openapi: a register the server does not serve falls back to the other sign-up", async () => {
  const seen: Seen = [];
  const { runs, summary, flows } = await convertAndRunSuite(
    jsdocDocument(),
    jsdocStandIn(seen, { register: false }),
  );
  const out = summary + runs[0].stdout;
  // Each sign-up by the register is refused 404; the second makes the account, the login passes.
  const signedIn = seen.filter((r) => r.method === "POST" && r.path === "/api/books");
  assert.ok(signedIn.length > 0, out);
  for (const write of signedIn) assert.equal(write.auth, "Bearer t.o.k", out);
  assert.match(runs[0].stdout, /post_api_auth_register: status: expected 200, got 404/, out);
  // The run's own account: no literal credential in any flow.
  assert.doesNotMatch([...flows.values()].join("\n"), /password: (?!\$\{)/);
});

Deno.test("convert openapi: where the register signs up, the second sign-up is skipped", async () => {
  const seen: Seen = [];
  const { runs } = await convertAndRunSuite(
    jsdocDocument(),
    jsdocStandIn(seen, { register: true }),
  );
  // Every flow passes: no account made twice (400); the second sign-up sent nowhere it serves
  // the login, but still once in its own flow (its own account), so no operation goes unsent.
  assert.equal(runs[0].code, 0, runs[0].stdout);
  const users = seen.filter((r) => r.method === "POST" && r.path === "/api/users");
  assert.equal(users.length, 1, runs[0].stdout);
  assert.doesNotMatch(runs[0].stdout, /not exercised/, runs[0].stdout);
});
