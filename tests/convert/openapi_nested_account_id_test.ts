/**
 * `convert openapi`: the account's id that the login answers inside the
 * object it names the account by (`{token, user: {id, name, email}}`) fills
 * `/users/{id}`. Found on an Express recipes API measured by hand: its
 * document describes both the sign-up's and the login's answer as
 * `{token, user: User}`, and `GET /users/{id}` as the user's members and two
 * counts. Only the answer's top level was searched for the id, so the
 * converter fell back on the `sub` claim of the JWT, which that server never
 * writes (its token holds `{id}`): the capture failed and five steps under
 * `/users/{id}` were skipped. The member holding the id is taken only where
 * it also holds every field the login or sign-up sends but the password:
 * the account it describes, not any object beside a token.
 *
 * The stand-in server below issues JWTs without `sub`, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { answers, body, json, text } from "../support/openapi_doc_parts.ts";

const uuid = { type: "string", format: "uuid" };
const account = { type: "object", properties: { id: uuid, name: text, email: text } };
const detail = {
  type: "object",
  properties: { ...account.properties, followersCount: { type: "integer" } },
};
const idParam = [{ name: "id", in: "path", required: true, schema: text }];

/** Sign-up and login answering `{token, <member>: …}`, then the users' read and their followers. */
function document(member: Record<string, unknown>): Record<string, unknown> {
  const signedIn = { type: "object", properties: { token: text, user: member } };
  return {
    openapi: "3.0.0",
    info: { title: "Recipes", version: "1" },
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
    },
    paths: {
      "/auth/register": {
        post: {
          requestBody: body({ name: text, email: text, password: text }),
          responses: { "201": { description: "Created", content: json(signedIn) } },
        },
      },
      "/auth/login": {
        post: {
          requestBody: body({ email: text, password: text }),
          responses: answers(signedIn),
        },
      },
      "/users/{id}": { get: { parameters: idParam, responses: answers(detail) } },
      "/users/{id}/followers": {
        get: {
          security: [{ bearer: [] }],
          parameters: idParam,
          responses: answers({ type: "array", items: account }),
        },
      },
    },
  };
}

const part = (o: object) =>
  btoa(JSON.stringify(o)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");

/** Users by uuid; the token names the user as `{id}`, not `sub`; an unknown user is 404. */
function recipes() {
  const users: { id: string; name: string; email: string; password: string }[] = [];
  const read: string[] = [];
  const jwt = (id: string) => `${part({ alg: "HS256", typ: "JWT" })}.${part({ id })}.c2ln`;
  const shown = (u: (typeof users)[number]) => ({ id: u.id, name: u.name, email: u.email });
  const server = serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const item = /^\/users\/([^/]+)(\/followers)?$/.exec(pathname);
    if (item) {
      const found = users.find((u) => u.id === item[1]);
      read.push(`${found ? "known" : "unknown"}${item[2] ?? ""}`);
      if (!found) return Response.json({ message: "User not found" }, { status: 404 });
      return Response.json(item[2] ? [] : { ...shown(found), followersCount: 0 });
    }
    const sent = await req.json();
    if (pathname === "/auth/register") {
      const made = { ...sent, id: crypto.randomUUID() };
      users.push(made);
      return Response.json({ token: jwt(made.id), user: shown(made) }, { status: 201 });
    }
    const found = users.find((u) => u.email === sent.email && u.password === sent.password);
    if (!found) return Response.json({ message: "wrong password" }, { status: 401 });
    return Response.json({ token: jwt(found.id), user: shown(found) });
  });
  return { server, read };
}

Deno.test("the account's id the login answers inside its user member fills /users/{id}, not the JWT's sub", async () => {
  const { server, read } = recipes();
  const { runs, summary, flows } = await convertAndRunSuite(document(account), server, {
    runs: 2,
  });
  for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  assert.match(
    summary,
    /\{id\} of GET \/users\/\{id\} ← POST \/auth\/(login|register) \$\.json\.user\.id/,
  );
  assert.doesNotMatch(summary, /claim sub/);
  assert.doesNotMatch([...flows.values()].join("\n"), /claim: sub/);
  assert.ok(!read.some((r) => r.startsWith("unknown")), read.join());
  assert.ok(read.filter((r) => r === "known").length >= 2, read.join());
});

Deno.test("a member beside the token that holds an id but not the account's fields is not the account", async () => {
  const session = { type: "object", properties: { id: uuid, expiresAt: text } };
  const { server } = recipes();
  const { summary } = await convertAndRunSuite(document(session), server, { runs: 0 });
  assert.doesNotMatch(summary, /\$\.json\.user\.id/, summary);
});
