/**
 * `convert openapi` on a document whose OAuth2 password flow names, as its
 * `tokenUrl`, an operation of the document that takes JSON: that operation
 * is the login, not an OAuth2 token endpoint (RFC 6749 asks for a form with
 * `grant_type` and client credentials). `@nestjs/swagger` writes a JWT login
 * so (`addBearerAuth({type: "oauth2", flows: {password: {tokenUrl:
 * "/api/auth/login"}}})`, Homebridge UI's document, whose login answers
 * `access_token` with no schema): the summary asked for `CLIENT_ID` and
 * `CLIENT_SECRET`, which no user of such a server has, and the token
 * request was a form the login refuses. Now the suite signs in there with
 * the account the summary asks for and sends the token it answers as a
 * bearer. A token endpoint that takes a form stays OAuth2's
 * (tests/convert/oauth_test.ts and the converter's auth tests).
 *
 * The stand-in runs on 127.0.0.1 and accepts only the account the test
 * gives the run.
 */
import assert from "node:assert/strict";
import { convertAndRunAsUser } from "../support/openapi_login_run.ts";
import { serveStandIn } from "../support/openapi_suite.ts";
import { runCli } from "../support/cli.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

const CREDENTIALS = {
  type: "object",
  required: ["username", "password"],
  properties: {
    username: { type: "string" },
    password: { type: "string" },
    otp: { type: "string" },
  },
};

/** The shape `@nestjs/swagger` gives: a login with no answer schema, reads needing the token. */
function document(loginBody: Record<string, unknown>) {
  return {
    openapi: "3.0.0",
    info: { title: "Hub UI API Reference", version: "1" },
    components: {
      schemas: { AuthDto: CREDENTIALS },
      securitySchemes: {
        bearer: {
          scheme: "bearer",
          bearerFormat: "JWT",
          type: "oauth2",
          flows: { password: { tokenUrl: "/api/auth/login", scopes: null } },
        },
      },
    },
    paths: {
      "/api/auth/login": {
        post: {
          tags: ["Authentication"],
          summary: "Exchange a username and password for an authentication token.",
          requestBody: { required: true, content: loginBody },
          responses: { "201": { description: "" } },
        },
      },
      "/api/status": {
        get: {
          tags: ["Status"],
          security: [{ bearer: [] }],
          responses: { "200": { description: "The status" } },
        },
      },
    },
  };
}

const ACCOUNT = { username: "owner", password: "s3cret-Owner-pass" };

function standIn() {
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    if (pathname === "/api/auth/login" && req.method === "POST") {
      const body = await req.json().catch(() => ({}));
      if (body.username !== ACCOUNT.username || body.password !== ACCOUNT.password) {
        return Response.json({ message: "Unauthorized" }, { status: 401 });
      }
      return Response.json({ access_token: "tok-123", token_type: "Bearer", expires_in: 28800 }, {
        status: 201,
      });
    }
    if (pathname === "/api/status" && req.method === "GET") {
      if (req.headers.get("authorization") !== "Bearer tok-123") {
        return Response.json({ message: "Unauthorized" }, { status: 401 });
      }
      return Response.json({ status: "up" });
    }
    return new Response(null, { status: 404 });
  });
}

Deno.test("convert openapi: an OAuth2 password flow whose tokenUrl is the document's JSON login signs in there", async () => {
  const { summary, flows, run } = await convertAndRunAsUser(
    document(json({ $ref: "#/components/schemas/AuthDto" }).content),
    standIn(),
    (base) => ({
      BASE_URL: base,
      LOGIN_USERNAME: ACCOUNT.username,
      LOGIN_PASSWORD: ACCOUNT.password,
    }),
  );
  assert.doesNotMatch(summary, /CLIENT_ID|CLIENT_SECRET/);
  assert.match(summary, /^ {2}LOGIN_USERNAME: /m);
  const texts = [...flows.values()].join("\n");
  assert.ok(!texts.includes(ACCOUNT.password));
  assert.equal(run.code, 0, run.stdout + run.stderr);
});

Deno.test("convert openapi: an OAuth2 password flow whose token endpoint takes a form stays OAuth2's", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const form = {
      "application/x-www-form-urlencoded": {
        schema: {
          type: "object",
          properties: {
            grant_type: { type: "string" },
            username: { type: "string" },
            password: { type: "string" },
          },
        },
      },
    };
    await Deno.writeTextFile(`${dir}/api.json`, JSON.stringify(document(form)));
    const run = await runCli(["convert", "openapi", `${dir}/api.json`, "-o", `${dir}/flows`]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /^ {2}CLIENT_ID: /m);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
