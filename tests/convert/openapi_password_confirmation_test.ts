/**
 * `convert openapi` on a sign-up that asks for the password twice, in the
 * shape `@nestjs/swagger` writes from a NestJS 6 DTO validated by Joi
 * (`SignupRequestDto {email, password, passwordConfirmation, …}`, the
 * server checking `password` against `Joi.ref('passwordConfirmation')`):
 * the confirmation was filled as any text (`passwordconfirma-<hex>`), so the
 * sign-up was refused 400 and the login after it found no account (a real
 * NestJS API: both refused). Now a field named as the password's
 * confirmation (`passwordConfirmation`, `password_confirmation`,
 * `confirmPassword`, `password2`, `re_password`) is sent the same per-run
 * password as the password: the account is made and the login signs in.
 *
 * The stand-in runs on 127.0.0.1 and refuses a sign-up whose two passwords
 * differ, as Joi's `valid(Joi.ref(…))` does.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const text = { type: "string" };

/** A sign-up asking for the password twice (as `confirmation` names it), and a login. */
function document(confirmation: string) {
  return {
    openapi: "3.0.0",
    info: { title: "", version: "1.0" },
    paths: {
      "/auth/signup": {
        post: {
          operationId: "AuthController_signup",
          requestBody: { required: true, ...json(ref("SignupRequestDto")) },
          responses: { "200": { description: "", ...json({ type: "boolean" }) } },
        },
      },
      "/auth/signin": {
        post: {
          operationId: "AuthController_signin",
          requestBody: { required: true, ...json(ref("SigninRequestDto")) },
          responses: { "200": { description: "", ...json(ref("SigninResponseDto")) } },
        },
      },
      "/users": {
        get: {
          operationId: "UserController_getUser",
          security: [{ bearer: [] }],
          responses: { "200": { description: "", ...json({ type: "object" }) } },
        },
      },
    },
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
      schemas: {
        SignupRequestDto: {
          type: "object",
          properties: { email: text, password: text, [confirmation]: text, lastName: text },
          required: ["email", "password", confirmation, "lastName"],
        },
        SigninRequestDto: {
          type: "object",
          properties: { email: text, password: text },
          required: ["email", "password"],
        },
        SigninResponseDto: {
          type: "object",
          properties: { id: { type: "number" }, token: text },
          required: ["id", "token"],
        },
      },
    },
  };
}

/** Refuses a sign-up whose passwords differ; signs in the accounts it made. */
function standIn(confirmation: string, seen: Map<string, number>) {
  const accounts = new Map<string, string>();
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const answer = (body: unknown, status = 200) => {
      seen.set(`${req.method} ${pathname}`, status);
      return Response.json(body, { status });
    };
    if (pathname === "/auth/signup") {
      const body = await req.json();
      if (body.password !== body[confirmation]) return answer({ message: "Validation error" }, 400);
      accounts.set(body.email, body.password);
      return answer(true);
    }
    if (pathname === "/auth/signin") {
      const body = await req.json();
      if (accounts.get(body.email) !== body.password) return answer({ message: "Incorrect" }, 400);
      return answer({ id: 1, token: "t.o.k" });
    }
    if (req.headers.get("authorization") !== "Bearer t.o.k") return answer({}, 401);
    return answer({ id: 1 });
  });
}

for (
  const confirmation of [
    "passwordConfirmation",
    "password_confirmation",
    "confirmPassword",
    "password2",
  ]
) {
  Deno.test(`convert openapi: a sign-up's ${confirmation} is sent the password it confirms`, async () => {
    const seen = new Map<string, number>();
    const { runs, flows, summary } = await convertAndRunSuite(
      document(confirmation),
      standIn(confirmation, seen),
    );
    assert.equal(seen.get("POST /auth/signup"), 200, summary + runs[0].stdout);
    assert.equal(seen.get("POST /auth/signin"), 200);
    assert.equal(seen.get("GET /users"), 200);
    assert.equal(runs[0].code, 0, runs[0].stdout);
    // The run's own password in both, never a literal.
    assert.match(
      [...flows.values()].join("\n"),
      new RegExp(`${confirmation}: \\$\\{vars\\.password\\}`),
    );
  });
}
