/**
 * `convert openapi` on a document whose sign-up requires nothing: LoopBack 4
 * writes a controller's body built with `partial: true` as a schema with no
 * `required` (a task manager's `POST /signup` listing `{username, email,
 * password}`), while its login `POST /users/login` takes `{email, password}`
 * and the server's table holds the email `NOT NULL` (measured by hand). The
 * sign-up sent the run's password alone (an account's two text names, neither
 * an email by its format, so neither was taken for the identity), the server
 * refused it 500, the login after it sending `${vars.email}` found no account,
 * and every flow was skipped. The identity an account is made with is the one
 * its login signs in with: a sign-up sends each member of the login's body
 * that its own schema lists too, under the same run var the login sends (the
 * evidence is the login's body, never a key's name alone). Run twice on one
 * server with `BASE_URL` alone, the login naming the account by its email or
 * by its user name.
 */
import assert from "node:assert/strict";
import { convertOpenApi } from "../../lib/convert/openapi/mod.ts";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const text = { type: "string" };

function document(identity: string) {
  const account = {
    type: "object",
    properties: { username: text, email: text, password: text },
    additionalProperties: true,
  };
  const login = {
    type: "object",
    properties: { [identity]: text, password: text },
    additionalProperties: true,
  };
  const token = { type: "object", properties: { token: text } };
  return {
    openapi: "3.0.0",
    info: { title: "tasks", version: "1" },
    security: [{ jwt: [] }],
    components: { securitySchemes: { jwt: { type: "http", scheme: "bearer" } } },
    paths: {
      "/signup": {
        post: {
          requestBody: json(account),
          responses: { 200: { description: "User", ...json(account) } },
        },
      },
      "/users/login": {
        post: {
          requestBody: json(login),
          responses: { 200: { description: "Token", ...json(token) } },
        },
      },
      "/whoAmI": {
        get: { responses: { 200: { description: "Me", ...json(text) } } },
      },
    },
  };
}

/** Accounts kept by `identity`, which the sign-up must send with a password (500 else). */
function standIn(identity: string) {
  const accounts = new Map<string, string>();
  const tokens = new Set<string>();
  const counted = { registered: 0, refused: 0, signedIn: 0, read: 0 };
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/signup") {
      const body = await req.json();
      if (typeof body[identity] !== "string" || typeof body.password !== "string") {
        return counted.refused++, Response.json({ error: "NOT NULL" }, { status: 500 });
      }
      accounts.set(body[identity], body.password);
      return counted.registered++, Response.json(body);
    }
    if (path === "/users/login") {
      const body = await req.json();
      if (accounts.get(body[identity]) !== body.password) {
        return Response.json({ error: "wrong" }, { status: 404 });
      }
      const token = crypto.randomUUID();
      tokens.add(token);
      return counted.signedIn++, Response.json({ token });
    }
    const auth = req.headers.get("authorization") ?? "";
    if (!tokens.has(auth.replace(/^Bearer /, ""))) return new Response("no", { status: 401 });
    return counted.read++, Response.json("me");
  });
  return { server, counted };
}

for (const identity of ["email", "username"]) {
  Deno.test(`convert openapi: a sign-up requiring nothing sends the ${identity} its login signs in with`, async () => {
    const { server, counted } = standIn(identity);
    const { runs, summary } = await convertAndRunSuite(document(identity), server, { runs: 2 });
    assert.doesNotMatch(summary, /LOGIN_/, summary);
    for (const run of runs) assert.equal(run.code, 0, summary + run.stdout + run.stderr);
    assert.deepEqual(counted, { registered: 2, refused: 0, signedIn: 2, read: 2 }, summary);
  });
}

Deno.test("convert openapi: a login's optional member is no identity its sign-up sends (better-auth's callbackURL)", () => {
  // better-auth's sign-in requires {email, password} and lists an optional callbackURL; the
  // sign-up, sent callbackURL: ${vars.username}, answered 403 (no trusted origin) in CI.
  const credentials = (required: string[], extra: Record<string, unknown>) => ({
    type: "object",
    required,
    properties: { email: { type: "string", format: "email" }, password: text, ...extra },
  });
  const answer = { 200: { description: "", ...json({ properties: { token: text } }) } };
  const document = {
    openapi: "3.0.0",
    info: { title: "auth", version: "1" },
    paths: {
      "/sign-up/email": {
        post: {
          requestBody: json(
            credentials(["name", "email", "password"], { name: text, callbackURL: text }),
          ),
          responses: answer,
        },
      },
      "/sign-in/email": {
        post: {
          requestBody: json(credentials(["email", "password"], { callbackURL: text })),
          responses: answer,
        },
      },
    },
  };
  const { files } = convertOpenApi({ document, source: "api.json" });
  const text_ = files.map((f) => f.text).join("\n");
  assert.match(text_, /email: \$\{vars\.email\}/);
  assert.doesNotMatch(text_, /callbackURL: \$\{vars\./, text_);
});
