/**
 * `convert openapi`: a register sends its account's email only where its schema has a member of
 * `format: email`, though it requires none (Django's `create_user(email=…)` read it from data the
 * generated document marks optional). A register whose schema has no such member is sent no email:
 * the rule adds a value to a member the material shows, never a member of its own.
 */
import assert from "node:assert/strict";
import { withConverted } from "../support/openapi_converted.ts";

const str = { type: "string" };
const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

/** A register taking `extra` beside `username` and `password`, and a login of the same two. */
function document(extra: Record<string, unknown>) {
  const creds = { username: str, password: { type: "string", writeOnly: true } };
  return {
    openapi: "3.0.3",
    info: { title: "Tasks", version: "1" },
    components: { securitySchemes: { jwt: { type: "http", scheme: "bearer" } } },
    security: [{ jwt: [] }],
    paths: {
      "/api/register/": {
        post: {
          operationId: "register",
          security: [],
          requestBody: json({
            type: "object",
            properties: { ...creds, ...extra },
            required: ["username", "password"],
          }),
          responses: { "201": { description: "Made", ...json({ properties: { username: str } }) } },
        },
      },
      "/api/token/": {
        post: {
          operationId: "token",
          security: [],
          requestBody: json({ type: "object", properties: creds, required: Object.keys(creds) }),
          responses: {
            "200": { description: "OK", ...json({ properties: { refresh: str, access: str } }) },
          },
        },
      },
      "/api/tasks/": {
        get: { operationId: "tasks", responses: { "200": { description: "OK" } } },
      },
    },
  };
}

/** The body lines of the register's step in the converted flows. */
async function registerBody(extra: Record<string, unknown>): Promise<string> {
  let body = "";
  await withConverted(document(extra), async ({ out, converted }) => {
    assert.equal(converted.code, 0, converted.stderr);
    const flows: string[] = [];
    for await (const e of Deno.readDir(out)) {
      if (e.name.endsWith(".yaml")) flows.push(await Deno.readTextFile(`${out}/${e.name}`));
    }
    const all = flows.join("\n");
    const at = all.indexOf("url: ${ENV.BASE_URL}/api/register/");
    assert.ok(at >= 0, all);
    // The login is found (its token signs the rest in), so the register is the login's.
    assert.ok(all.includes("${steps.token.capture.token}"), all);
    body = all.slice(at, all.indexOf("assert:", at));
  });
  return body;
}

Deno.test("convert openapi: a register's optional member of format email is sent the account's email", async () => {
  const body = await registerBody({ email: { type: "string", format: "email" } });
  assert.match(body, /email: \$\{vars\.email\}/, body);
});

Deno.test("convert openapi: a register with no member of format email is sent no email", async () => {
  const body = await registerBody({ first_name: str, last_name: str });
  assert.doesNotMatch(body, /email/, body);
});

Deno.test("convert openapi: a register's optional email without format email is left out", async () => {
  const body = await registerBody({ email: str, first_name: str });
  assert.doesNotMatch(body, /email/, body);
});
