/**
 * `convert openapi` on a document whose sign-in answers an envelope whose
 * payload it leaves undescribed: `{code, message, data}` with `data` an
 * object naming no member, the token inside it at run time. A course's
 * tasks API (Express, express-openapi-validator's operation handlers,
 * PostgreSQL; measured by hand) documents `POST /authenticate` so, beside
 * `POST /register`, and answers `{code: 200, message, data: {id, email,
 * token}}`: nothing in its schema named a token, so it was no login and the
 * summary asked for `API_TOKEN`, a token the user had to make by hand. A
 * sign-in whose answer holds a member that says nothing of what it holds
 * says nothing of its token either, as an undescribed answer does: the
 * token is looked for by name in the body, whichever way the payload is
 * left open (`{type: object}`, `{}`, `properties: {}`, or the envelope
 * through `allOf`). Its sign-up makes the run's account, so the run needs
 * `BASE_URL` alone. An envelope whose payload is described, without a
 * token, still makes no login.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

const PAYLOADS: [string, unknown][] = [
  ["an object of no members", { type: "object", description: "Payload" }],
  ["a schema of nothing", {}],
  ["empty properties", { type: "object", properties: {} }],
];

function document(payload: unknown, viaAllOf: boolean) {
  const envelope = {
    type: "object",
    required: ["code"],
    properties: { code: { type: "integer" }, message: { type: "string" }, data: payload },
  };
  const answer = viaAllOf ? { allOf: [{ $ref: "#/components/schemas/response" }] } : {
    $ref: "#/components/schemas/response",
  };
  const credentials = json({
    type: "object",
    required: ["email", "password"],
    properties: { email: { type: "string" }, password: { type: "string" } },
  });
  const ok = { 200: { description: "Successful", ...json(answer) } };
  return {
    openapi: "3.0.3",
    info: { title: "taskapi", version: "1" },
    components: {
      schemas: { response: envelope },
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
    },
    paths: {
      "/authenticate": {
        post: { operationId: "authenticate", requestBody: credentials, responses: ok },
      },
      "/register": {
        post: { operationId: "register", security: [], requestBody: credentials, responses: ok },
      },
      "/tasks": {
        get: { operationId: "fetchTasks", security: [{ bearerAuth: [] }], responses: ok },
      },
    },
  };
}

function standIn() {
  const accounts = new Map<string, string>();
  const counted = { registered: 0, signedIn: 0, listed: 0, refused: 0 };
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    const envelope = (code: number, data: unknown) =>
      Response.json({ code, message: "", data }, { status: code });
    if (path === "/register" || path === "/authenticate") {
      const { email, password } = await req.json();
      if (path === "/register") {
        if (accounts.has(email)) return counted.refused++, envelope(400, {});
        accounts.set(email, password);
        counted.registered++;
        return envelope(200, { id: "u1", email });
      }
      if (accounts.get(email) !== password) return counted.refused++, envelope(401, {});
      counted.signedIn++;
      return envelope(200, { id: "u1", email, token: `jwt-${email}` });
    }
    const token = /^Bearer jwt-(.+)$/.exec(req.headers.get("authorization") ?? "")?.[1];
    if (!token || !accounts.has(token)) return counted.refused++, envelope(401, {});
    counted.listed++;
    return envelope(200, { tasks: [] });
  });
  return { server, counted };
}

for (const [name, payload] of PAYLOADS) {
  for (const viaAllOf of [false, true]) {
    Deno.test(
      `convert openapi: a sign-in's token inside an envelope's undescribed payload is found by name (${name}${
        viaAllOf ? ", through allOf" : ""
      })`,
      async () => {
        const { server, counted } = standIn();
        const { runs, summary } = await convertAndRunSuite(document(payload, viaAllOf), server, {
          runs: 2,
        });
        assert.doesNotMatch(summary, /API_TOKEN|LOGIN_/, summary);
        for (const run of runs) assert.equal(run.code, 0, summary + run.stdout + run.stderr);
        assert.equal(counted.refused, 0, JSON.stringify(counted));
        assert.equal(counted.listed, 2, JSON.stringify(counted));
      },
    );
  }
}

Deno.test("convert openapi: an envelope whose payload is described without a token makes no login", async () => {
  const described = { type: "object", properties: { id: { type: "string" } } };
  const server = serveStandIn(() => Response.json({}));
  const { summary } = await convertAndRunSuite(document(described, false), server, { runs: 0 });
  assert.match(summary, /API_TOKEN/, summary);
});
