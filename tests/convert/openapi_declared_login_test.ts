/**
 * A document that declares a token scheme, requires it nowhere, and has a
 * login handing out that token (hapi-swagger's Swagger 2.0 of a Hapi API:
 * `securityDefinitions: {Bearer: {type: apiKey, name: Authorization,
 * description: "… Bearer <token>"}}`, no `security` at all, `POST /login`
 * answering `{data: {accessToken}}`) needs the token everywhere but at its
 * login and sign-up: the flows sign up, sign in and send the login's
 * token, and the summary asks for no key (it had asked for `API_KEY` and
 * sent it to the login too).
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ schema });
const obj = (properties: Record<string, unknown>, required?: string[]) => ({
  type: "object",
  properties,
  ...(required ? { required } : {}),
});
const str = { type: "string" };

const DOC = {
  swagger: "2.0",
  info: { title: "Sleeps", version: "1" },
  securityDefinitions: {
    Bearer: {
      type: "apiKey",
      name: "Authorization",
      in: "header",
      description: "Enter your bearer token in the format: Bearer <token>",
    },
  },
  paths: {
    "/register": {
      post: {
        parameters: [{
          in: "body",
          name: "body",
          schema: obj({ username: str, email: str, password: str }, [
            "username",
            "email",
            "password",
          ]),
        }],
        responses: { "201": { description: "Made", ...json(obj({ data: obj({ userId: str }) })) } },
      },
    },
    "/login": {
      post: {
        parameters: [{
          in: "body",
          name: "body",
          schema: obj({ email: str, password: str }, ["email", "password"]),
        }],
        responses: {
          "200": { description: "OK", ...json(obj({ data: obj({ accessToken: str }) })) },
        },
      },
    },
    "/sleeps": {
      post: {
        responses: { "201": { description: "Made", ...json(obj({ data: obj({ id: str }) })) } },
      },
    },
    "/dashboard": {
      get: { responses: { "200": { description: "OK", ...json(obj({ points: str })) } } },
    },
  },
};

/** A stand-in that signs up, signs in (by email) and wants `Bearer <token>` elsewhere. */
function standIn(seen: string[]) {
  const accounts = new Map<string, string>();
  const tokens = new Set<string>();
  return serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    const auth = req.headers.get("authorization") ?? "-";
    seen.push(`${req.method} ${path} ${auth.startsWith("Bearer tok-") ? "token" : auth}`);
    const body = req.method === "POST" ? await req.json().catch(() => ({})) : {};
    if (path === "/register") {
      accounts.set(String(body.email), String(body.password));
      return Response.json({ data: { userId: "u-1" } }, { status: 201 });
    }
    if (path === "/login") {
      if (!accounts.has(String(body.email)) || accounts.get(String(body.email)) !== body.password) {
        return Response.json({ message: "wrong" }, { status: 400 });
      }
      const token = `tok-${tokens.size}`;
      tokens.add(token);
      return Response.json({ data: { accessToken: token } });
    }
    if (!tokens.has(auth.replace(/^Bearer /, ""))) return Response.json({}, { status: 401 });
    return path === "/sleeps"
      ? Response.json({ data: { id: "s-1" } }, { status: 201 })
      : Response.json({ points: "1" });
  });
}

Deno.test("convert openapi signs in for a declared token scheme required nowhere, not at its login", async () => {
  const dir = await Deno.makeTempDir();
  const seen: string[] = [];
  const server = standIn(seen);
  try {
    await Deno.writeTextFile(`${dir}/api.json`, JSON.stringify(DOC));
    const converted = await runCli(["convert", "openapi", `${dir}/api.json`, "-o", `${dir}/flows`]);
    assert.equal(converted.code, 0, converted.stderr);
    assert.doesNotMatch(converted.stderr, /API_KEY|LOGIN_EMAIL/);
    const line = /^Run: flowrun (.*)$/m.exec(converted.stderr)?.[1];
    assert.ok(line, converted.stderr);
    const run = await runCli(line.split(" "), { env: { BASE_URL: server.base } });
    assert.equal(run.code, 0, `${run.stdout}\n${seen.join("\n")}`);
    assert.ok(seen.includes("GET /dashboard token"), seen.join("\n"));
    assert.ok(seen.some((s) => s.startsWith("POST /login -")), seen.join("\n"));
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
