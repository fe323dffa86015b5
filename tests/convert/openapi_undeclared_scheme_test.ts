/**
 * `convert openapi` on the shape `@nestjs/swagger` writes when an app names
 * its bearer scheme (`addBearerAuth({type: "http", scheme: "bearer"},
 * "access-token")`) and its controllers use the decorator's default name
 * (`@ApiBearerAuth()`, `security: [{bearer: []}]`), measured by hand on
 * 2026-11-27 (docs/real-servers.md): every requirement names a scheme the
 * document does not declare, so no step sent a credential and the server
 * answered 401. A requirement naming no declared scheme is read as the one
 * declared scheme whose kind it names (`bearer`: the http scheme `bearer`).
 * Then a NestJS sales API (measured by hand on 2026-11-29) declared
 * `bearer` (`addBearerAuth()`, `bearerFormat: JWT`) while most controllers
 * wrote `@ApiBearerAuth('JWT Token')`: a name of several words, one of them
 * the declared scheme's `bearerFormat`; 17 of its 25 operations were sent no
 * token and answered 401. Each word of the name is now compared, with the
 * `bearerFormat` too: `JWT Token`, `jwt`, `JWT-auth`, `bearer` alike.
 *
 * The stand-in below answers as that server does, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const text = { type: "string" };
const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

/** The parts of the document the defect showed in, as `@nestjs/swagger` writes them. */
function photoDocument(named: string): Record<string, unknown> {
  const bearer = [{ [named]: [] }];
  const account = {
    type: "object",
    properties: { username: text, password: text },
    required: ["username", "password"],
  };
  return {
    openapi: "3.0.0",
    info: { title: "photos", version: "1.0" },
    paths: {
      "/auth/register": {
        post: {
          tags: ["auth"],
          requestBody: { required: true, ...json(account) },
          responses: { "201": { description: "" } },
        },
      },
      "/auth/login": {
        post: {
          tags: ["auth"],
          requestBody: { required: true, ...json(account) },
          responses: {
            "200": { description: "", ...json({ properties: { accessToken: text } }) },
          },
        },
      },
      "/users": {
        get: { tags: ["users"], security: bearer, responses: { "200": { description: "" } } },
      },
    },
    components: {
      securitySchemes: { "access-token": { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
    },
  };
}

/** Tokens by login; `/users` only with one. */
function photoServer(seen: string[]) {
  const accounts = new Map<string, string>();
  const tokens = new Set<string>();
  return serveStandIn(async (req) => {
    const route = `${req.method} ${new URL(req.url).pathname}`;
    const sent = req.method === "POST" ? await req.json().catch(() => ({})) : {};
    const token = req.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
    seen.push(`${route}${token ? " (token)" : ""}`);
    if (route === "POST /auth/register") {
      accounts.set(sent.username, sent.password);
      return Response.json({}, { status: 201 });
    }
    if (route === "POST /auth/login") {
      if (accounts.get(sent.username) !== sent.password) return new Response(null, { status: 401 });
      const accessToken = crypto.randomUUID();
      tokens.add(accessToken);
      return Response.json({ accessToken });
    }
    if (route === "GET /users") {
      return tokens.has(token) ? Response.json([]) : new Response(null, { status: 401 });
    }
    return new Response(null, { status: 404 });
  });
}

for (const named of ["bearer", "JWT Token", "jwt", "JWT-auth"]) {
  Deno.test(`convert openapi: a requirement naming no declared scheme ("${named}") is the one declared scheme of the kind it names`, async () => {
    const seen: string[] = [];
    const { runs, summary } = await convertAndRunSuite(photoDocument(named), photoServer(seen));
    const [run] = runs;
    assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
    assert.ok(seen.includes("GET /users (token)"), seen.join(", "));
    assert.doesNotMatch(summary, /API_TOKEN/);
  });
}
