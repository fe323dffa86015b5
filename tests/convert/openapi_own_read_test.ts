/**
 * `convert openapi`: the read of an item of the signed-in account's own
 * shape takes its id from the login's answer. Found on a Koa API measured
 * by hand: `POST /api/v1/auth/login` answers the user it signs in
 * (`{id, email, username, createdAt, updatedAt}`, a session cookie beside
 * it) and `GET /api/v1/users/{userId}` answers the same properties, yet
 * nothing else makes a user, so the summary asked the user to fill in
 * `userId` (its sample `1`, a user a fresh server may not have). The
 * parameter is the login's answer's `id`: the account the flow signed up
 * and signed in. A read of another shape keeps its placeholder.
 *
 * The stand-in server below answers as that API does, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { answers, body, param, text } from "../support/openapi_doc_parts.ts";

const user = {
  type: "object",
  properties: { id: { type: "integer" }, email: text, username: text, createdAt: text },
};
const credentials = body;

/** Sign-up, a login answering the user, the users' read; a badge's read of another shape. */
function document(): Record<string, unknown> {
  return {
    openapi: "3.0.0",
    info: { title: "Accounts", version: "1" },
    paths: {
      "/auth/register": {
        post: {
          tags: ["Auth"],
          requestBody: credentials({ email: text, username: text, password: text }),
          responses: { "201": { description: "Created" } },
        },
      },
      "/auth/login": {
        post: {
          tags: ["Auth"],
          requestBody: credentials({ email: text, password: text }),
          responses: { ...answers(user), "403": { description: "WRONG_PASSWORD" } },
        },
      },
      "/users/{userId}": {
        get: { tags: ["User"], parameters: param("userId"), responses: answers(user) },
      },
      "/badges/{badgeId}": {
        get: {
          tags: ["Badge"],
          parameters: param("badgeId"),
          responses: answers({
            type: "object",
            properties: { id: { type: "integer" }, label: text },
          }),
        },
      },
    },
  };
}

/** Users from 41 on; a login sets a session cookie and answers the user; badge 1 exists. */
function accounts() {
  const users: { id: number; email: string; username: string; password: string }[] = [];
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    if (req.method === "GET") {
      const found = users.find((u) => pathname === `/users/${u.id}`);
      if (pathname === "/badges/1") return Response.json({ id: 1, label: "first" });
      if (!found) return Response.json({ message: "NOT_FOUND_USER" }, { status: 404 });
      return Response.json({ id: found.id, email: found.email, username: found.username });
    }
    const sent = await req.json();
    if (pathname === "/auth/register") {
      users.push({ ...sent, id: users.length + 41 });
      return new Response(null, { status: 201 });
    }
    const found = users.find((u) => u.email === sent.email && u.password === sent.password);
    if (!found) return Response.json({ message: "WRONG_PASSWORD" }, { status: 403 });
    const headers = { "set-cookie": `sid=s${found.id}; Path=/; HttpOnly` };
    const { password: _, ...shown } = found;
    return Response.json({ ...shown, createdAt: "2026-11-27T00:00:00Z" }, { headers });
  });
}

Deno.test("the read of an item of the account's own shape takes the login's answered id", async () => {
  const { runs, summary } = await convertAndRunSuite(document(), accounts(), { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  assert.match(summary, /\{userId\} of GET \/users\/\{userId\} ← POST \/auth\/login \$\.json\.id/);
  // A badge is no account: its id stays the user's to give.
  assert.match(summary, /badge\.yaml: vars\.badgeId/);
  assert.doesNotMatch(summary, /vars\.userId/);
});
