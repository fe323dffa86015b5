/**
 * `convert openapi` on a document whose login (needing no credentials, a
 * password in, a token out) no operation the suite can call registers an
 * account for: the only way in is an account the user already has. Found on
 * Directus 10 (tests/real/directus_openapi_test.ts): its login signed in as
 * the run's own `user-…@example.com` with a made-up password, was refused
 * 401, and every operation needing its token was refused (7 of 136 accepted);
 * the summary asked for nothing but `BASE_URL`. Such a login's identity and
 * password are now environment variables the summary asks for
 * (`LOGIN_EMAIL`/`LOGIN_USERNAME`, `LOGIN_PASSWORD`), never literal, and a
 * document whose sign-up needs no credentials still registers an account
 * of the run's own (tests/convert/openapi_signup_token_test.ts).
 *
 * The stand-ins run on 127.0.0.1 and accept only the account the test
 * gives the run.
 */
import assert from "node:assert/strict";
import { convertAndRunAsUser } from "../support/openapi_login_run.ts";
import { serveStandIn } from "../support/openapi_suite.ts";
import { tokenDocument } from "../support/openapi_doc_parts.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

/** A login taking `identity` (`email`, `username`) and a password; one read needing its token. */
function document(identity: string) {
  return tokenDocument({
    paths: {
      "/auth/login": {
        post: {
          operationId: "login",
          tags: ["Auth"],
          security: [],
          requestBody: json({
            type: "object",
            required: [identity, "password"],
            properties: {
              [identity]: { type: "string", example: "admin@example.com" },
              password: { type: "string", format: "password", example: "password" },
            },
          }),
          responses: {
            "200": {
              description: "Signed in",
              ...json({
                type: "object",
                properties: {
                  data: { type: "object", properties: { access_token: { type: "string" } } },
                },
              }),
            },
          },
        },
      },
      "/items": {
        get: {
          operationId: "items",
          tags: ["Items"],
          responses: { "200": { description: "The items", ...json({ type: "object" }) } },
        },
      },
    },
  });
}

const ACCOUNT = { id: "owner@example.org", password: "s3cret-Owner-pass" };

/** Accepts only {@linkcode ACCOUNT}'s login; the items need the token it hands out. */
function standIn(identity: string) {
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    if (pathname === "/auth/login" && req.method === "POST") {
      const body = await req.json().catch(() => ({}));
      if (body[identity] !== ACCOUNT.id || body.password !== ACCOUNT.password) {
        return Response.json({ errors: [{ message: "Invalid user credentials." }] }, {
          status: 401,
        });
      }
      return Response.json({ data: { access_token: "tok-123", expires: 900 } });
    }
    if (pathname === "/items" && req.method === "GET") {
      if (req.headers.get("authorization") !== "Bearer tok-123") {
        return Response.json({ errors: [{ message: "Forbidden" }] }, { status: 403 });
      }
      return Response.json({ data: [] });
    }
    return new Response(null, { status: 404 });
  });
}

// `identifier`: Strapi's `POST /auth/local` and Ory Kratos's login, a user name or an email.
for (
  const [identity, variable] of [
    ["email", "LOGIN_EMAIL"],
    ["username", "LOGIN_USERNAME"],
    ["identifier", "LOGIN_USERNAME"],
  ]
) {
  Deno.test(`convert openapi: a login no operation registers for signs in as the account the summary asks for (${identity})`, async () => {
    const { summary, flows, run, report } = await convertAndRunAsUser(
      document(identity),
      standIn(identity),
      (base) => ({ BASE_URL: base, [variable]: ACCOUNT.id, LOGIN_PASSWORD: ACCOUNT.password }),
    );
    assert.match(summary, new RegExp(`^  ${variable}: .*POST /auth/login`, "m"));
    assert.match(summary, /^ {2}LOGIN_PASSWORD: .*POST \/auth\/login/m);
    const texts = [...flows.values()].join("\n");
    assert.ok(texts.includes(`\${ENV.${variable}}`) && texts.includes("${ENV.LOGIN_PASSWORD}"));
    // The account is the user's: not one the run makes up.
    assert.ok(!texts.includes("RANDOM"), texts);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    // The password is the user's secret: masked in the report.
    assert.ok(report !== "" && !report.includes(ACCOUNT.password), report);
  });
}
