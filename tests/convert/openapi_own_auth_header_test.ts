/**
 * `convert openapi`: an operation that states no requirement but takes, as a parameter of its
 * own, the header a declared scheme sends its credential in is signed in with that scheme. A
 * Hapi social API's `GET /auth/refresh-token` requires nothing in its document and declares an
 * optional `authorization` header, the very header of its `BEARER` apiKey; it answers the
 * login's access token anew and takes the refresh token there. Read as open, the step was sent
 * no header, ran before the login and was refused 400 "Refresh token is required". Where the
 * parameter sits is the evidence (its name alone is none: only a header a declared scheme fills
 * counts); once signed in, the renewal is sent the login's refresh token, as an operation the
 * document signs in is (`openapi_refresh_token_test.ts`).
 *
 * The stand-in below keeps its accounts and tokens in memory on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { answers, body, json, text } from "../support/openapi_doc_parts.ts";

const pair = { type: "object", properties: { accessToken: text, refreshToken: text } };
const account = { email: { type: "string", format: "email" }, password: text };
const authorization = { name: "authorization", in: "header", schema: { type: "string" } };

const document = {
  openapi: "3.0.0",
  info: { title: "Accounts", version: "1" },
  components: {
    securitySchemes: { BEARER: { type: "apiKey", in: "header", name: "Authorization" } },
  },
  paths: {
    "/auth/refresh": {
      get: {
        tags: ["auth"],
        parameters: [authorization],
        responses: answers({ type: "object", properties: { accessToken: text } }),
      },
    },
    "/auth/register": {
      post: { tags: ["auth"], requestBody: body(account), responses: answers({}) },
    },
    "/auth/login": {
      post: { tags: ["auth"], requestBody: body(account), responses: answers(pair) },
    },
    "/auth/me": {
      get: {
        tags: ["auth"],
        security: [{ BEARER: [] }],
        responses: { "200": { description: "OK", content: json({ properties: { email: text } }) } },
      },
    },
  },
};

function accounts() {
  const users = new Map<string, string>();
  const access = new Map<string, string>();
  const refresh = new Map<string, string>();
  const bearer = (req: Request) =>
    /^Bearer (.+)$/.exec(req.headers.get("authorization") ?? "")?.[1];
  return serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/auth/register") {
      const { email, password } = await req.json();
      users.set(email, password);
      return Response.json({});
    }
    if (path === "/auth/login") {
      const { email, password } = await req.json();
      if (users.get(email) !== password) return Response.json({}, { status: 401 });
      const pair = { accessToken: crypto.randomUUID(), refreshToken: crypto.randomUUID() };
      access.set(pair.accessToken, email);
      refresh.set(pair.refreshToken, email);
      return Response.json(pair);
    }
    const token = bearer(req) ?? "";
    if (path === "/auth/refresh") {
      const email = refresh.get(token);
      if (!email) return Response.json({ message: "Refresh token is required" }, { status: 400 });
      const accessToken = crypto.randomUUID();
      access.set(accessToken, email);
      return Response.json({ accessToken });
    }
    const email = access.get(token);
    return email ? Response.json({ email }) : Response.json({}, { status: 401 });
  });
}

Deno.test("a header parameter a declared scheme fills signs its operation in: a renewal", async () => {
  const { runs, summary } = await convertAndRunSuite(document, accounts(), { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  assert.match(summary, /GET \/auth\/refresh renews the token/, summary);
});

Deno.test("a header parameter no declared scheme fills leaves its operation open", async () => {
  const doc = structuredClone(document);
  doc.paths["/auth/refresh"].get.parameters = [{ ...authorization, name: "x-trace" }];
  const { summary } = await convertAndRunSuite(doc, accounts());
  assert.doesNotMatch(summary, /GET \/auth\/refresh renews the token/, summary);
});
