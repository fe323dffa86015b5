/**
 * `convert openapi` on a document whose sign-up caps the password's length
 * below the 16 characters `${RANDOM.PASSWORD}` makes. A FastAPI booking API
 * measured by hand (2025) declares its sign-up's `password` with
 * `minLength: 6, maxLength: 12` (pydantic's `Field`): the run's password was
 * 16 characters, the sign-up answered 422 "at most 12 characters", and every
 * flow was skipped (1 of 14 operations). The evidence is the password field's
 * own schema in a request body: the smallest `maxLength` any of them states.
 * The run's password then has exactly that many characters, capitals, small
 * letters, digits and a sign (letters and digits alone when the document says
 * so), still made per run and never written or printed.
 *
 * The stand-in runs on 127.0.0.1 and refuses, as the API does, a password
 * longer than its limit or shorter than 6.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

/** A sign-up answering a token, and a profile behind it; `password` is the field's schema. */
function document(password: Record<string, unknown>) {
  const account = {
    type: "object",
    required: ["username", "password"],
    properties: { username: { type: "string", maxLength: 12 }, password },
  };
  const body = { required: true, content: { "application/json": { schema: account } } };
  const token = { type: "object", properties: { access_token: { type: "string" } } };
  const answer = { description: "OK", content: { "application/json": { schema: token } } };
  return {
    openapi: "3.0.2",
    info: { title: "Rooms", version: "1" },
    paths: {
      "/api/signup": { post: { requestBody: body, responses: { "200": answer } } },
      "/api/me": {
        get: { security: [{ bearer: [] }], responses: { "200": { description: "OK" } } },
      },
    },
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
  };
}

/** The API: passwords of 6 to `limit` characters; `sent` keeps each password it was sent. */
function rooms(limit: number, sent: string[]) {
  const tokens = new Set<string>();
  return serveStandIn(async (req) => {
    if (req.method === "GET") {
      const token = /^Bearer (\S+)$/.exec(req.headers.get("authorization") ?? "")?.[1] ?? "";
      return tokens.has(token) ? Response.json({ id: 1 }) : new Response(null, { status: 401 });
    }
    const { password } = await req.json();
    sent.push(String(password));
    if (typeof password !== "string" || password.length > limit || password.length < 6) {
      return Response.json({ detail: `ensure this value has at most ${limit} characters` }, {
        status: 422,
      });
    }
    const token = crypto.randomUUID();
    tokens.add(token);
    return Response.json({ access_token: token });
  });
}

const cases: [string, Record<string, unknown>, number, RegExp][] = [
  ["maxLength 12", { type: "string", minLength: 6, maxLength: 12 }, 12, /[^A-Za-z0-9]/],
  ["maxLength 8", { type: "string", maxLength: 8 }, 8, /[^A-Za-z0-9]/],
  [
    "maxLength 10, letters and digits",
    {
      type: "string",
      maxLength: 10,
      pattern: "^[a-zA-Z0-9]+$",
    },
    10,
    /^[A-Za-z0-9]+$/,
  ],
];

for (const [what, password, limit, shape] of cases) {
  Deno.test(`a password capped below 16 characters (${what}) is made that long`, async () => {
    const sent: string[] = [];
    const { runs, summary, flows } = await convertAndRunSuite(
      document(password),
      rooms(limit, sent),
      { runs: 2 },
    );
    for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
    assert.doesNotMatch([...flows.values()].join("\n"), /RANDOM\.PASSWORD/);
    assert.ok(sent.length >= 2, "two runs signed up");
    for (const p of sent) {
      assert.equal(p.length, limit, p);
      assert.match(p, shape);
      assert.match(p, /[A-Z]/);
      assert.match(p, /[a-z]/);
      assert.match(p, /[0-9]/);
    }
    assert.notEqual(sent[0], sent[1], "made per run");
    for (const run of runs) {
      for (const p of sent) {
        assert.ok(!`${run.stdout}${run.stderr}`.includes(p), "no password printed");
      }
    }
  });
}

Deno.test("a password capped at 16 or more keeps ${RANDOM.PASSWORD}", async () => {
  const password = { type: "string", maxLength: 64 };
  const { flows } = await convertAndRunSuite(document(password), rooms(64, []));
  assert.match([...flows.values()].join("\n"), /password: \$\{RANDOM\.PASSWORD\}/);
});
