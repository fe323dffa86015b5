/**
 * `convert openapi` on a document whose renewal reads a cookie parameter
 * the document gives no value for: `POST /auth/refresh` with a required
 * `in: cookie` `refreshToken`, a plain string, beside a login documented as
 * answering `{accessToken}` (an Express social API, 2025, whose login sets
 * `refreshToken` with `Set-Cookie`, which its document never declares).
 * Before, the renewal was sent the made-up `refreshToken=string` and refused
 * (500 `jwt malformed` there). A cookie is a value a server sets (RFC 6265),
 * and the document states none for this one: the suite sends the cookie of
 * that name the login's answer set, empty when it set none. A cookie
 * parameter the document gives a value for (an `enum`) is sent that value.
 *
 * The stand-in runs on 127.0.0.1: its login sets a new `refreshToken` cookie
 * each time, and its renewal answers 200 only to a cookie it issued.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const text = { type: "string" };
const credentials = {
  type: "object",
  properties: { email: text, password: text },
  required: ["email", "password"],
};
const bearer = [{ bearerAuth: [] }];

const document = {
  openapi: "3.0.0",
  info: { title: "Social", version: "1.0.0" },
  components: {
    securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
  },
  paths: {
    "/auth/register": {
      post: {
        tags: ["Auth"],
        requestBody: json(credentials),
        responses: { "201": { description: "Registered" } },
      },
    },
    "/auth/login": {
      post: {
        tags: ["Auth"],
        requestBody: json(credentials),
        responses: {
          "200": {
            description: "Tokens",
            ...json({ type: "object", properties: { accessToken: text } }),
          },
        },
      },
    },
    "/auth/refresh": {
      post: {
        tags: ["Auth"],
        parameters: [{ in: "cookie", name: "refreshToken", required: true, schema: text }],
        responses: {
          "200": {
            description: "Renewed",
            ...json({ type: "object", properties: { accessToken: text } }),
          },
        },
      },
    },
    "/themes/current": {
      get: {
        tags: ["Themes"],
        security: bearer,
        parameters: [{
          in: "cookie",
          name: "theme",
          required: true,
          schema: { type: "string", enum: ["dark", "light"] },
        }],
        responses: { "200": { description: "The theme" } },
      },
    },
  },
};

/** Accounts in memory; the login sets a fresh refresh cookie, which the renewal must send back. */
function standIn(seen: string[]) {
  const accounts = new Map<string, string>();
  const issued = new Set<string>();
  let n = 0;
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const cookie = req.headers.get("cookie") ?? "";
    seen.push(`${req.method} ${pathname} ${cookie}`);
    if (req.method === "POST" && pathname === "/auth/register") {
      const { email, password } = await req.json();
      accounts.set(email, password);
      return Response.json({ message: "registered" }, { status: 201 });
    }
    if (req.method === "POST" && pathname === "/auth/login") {
      const { email, password } = await req.json();
      if (accounts.get(email) !== password) return Response.json({}, { status: 400 });
      const refresh = `r${++n}x${crypto.randomUUID().slice(0, 8)}`;
      issued.add(refresh);
      const headers = { "set-cookie": `refreshToken=${refresh}; Path=/; HttpOnly` };
      return Response.json({ accessToken: email }, { headers });
    }
    if (req.method === "POST" && pathname === "/auth/refresh") {
      const sent = /(?:^|; )refreshToken=([^;]*)/.exec(cookie)?.[1] ?? "";
      if (!issued.has(sent)) return Response.json({ message: "jwt malformed" }, { status: 500 });
      return Response.json({ accessToken: "renewed" });
    }
    if (req.method === "GET" && pathname === "/themes/current") {
      const theme = /(?:^|; )theme=([^;]*)/.exec(cookie)?.[1] ?? "";
      if (theme !== "dark" && theme !== "light") return Response.json({}, { status: 400 });
      return Response.json({ theme });
    }
    return Response.json({}, { status: 404 });
  });
}

Deno.test("convert openapi: a cookie parameter the document gives no value for is the one the login set", async () => {
  const seen: string[] = [];
  const { runs, flows } = await convertAndRunSuite(document, standIn(seen));
  const auth = flows.get("auth.yaml") ?? "";
  assert.doesNotMatch(auth, /refreshToken: string/, auth);
  const refresh = seen.find((s) => s.startsWith("POST /auth/refresh")) ?? "";
  assert.match(refresh, /refreshToken=r\d+x[0-9a-f]{8}/, seen.join("\n"));
  // A cookie whose values the document lists is sent one of them, as before.
  const theme = seen.find((s) => s.startsWith("GET /themes/current")) ?? "";
  assert.match(theme, /theme=dark/, seen.join("\n"));
  assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr);
});
