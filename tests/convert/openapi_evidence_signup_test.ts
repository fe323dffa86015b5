/**
 * `convert openapi`: a sign-up that only inherits the root's `security`
 * requirement is known by what the document says of it, not by its path's
 * words. Before, only a path segment `signup`, `register` or `registration`
 * made such a create the run's sign-up, so a document whose account is made
 * by `POST /accounts` or `POST /users` (the root's bearer on everything,
 * overridden nowhere, as LoopBack 4 writes it) had its creates read as
 * needing the login's token: the summary asked the user for `LOGIN_EMAIL`
 * and `LOGIN_PASSWORD`. The evidence now: the create takes the login's
 * credentials (same names, same types and formats) and answers an account
 * made (a 201, the schema a `/me` read answers, or the login's identity);
 * a create listing a 401 or 403 (an admin's) or stating its own
 * requirement still needs the token. The stand-in on 127.0.0.1 checks every
 * token it issued and lets each account read only itself (403 otherwise).
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const text = { type: "string" };
const credentials = {
  type: "object",
  required: ["email", "password"],
  properties: { email: { type: "string", format: "email" }, password: text },
};
const account = { type: "object", properties: { id: text, email: text, name: text } };
const note = { type: "object", required: ["title"], properties: { title: text } };

/**
 * How the create says it made an account: 201, the `/me` read's schema, the login's email, or
 * (`bare`) by taking the login's very body and answering nothing described (a notes API's
 * `POST /api/user/signup` answers `200: Account created` and nothing else).
 */
type Answer = "created" | "me" | "identity" | "bare";

/** Which case: a sign-up, one listing 403, one stating its own requirement, one of other types. */
type Variant = "signup" | "refuses" | "states" | "retyped";

/** The document: the root's bearer everywhere, the account made by `POST {path}`. */
function document(path: string, answer: Answer, variant: Variant = "signup") {
  const body = {
    ...credentials,
    properties: {
      ...credentials.properties,
      ...variant === "retyped" ? { email: { type: "integer" } } : {},
      ...answer === "bare" ? {} : { name: text },
    },
  };
  const responses = {
    [answer === "created" ? 201 : 200]: {
      description: "The account",
      ...answer === "bare"
        ? {}
        : json(answer === "me" ? { $ref: "#/components/schemas/Account" } : account),
    },
    ...variant === "refuses" ? { 403: { description: "Administrators only" } } : {},
  };
  return {
    openapi: "3.0.0",
    info: { title: "evidence", version: "1" },
    security: [{ jwt: [] }],
    components: {
      securitySchemes: { jwt: { type: "http", scheme: "bearer" } },
      schemas: { Account: account },
    },
    paths: {
      [path]: {
        post: {
          ...variant === "states" ? { security: [{ jwt: [] }] } : {},
          requestBody: { required: true, ...json(body) },
          responses,
        },
      },
      "/auth/login": {
        post: {
          requestBody: { required: true, ...json(credentials) },
          responses: { 200: { description: "Token", ...json({ properties: { token: text } }) } },
        },
      },
      "/me": {
        get: {
          responses: {
            200: { description: "Me", ...json({ $ref: "#/components/schemas/Account" }) },
          },
        },
      },
      "/notes": {
        post: {
          requestBody: { required: true, ...json(note) },
          responses: { 201: { description: "Note", ...json(note) } },
        },
      },
    },
  };
}

/** Accounts made at `path`, tokens issued by the login, every other call checked. */
function standIn(path: string, answer: Answer = "created") {
  const accounts = new Map<string, { id: string; email: string; name: string; password: string }>();
  const tokens = new Map<string, string>();
  const counted = { signUps: 0, logins: 0, refused: 0 };
  const server = serveStandIn(async (req) => {
    const at = new URL(req.url).pathname;
    if (at === path && req.method === "POST") {
      const { email, password, name } = await req.json();
      if (!email || !password || accounts.has(email)) return new Response(null, { status: 422 });
      accounts.set(email, { id: crypto.randomUUID(), email, name, password });
      counted.signUps++;
      const { password: _, ...shown } = accounts.get(email)!;
      return Response.json(shown, { status: answer === "created" ? 201 : 200 });
    }
    if (at === "/auth/login") {
      const { email, password } = await req.json();
      if (accounts.get(email)?.password !== password) return new Response(null, { status: 401 });
      counted.logins++;
      const token = crypto.randomUUID();
      tokens.set(token, email);
      return Response.json({ token });
    }
    const token = /^Bearer (.+)$/.exec(req.headers.get("authorization") ?? "")?.[1];
    const me = token && accounts.get(tokens.get(token) ?? "");
    if (!me) {
      counted.refused++;
      return new Response(null, { status: 401 });
    }
    if (at === "/me") return Response.json({ id: me.id, email: me.email, name: me.name });
    return Response.json(await req.json(), { status: 201 });
  });
  return { server, counted };
}

const cases: [string, Answer][] = [
  ["/accounts", "created"],
  ["/users", "me"],
  ["/people", "identity"],
  ["/signup", "identity"],
  ["/members", "bare"],
];
for (const [path, answer] of cases) {
  Deno.test(`convert openapi: POST ${path} taking the login's credentials and answering the account (${answer}) makes the run's account under the root's security`, async () => {
    const { server, counted } = standIn(path, answer);
    const { runs, summary } = await convertAndRunSuite(document(path, answer), server, {
      runs: 2,
    });
    assert.doesNotMatch(summary, /LOGIN_EMAIL|LOGIN_PASSWORD/, summary);
    for (const run of runs) assert.equal(run.code, 0, summary + run.stdout + run.stderr);
    assert.equal(counted.refused, 0);
    assert.ok(counted.signUps >= 2 && counted.logins >= 2, JSON.stringify(counted));
  });
}

for (
  const [variant, answer] of [
    ["refuses", "created"],
    ["states", "created"],
    ["retyped", "created"],
    ["refuses", "bare"],
  ] as const
) {
  Deno.test(`convert openapi: a create of accounts that ${variant} (${answer}) is no sign-up: the user's account is asked`, async () => {
    const { server } = standIn("/accounts");
    const doc = document("/accounts", answer, variant);
    const { summary } = await convertAndRunSuite(doc, server, { runs: 0 });
    assert.match(summary, /LOGIN_EMAIL: .*no operation registers one/, summary);
  });
}
