/**
 * `convert openapi`: an apiKey scheme on `Authorization` whose description names the word
 * the token must follow ("Token-based authentication with required prefix \"Token\"", as
 * drf-spectacular writes DRF's `TokenAuthentication`) is sent that word, not `Bearer`. A Django
 * REST framework API answered every operation 401 to `Bearer <key>`. A scheme that names no
 * prefix keeps `Bearer`.
 *
 * The stand-in runs on 127.0.0.1 and takes only the word it was configured with.
 */
import assert from "node:assert/strict";
import { convertAndRunAsUser } from "../support/openapi_login_run.ts";
import { serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const str = { type: "string" };

/** A login answering `{token}` and a list behind an apiKey described as `description`. */
function document(description: string) {
  return {
    openapi: "3.0.3",
    info: { title: "CRM", version: "v1" },
    components: {
      securitySchemes: {
        tokenAuth: { type: "apiKey", in: "header", name: "Authorization", description },
      },
    },
    paths: {
      "/login/": {
        post: {
          operationId: "login_create",
          requestBody: json({
            type: "object",
            properties: { email: { type: "string", writeOnly: true }, password: str },
            required: ["email", "password"],
          }),
          responses: {
            "200": { description: "", ...json({ type: "object", properties: { token: str } }) },
          },
        },
      },
      "/api/v1/merch/": {
        get: {
          operationId: "merch_list",
          security: [{ tokenAuth: [] }],
          responses: { "200": { description: "", ...json({ type: "array", items: str }) } },
        },
      },
    },
  };
}

const ACCOUNT = { email: "owner@example.com", password: "s3cret-Owner-pass" };

function standIn(word: string) {
  const seen: string[] = [];
  const server = serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    if (pathname === "/login/") {
      const body = await req.json().catch(() => ({}));
      const ok = body.email === ACCOUNT.email && body.password === ACCOUNT.password;
      return ok ? Response.json({ token: "k3y" }) : Response.json({}, { status: 400 });
    }
    const auth = req.headers.get("authorization") ?? "";
    seen.push(auth);
    return auth === `${word} k3y`
      ? Response.json(["cap"])
      : Response.json({ detail: "no" }, { status: 401, headers: { "www-authenticate": word } });
  });
  return { server, seen };
}

async function run(description: string, word: string) {
  const { server, seen } = standIn(word);
  const { flows, steps } = await convertAndRunAsUser(document(description), server, (base) => ({
    BASE_URL: base,
    LOGIN_EMAIL: ACCOUNT.email,
    LOGIN_PASSWORD: ACCOUNT.password,
  }));
  const list = steps.find((s) => s.name === "merch_list");
  return { flow: [...flows.values()].join("\n"), list, seen };
}

Deno.test("convert openapi: an apiKey's description naming its required prefix is sent that word", async () => {
  const said = 'Token-based authentication with required prefix "Token"';
  const { flow, list, seen } = await run(said, "Token");
  assert.equal(list?.status, "passed", flow);
  assert.deepEqual(seen, ["Token k3y"]);
});

Deno.test("convert openapi: an Authorization apiKey naming no prefix keeps Bearer", async () => {
  const { flow, list, seen } = await run("The session's key", "Bearer");
  assert.equal(list?.status, "passed", flow);
  assert.deepEqual(seen, ["Bearer k3y"]);
});
