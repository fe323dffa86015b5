/**
 * `convert openapi`: a collection nested under the signed-in account's own
 * item (`/members/{memberId}/shelves` beside `/members/{id}`, which answers
 * what the sign-up answers) is addressed with the account's id, read from
 * the sign-up's answer, not with a listing's first member. Found on a NestJS
 * Trello-like API measured by hand (`/users/{userId}/columns`, 403 for any
 * user but the caller): the flow took `{userId}` from `GET /users`' first
 * entry, the run's own account only on a fresh database; on the second run
 * it was the first run's, every create under it was refused 403 and the
 * cards and comments made from it were skipped (5 of 21 operations
 * accepted, 20 on the first run).
 *
 * The stand-in server below refuses 403 a write or read under any member
 * but the token's, and lists members oldest first, as that API does.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { answers, body, json, param, text } from "../support/openapi_doc_parts.ts";

const member = {
  type: "object",
  properties: { id: { type: "integer" }, email: text, joined: text },
};
const shelf = { type: "object", properties: { id: { type: "integer" }, label: text } };
const bearer = [{ jwt: [] }];

/** Sign-up answering the member, a login answering a token, members, shelves under a member. */
function document(): Record<string, unknown> {
  const credentials = { email: text, password: { type: "string", minLength: 12 } };
  return {
    openapi: "3.0.0",
    info: { title: "Shelves", version: "1" },
    components: { securitySchemes: { jwt: { type: "http", scheme: "bearer" } } },
    paths: {
      "/auth/register": {
        post: {
          requestBody: body(credentials),
          responses: { "201": { description: "Registered", content: json(member) } },
        },
      },
      "/auth/login": {
        post: {
          requestBody: body(credentials),
          responses: {
            "201": {
              description: "Signed in",
              content: json({ type: "object", properties: { accessToken: text } }),
            },
          },
        },
      },
      "/members": {
        get: { security: bearer, responses: answers({ type: "array", items: member }) },
      },
      "/members/{id}": {
        get: { security: bearer, parameters: param("id"), responses: answers(member) },
      },
      "/members/{memberId}/shelves": {
        post: {
          security: bearer,
          parameters: param("memberId"),
          requestBody: body({ label: text }),
          responses: { "201": { description: "Made", content: json(shelf) } },
        },
        get: {
          security: bearer,
          parameters: param("memberId"),
          responses: answers({ type: "array", items: shelf }),
        },
      },
      "/shelves/{id}": {
        get: { security: bearer, parameters: param("id"), responses: answers(shelf) },
      },
    },
  };
}

/** Members from 7 on, listed oldest first; a token `t<id>`; shelves kept per member. */
function library() {
  const members: { id: number; email: string; password: string }[] = [];
  const shelves: { id: number; label: string; owner: number }[] = [];
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const shown = (m: { id: number; email: string }) => ({ id: m.id, email: m.email, joined: "x" });
    if (pathname === "/auth/register") {
      const sent = await req.json();
      members.push({ ...sent, id: members.length + 7 });
      return Response.json(shown(members.at(-1)!), { status: 201 });
    }
    if (pathname === "/auth/login") {
      const sent = await req.json();
      const found = members.find((m) => m.email === sent.email && m.password === sent.password);
      if (!found) return Response.json({ message: "Unauthorized" }, { status: 401 });
      return Response.json({ accessToken: `t${found.id}` }, { status: 201 });
    }
    const caller = Number((req.headers.get("authorization") ?? "").replace(/^Bearer t/, ""));
    if (!members.some((m) => m.id === caller)) return Response.json({}, { status: 401 });
    if (pathname === "/members") return Response.json(members.map(shown));
    const one = /^\/members\/(\d+)$/.exec(pathname);
    if (one) {
      const found = members.find((m) => m.id === Number(one[1]));
      return found ? Response.json(shown(found)) : Response.json({}, { status: 404 });
    }
    const under = /^\/members\/(\d+)\/shelves$/.exec(pathname);
    if (under) {
      if (Number(under[1]) !== caller) {
        return Response.json({ message: "Forbidden" }, { status: 403 });
      }
      if (req.method === "GET") return Response.json(shelves.filter((s) => s.owner === caller));
      const sent = await req.json();
      shelves.push({ id: shelves.length + 1, label: sent.label, owner: caller });
      return Response.json(shelves.at(-1), { status: 201 });
    }
    const item = shelves.find((s) => pathname === `/shelves/${s.id}` && s.owner === caller);
    return item ? Response.json(item) : Response.json({}, { status: 404 });
  });
}

Deno.test("a collection under the account's own item is addressed with the account's id", async () => {
  const { runs, summary } = await convertAndRunSuite(document(), library(), { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  assert.match(
    summary,
    /\{memberId\} of POST \/members\/\{memberId\}\/shelves ← POST \/auth\/register \$\.json\.id/,
  );
  assert.doesNotMatch(summary, /\{memberId\}[^\n]*first of its listing/);
});
