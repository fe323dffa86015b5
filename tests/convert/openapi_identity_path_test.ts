/**
 * `convert openapi` on a document whose read of an account is addressed by
 * the member the login signs in with: `GET /users/{email}/getByEmail` beside
 * `POST /auth/login {email, password}` (an Express social API, 2025). Before,
 * `{email}` was a placeholder, "the email of one that exists", and the read
 * was refused 400 with the value the summary left. The login's body is the
 * evidence of what names an account, and the suite signs up the account it
 * signs in as: a read's path parameter of that very name, a text the
 * document bounds no other way, is the run's own account's (`${vars.email}`,
 * the setup's in a flow that signs in there). Only a read: a write or
 * delete so addressed would change or end the account the suite signs in
 * with.
 *
 * The stand-in runs on 127.0.0.1 and answers 404 for an address it does not hold.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite } from "../support/openapi_suite.ts";
import { emailAccounts } from "../support/email_accounts.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const text = { type: "string" };
const credentials = {
  type: "object",
  properties: { email: text, password: text },
  required: ["email", "password"],
};
const bearer = [{ bearerAuth: [] }];
const byEmail = [{ in: "path", name: "email", required: true, schema: text }];

const document = {
  openapi: "3.0.0",
  info: { title: "Social", version: "1.0.0" },
  components: { securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } } },
  paths: {
    "/auth/register": {
      post: {
        tags: ["Auth"],
        requestBody: json({
          ...credentials,
          properties: { ...credentials.properties, name: text },
        }),
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
    "/users/{email}/getByEmail": {
      get: {
        tags: ["Users"],
        security: bearer,
        parameters: byEmail,
        responses: { "200": { description: "One" } },
      },
    },
    "/users/{email}": {
      delete: {
        tags: ["Users"],
        security: bearer,
        parameters: byEmail,
        responses: { "200": { description: "Gone" } },
      },
    },
  },
};

/** Accounts in memory; a user's read answers for an account that exists. */
function standIn(seen: string[]) {
  return emailAccounts(seen, (_req, pathname, _token, known) => {
    const email = /^\/users\/([^/]+)/.exec(decodeURIComponent(pathname))?.[1] ?? "";
    if (!known(email)) return Response.json({ message: `No user ${email}` }, { status: 404 });
    return Response.json({ email });
  });
}

Deno.test("convert openapi: a read's path parameter named as the login's identity is the run's account", async () => {
  const seen: string[] = [];
  const { runs, summary, flows } = await convertAndRunSuite(document, standIn(seen));
  assert.doesNotMatch(summary, /email of GET \/users\/\{email\}\/getByEmail/, summary);
  const read = seen.find((s) => s.startsWith("GET /users/"));
  assert.match(
    read ?? "",
    /^GET \/users\/user-[0-9a-f]{8}@example\.com\/getByEmail$/,
    seen.join(", "),
  );
  // The delete so addressed is still a placeholder the user fills: it would end the suite's account.
  assert.match(summary, /email of DELETE \/users\/\{email\}/, summary);
  const users = [...flows.values()].find((t) => t.includes("getByEmail")) ?? "";
  assert.ok(
    users.includes("/users/${vars.email}/getByEmail") && users.includes("email: ${setup.email}"),
    users,
  );
  // The read passed (the delete, sent the placeholder, is refused 404).
  assert.doesNotMatch(runs[0].stdout, /✘ get_users_email_get_by_email/, runs[0].stdout);
  assert.match(runs[0].stdout, /✘ delete_users_email/, runs[0].stdout);
});
