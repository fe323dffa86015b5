/**
 * `convert openapi`: a login whose token already carries its scheme. Found
 * on a Koa API measured by hand (deals between users, passport-jwt): its
 * `POST /api/login` answers `{token: "Bearer eyJ…"}` (a common passport
 * tutorial's shape) and documents no answer schema. The suite read the
 * whole text as the token and sent `Authorization: Bearer Bearer eyJ…`,
 * so every operation behind the login answered 401. The answer's own text
 * says the scheme: the token is what follows it, whatever member holds it
 * and however the scheme word is cased.
 *
 * The stand-in server below answers as that API does, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ "application/json": { schema } });
const text = { type: "string" };
const account = {
  type: "object",
  required: ["email", "password"],
  properties: { email: text, password: { type: "string", format: "password" } },
};
const ok = { "200": { description: "OK" } };
const bearer = [{ bearerAuth: [] }];

/** A sign-up, a login whose answer is undescribed, and notes behind a bearer token. */
function document(): Record<string, unknown> {
  return {
    openapi: "3.0.1",
    info: { title: "Notes", version: "1" },
    paths: {
      "/api/user": {
        post: { requestBody: { required: true, content: json(account) }, responses: ok },
      },
      "/api/login": {
        post: { requestBody: { required: true, content: json(account) }, responses: ok },
      },
      "/api/me": { get: { security: bearer, responses: ok } },
      "/api/note": { get: { security: bearer, responses: ok } },
    },
    components: { securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } } },
  };
}

/** Accounts; a login answers `{[member]: "<scheme> <token>"}`; the rest want `Bearer <token>`. */
function notes(member: string, scheme: string) {
  const users: { email: string; password: string }[] = [];
  const tokens = new Set<string>();
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    if (req.method === "GET") {
      const sent = /^Bearer (\S+)$/.exec(req.headers.get("authorization") ?? "")?.[1];
      if (!tokens.has(sent ?? "")) return Response.json({ error: "Unauthorized" }, { status: 401 });
      return Response.json(pathname === "/api/me" ? { id: 1 } : []);
    }
    const sent = await req.json();
    if (pathname === "/api/user") {
      users.push(sent);
      return Response.json({ id: users.length, email: sent.email });
    }
    const found = users.find((u) => u.email === sent.email && u.password === sent.password);
    if (!found) return Response.json({ error: "Bad credentials" }, { status: 422 });
    const token = crypto.randomUUID().replaceAll("-", "");
    tokens.add(token);
    return Response.json({ [member]: `${scheme} ${token}` });
  });
}

for (const [member, scheme] of [["token", "Bearer"], ["access_token", "bearer"]]) {
  Deno.test(`a login answering {${member}: "${scheme} …"} signs the suite in with the token alone`, async () => {
    const { runs, summary } = await convertAndRunSuite(document(), notes(member, scheme), {
      runs: 2,
    });
    for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
    assert.match(summary, /BASE_URL/);
  });
}
