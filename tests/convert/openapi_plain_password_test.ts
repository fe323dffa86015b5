/**
 * `convert openapi` on a document whose register says its password takes
 * letters and digits only. An Express API measured by hand (`swagger-jsdoc`,
 * a social media API, 2025) documents the register's `password` as "Must
 * have 5-30 alphanumeric characters" and checks `^[a-zA-Z0-9]{5,30}$` with
 * Joi: the run's `${RANDOM.PASSWORD}` holds a sign, the register answered
 * 400, the login 404, and every flow was skipped (0 of 18 operations). The
 * evidence is the password field's own schema: a `pattern` that refuses a
 * sign, or a description that calls it alphanumeric (or letters and digits
 * only) and asks for no signs. The run's password is then letters and digits,
 * still made per run and never written or printed.
 *
 * The stand-in runs on 127.0.0.1 and refuses, as the API does, a password
 * with anything but letters and digits.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const ok = (status: string) => ({ [status]: { description: "OK" } });
const bearer = [{ bearerAuth: [] }];

/** A register and a login of `password` (a form, as the API's), and a profile behind the token. */
function document(password: Record<string, unknown>, media = "application/x-www-form-urlencoded") {
  const account = {
    type: "object",
    required: ["email", "password"],
    properties: { email: { type: "string" }, password },
  };
  const body = { required: true, content: { [media]: { schema: account } } };
  const token = { type: "object", properties: { token: { type: "string" } } };
  return {
    openapi: "3.0.0",
    info: { title: "Social", version: "1" },
    paths: {
      "/api/auth/register": { post: { requestBody: body, responses: ok("201") } },
      "/api/auth/login": {
        post: {
          requestBody: body,
          responses: {
            "200": { description: "OK", content: { "application/json": { schema: token } } },
          },
        },
      },
      "/api/me": { get: { security: bearer, responses: ok("200") } },
    },
    components: { securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } } },
  };
}

/** The API: alphanumeric passwords only; `sent` keeps each password it was sent. */
function social(sent: string[]) {
  const users = new Map<string, string>();
  const tokens = new Set<string>();
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    if (req.method === "GET") {
      const token = /^Bearer (\S+)$/.exec(req.headers.get("authorization") ?? "")?.[1] ?? "";
      return tokens.has(token) ? Response.json({ id: 1 }) : new Response(null, { status: 401 });
    }
    const form = req.headers.get("content-type")?.includes("json")
      ? new Map(Object.entries(await req.json()))
      : await req.formData();
    const [email, password] = [String(form.get("email")), String(form.get("password"))];
    sent.push(password);
    if (pathname === "/api/auth/register") {
      if (!/^[a-zA-Z0-9]{5,30}$/.test(password)) {
        return Response.json({ error: '"password" fails to match the required pattern' }, {
          status: 400,
        });
      }
      users.set(email, password);
      return Response.json({ id: users.size }, { status: 201 });
    }
    if (!users.has(email)) return Response.json({ message: "User doesn't exist" }, { status: 404 });
    if (users.get(email) !== password) return new Response(null, { status: 401 });
    const token = crypto.randomUUID();
    tokens.add(token);
    return Response.json({ token });
  });
}

const plain: [string, Record<string, unknown>, string?][] = [
  ["a description: alphanumeric", {
    type: "string",
    description: "Must have 5-30 alphanumeric characters.",
  }],
  ["a description: letters and digits only", {
    type: "string",
    description: "Only letters and digits.",
  }],
  ["a pattern", { type: "string", pattern: "^[a-zA-Z0-9]{5,30}$" }, "application/json"],
];

for (const [what, password, media] of plain) {
  Deno.test(`a password documented as letters and digits (${what}) is made without a sign`, async () => {
    const sent: string[] = [];
    const { runs, summary, flows } = await convertAndRunSuite(
      document(password, media),
      social(sent),
      { runs: 2 },
    );
    for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
    const text = [...flows.values()].join("\n");
    assert.match(text, /password: Pw\$\{RANDOM\.DIGITS_6\}\$\{RANDOM\.HEX_8\}/);
    assert.ok(sent.length >= 4, "two runs registered and signed in");
    for (const run of runs) {
      for (const p of sent) {
        assert.ok(!`${run.stdout}${run.stderr}`.includes(p), "no password printed");
      }
    }
  });
}

Deno.test("a password whose description asks for signs too keeps a password with a sign", async () => {
  const password = {
    type: "string",
    description: "8 or more characters: alphanumeric and a special character.",
  };
  const { flows } = await convertAndRunSuite(document(password), social([]));
  assert.match([...flows.values()].join("\n"), /password: \$\{RANDOM\.PASSWORD\}/);
});
