/**
 * `convert openapi`: the signed-in account's own read, update and delete
 * take its id from the `sub` of the login's JWT when nothing else gives it.
 * The login answers only `{token}`, the sign-up only `{message}`, and there
 * is no `GET /me`, yet `/users/{id}` answers 403 to anyone but that user:
 * the flow sent a made-up id. A token is opened only where the document
 * says it is a JWT (`bearerFormat: JWT`); an answer that gives the id is
 * still preferred, and a token of no declared format is never opened.
 *
 * The stand-in server below issues real JWTs (`sub` the user's number) and
 * enforces "only your own account" with 403.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { answers, body, json, param, text } from "../support/openapi_doc_parts.ts";

const user = {
  type: "object",
  properties: { id: { type: "integer" }, username: text, email: text },
};
const idParam = param("id");
const bearer = [{ bearer: [] }];

/** Register, login, the users' item and posts; `format` is the scheme's `bearerFormat`. */
function document(format: string | undefined, registerAnswersId = false): Record<string, unknown> {
  const registered = registerAnswersId ? user : { type: "object", properties: { message: text } };
  return {
    openapi: "3.0.0",
    info: { title: "Social", version: "1" },
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", ...format ? { bearerFormat: format } : {} },
      },
    },
    paths: {
      "/auth/register": {
        post: {
          requestBody: body({ username: text, email: text, password: text }),
          responses: { "201": { description: "Created", content: json(registered) } },
        },
      },
      "/auth/login": {
        post: {
          requestBody: body({ email: text, password: text }),
          responses: answers({ type: "object", properties: { token: text } }),
        },
      },
      "/users/{id}": {
        get: { security: bearer, parameters: idParam, responses: answers(user) },
        put: {
          security: bearer,
          parameters: idParam,
          requestBody: body({ username: text }),
          responses: answers(user),
        },
        delete: {
          security: bearer,
          parameters: idParam,
          responses: { "204": { description: "Deleted" } },
        },
      },
      "/posts": {
        post: {
          security: bearer,
          requestBody: body({ content: text }),
          responses: {
            "201": { description: "Created", content: json({ properties: { content: text } }) },
          },
        },
      },
    },
  };
}

const part = (o: object) =>
  btoa(JSON.stringify(o)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");

/**
 * Users from 41 on; the login's token is a JWT naming the user in `claim` (`sub`; jsonwebtoken's
 * `jwt.sign({id})` signs `id`); only yours is yours.
 */
function social(claim = "sub") {
  const users: { id: number; username: string; email: string; password: string }[] = [];
  const counted = { own: 0, refused: 0 };
  const jwt = (id: number) =>
    `${part({ alg: "HS256", typ: "JWT" })}.${
      part({ [claim]: claim === "sub" ? String(id) : id })
    }.c2ln`;
  const shown = (u: (typeof users)[number]) => ({ id: u.id, username: u.username, email: u.email });
  const server = serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const auth = req.headers.get("authorization") ?? "";
    const me = users.find((u) => auth === `Bearer ${jwt(u.id)}`);
    const item = /^\/users\/([^/]+)$/.exec(pathname)?.[1];
    if (item !== undefined || pathname === "/posts") {
      if (!me) return Response.json({ message: "no token" }, { status: 401 });
      if (pathname === "/posts") return Response.json(await req.json(), { status: 201 });
      if (item !== String(me.id)) {
        counted.refused++;
        return Response.json({ message: "not yours" }, { status: 403 });
      }
      counted.own++;
      if (req.method === "DELETE") {
        users.splice(users.indexOf(me), 1);
        return new Response(null, { status: 204 });
      }
      if (req.method === "PUT") me.username = (await req.json()).username;
      return Response.json(shown(me));
    }
    const sent = await req.json();
    if (pathname === "/auth/register") {
      const made = { ...sent, id: users.length + 41 };
      users.push(made);
      return Response.json(shown(made), { status: 201 });
    }
    const found = users.find((u) => u.email === sent.email && u.password === sent.password);
    if (!found) return Response.json({ message: "wrong password" }, { status: 401 });
    return Response.json({ token: jwt(found.id) });
  });
  return { server, counted, jwt };
}

for (const claim of ["sub", "id"]) {
  Deno.test(`the account's own read, update and delete take the ${claim} of the login's JWT when nothing answers the id`, async () => {
    const { server, counted, jwt } = social(claim);
    const { runs, summary, flows } = await convertAndRunSuite(document("JWT"), server, { runs: 2 });
    for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
    // The token is never shown, though its claim is read.
    for (const run of runs) assert.ok(!`${run.stdout}${run.stderr}`.includes(jwt(41)));
    for (const method of ["GET", "PUT", "DELETE"]) {
      assert.match(
        summary,
        new RegExp(
          `\\{id\\} of ${method} /users/\\{id\\} ← POST /auth/login \\$\\.json\\.token \\(its JWT's claim sub`,
        ),
      );
    }
    assert.equal(counted.refused, 0);
    assert.ok(counted.own >= 6, JSON.stringify(counted));
    assert.match([...flows.values()].join("\n"), /claim: \[sub, id\]/);
  });
}

Deno.test("a token the document does not call a JWT is never opened; an answered id is preferred", async () => {
  for (
    const [format, answered] of [[undefined, false], ["opaque", false], ["JWT", true]] as const
  ) {
    const { server } = social();
    const { summary, flows } = await convertAndRunSuite(document(format, answered), server, {
      runs: 0,
    });
    assert.doesNotMatch([...flows.values()].join("\n"), /claim: sub/, summary);
    assert.doesNotMatch(summary, /claim sub/, summary);
  }
});
