/**
 * `convert openapi` on a document whose sign-up omits the password its login
 * takes: an Express shop API (measured by hand) documents `POST
 * /auth/register` with `swagger-autogen` comments listing `{username,
 * firstname, lastname, email, phone, address}`, while its code also requires a
 * `password` (400 "Required properties are missing"), and `POST /auth/login`
 * takes `{username, password, email}`. The sign-up took no password, so it was
 * no register of the login's account: the summary asked for an account of the
 * user's (`LOGIN_USERNAME`, `LOGIN_EMAIL`, `LOGIN_PASSWORD`) and the sign-up was
 * sent without one. A create named for signing up that takes every other
 * field the login takes is that account's register now, and sends the run's
 * password beside them, under the login's name for it: an account is made to be
 * signed in to, with the password the login will send. Run twice on one server,
 * with `BASE_URL` alone; the password at the top of the login's body or
 * under another name (`pass`).
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const text = (example: string) => ({ type: "string", example });

function document(password: string) {
  const register = {
    type: "object",
    required: ["username", "firstname", "email"],
    properties: {
      username: text("johndoe"),
      firstname: text("John"),
      email: text("johndoe@email.com"),
    },
  };
  const login = {
    type: "object",
    required: ["username", password],
    properties: {
      username: text("johndoe"),
      [password]: text("secret"),
      email: text("johndoe@email.com"),
    },
  };
  const token = {
    type: "object",
    properties: {
      status: text("success"),
      data: { type: "object", properties: { token: text("<jwt>") } },
    },
  };
  return {
    openapi: "3.0.3",
    info: { title: "shop", version: "1" },
    components: {
      securitySchemes: { userAuth: { type: "apiKey", in: "header", name: "Authorization" } },
    },
    paths: {
      "/auth/register": {
        post: {
          requestBody: json(register),
          responses: { 200: { description: "Created" }, 409: { description: "Taken" } },
        },
      },
      "/auth/login": {
        post: {
          requestBody: json(login),
          responses: { 200: { description: "Signed in", ...json(token) } },
        },
      },
      "/users/me": {
        get: { security: [{ userAuth: [] }], responses: { 200: { description: "Me" } } },
      },
    },
  };
}

/** A shop that requires the password its document omits; counts sign-ups, sign-ins and reads. */
function standIn(password: string) {
  const accounts = new Map<string, string>();
  const tokens = new Map<string, string>();
  const counted = { registered: 0, refused: 0, signedIn: 0, read: 0 };
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/auth/register") {
      const body = await req.json();
      if (typeof body[password] !== "string" || typeof body.username !== "string") {
        return counted.refused++, Response.json({ missingInBody: [password] }, { status: 400 });
      }
      if (accounts.has(body.username)) return Response.json({}, { status: 409 });
      accounts.set(body.username, body[password]);
      return counted.registered++, Response.json({ status: "success" });
    }
    if (path === "/auth/login") {
      const body = await req.json();
      if (accounts.get(body.username) !== body[password]) return Response.json({}, { status: 404 });
      const token = crypto.randomUUID();
      tokens.set(token, body.username);
      counted.signedIn++;
      return Response.json({ status: "success", data: { token } });
    }
    const auth = req.headers.get("authorization") ?? "";
    if (!tokens.has(auth.replace(/^Bearer /, ""))) return new Response("no", { status: 401 });
    return counted.read++, Response.json({ ok: true });
  });
  return { server, counted };
}

for (const password of ["password", "pass"]) {
  Deno.test(`convert openapi: a sign-up whose document omits the login's ${password} signs up the run's account`, async () => {
    const { server, counted } = standIn(password);
    const { runs, summary } = await convertAndRunSuite(document(password), server, { runs: 2 });
    assert.doesNotMatch(summary, /LOGIN_/, summary);
    for (const run of runs) assert.equal(run.code, 0, summary + run.stdout + run.stderr);
    assert.deepEqual(counted, { registered: 2, refused: 0, signedIn: 2, read: 2 }, summary);
  });
}
