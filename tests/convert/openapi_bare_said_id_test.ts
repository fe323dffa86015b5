/**
 * `convert openapi`: a body property whose whole description is the noun
 * it identifies ("User ID", "Category identifier."). Found on a Koa API
 * measured by hand (deals between users): `POST /api/deal` requires
 * `receiver`, an integer described "User ID", and the users' create
 * (the sign-up) answers `{id}`. The body sent the literal `1`, a user only
 * on a fresh server's first run (on a second run the deal went to another
 * account, and what that account alone may do was refused). The
 * description names the noun as plainly as "the user ID" does: the value
 * is read from the create of that noun.
 *
 * The stand-in server below answers as such an API does, on 127.0.0.1;
 * its ids do not start at 1, so a literal names nothing.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ "application/json": { schema } });
const text = { type: "string" };
const ok = { "200": { description: "OK" } };
const made = {
  "200": {
    description: "OK",
    content: json({ type: "object", properties: { id: { type: "integer" }, name: text } }),
  },
};

/** Users and categories made by POST; a deal names one of each by a bare description. */
function document(): Record<string, unknown> {
  const named = { type: "object", required: ["name"], properties: { name: text } };
  return {
    openapi: "3.0.1",
    info: { title: "Deals", version: "1" },
    paths: {
      "/api/user": { post: { requestBody: { content: json(named) }, responses: made } },
      "/api/category": { post: { requestBody: { content: json(named) }, responses: made } },
      "/api/deal": {
        post: {
          requestBody: {
            content: json({
              type: "object",
              required: ["receiver", "group", "price"],
              properties: {
                receiver: { type: "integer", description: "User ID" },
                group: { type: "integer", description: "Category identifier." },
                price: { type: "number" },
              },
            }),
          },
          responses: ok,
        },
      },
    },
  };
}

/** Ids from 1000 up; a deal naming a user or category that does not exist is refused (404). */
function deals() {
  const made = { "/api/user": new Set<number>(), "/api/category": new Set<number>() };
  let next = 1000;
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const sent = await req.json();
    if (pathname === "/api/user" || pathname === "/api/category") {
      made[pathname].add(++next);
      return Response.json({ id: next, name: sent.name });
    }
    const known = made["/api/user"].has(sent.receiver) && made["/api/category"].has(sent.group);
    return known ? Response.json({ id: ++next }) : Response.json({}, { status: 404 });
  });
}

Deno.test("a body id described by its noun alone is read from that noun's create", async () => {
  const { runs, summary } = await convertAndRunSuite(document(), deals(), { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  assert.match(summary, /receiver.*POST \/api\/user/);
  assert.match(summary, /group.*POST \/api\/category/);
});
