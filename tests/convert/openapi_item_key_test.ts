/**
 * `convert openapi` on items whose path parameter is named for none of the
 * create's answer's members, as LoopBack 4's generated controllers write
 * them (`/customers/{id}` of a `Customer` keyed by `custId`, `/users/{id}`
 * of a `User` keyed by its `email`; LoopBack's authentication tutorial app,
 * measured by hand). Before, each such `{id}` was a placeholder the user
 * filled with an item made by hand, which the suite's own deletes removed
 * on its first run: the second run's reads answered 404. Now the key is
 * read from what the document says: the one member of the create's answer
 * its request body leaves out (the key the server made, `custId`), or the
 * member another template names the same item by (`/users/{email}/notes`
 * beside `/users/{id}`). Each run reads back what it made, run after run,
 * on a server that refuses a duplicate.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn, type StandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const ok = (schema: unknown) => ({ "200": { description: "ok", ...json(schema) } });
const text = { type: "string" };
const id = [{ name: "id", in: "path", required: true, schema: text }];
const customer = { type: "object", properties: { custId: text, name: text, city: text } };
const newCustomer = { type: "object", required: ["name"], properties: { name: text, city: text } };
const user = { type: "object", properties: { email: text, firstName: text } };
const note = { type: "object", properties: { text } };

/** The document: two collections whose items' parameter is `{id}`, and a note under a user. */
function document() {
  const item = (schema: unknown) => ({
    get: { parameters: id, responses: ok(schema) },
    delete: { parameters: id, responses: { "204": { description: "gone" } } },
  });
  return {
    openapi: "3.0.0",
    info: { title: "keys", version: "1" },
    paths: {
      "/customers": { post: { requestBody: json(newCustomer), responses: ok(customer) } },
      "/customers/{id}": item(customer),
      "/users": { post: { requestBody: json(user), responses: ok(user) } },
      "/users/{id}": item(user),
      "/users/{email}/notes": {
        post: {
          parameters: [{ name: "email", in: "path", required: true, schema: text }],
          requestBody: json(note),
          responses: ok(note),
        },
      },
    },
  };
}

/** A server keying customers by a number it makes and users by their email, refusing a duplicate. */
function standIn(): StandIn {
  const customers = new Map<string, unknown>();
  const users = new Map<string, unknown>();
  return serveStandIn(async (req) => {
    const path = new URL(req.url).pathname.split("/").map(decodeURIComponent);
    const body = req.method === "POST" ? await req.json() : {};
    const [, collection, key, sub] = path;
    const items = collection === "customers" ? customers : users;
    if (req.method === "POST" && key === undefined) {
      const made = collection === "customers"
        ? { custId: String(customers.size + 1), ...body }
        : body;
      const k = collection === "customers" ? made.custId : body.email;
      if (items.has(k)) return Response.json({ error: "duplicate" }, { status: 409 });
      items.set(k, made);
      return Response.json(made);
    }
    if (!items.has(key)) return Response.json({ error: "not found" }, { status: 404 });
    if (sub === "notes") return Response.json(body);
    if (req.method === "DELETE") {
      items.delete(key);
      return new Response(null, { status: 204 });
    }
    return Response.json(items.get(key));
  });
}

Deno.test("convert openapi: an item's key is the create's server-made member, or the name another path gives it", async () => {
  const { summary, runs } = await convertAndRunSuite(document(), standIn(), { runs: 2 });
  // No item made by hand: each key is read from this run's creates.
  assert.match(summary, /No placeholders to fill in/, summary);
  assert.match(
    summary,
    /\{id\} of GET \/customers\/\{id\} ← POST \/customers \$\.json\.custId/,
    summary,
  );
  assert.match(summary, /\{id\} of GET \/users\/\{id\} ← POST \/users \$\.json\.email/, summary);
  for (const run of runs) assert.equal(run.code, 0, summary + run.stdout);
});
