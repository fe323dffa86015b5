/**
 * `convert openapi`: an update or delete of the item the run made, when its
 * create answers no id, reads that item from the listing by the value the
 * create sent, never by its place. Found on Strapi 5: `POST
 * /users-permissions/roles` answers `{ok: true}`, so the role of `DELETE
 * /users-permissions/roles/{role}` was read as the listing's `roles[0]`, the
 * built-in Authenticated role: the run deleted it, and every later sign-up
 * failed ("Impossible to find the default role"). The stand-ins below keep
 * built-in items first and refuse nothing, as a server trusting its admin
 * does; they run on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const ok = (description: string, schema: unknown) => ({ 200: { description, ...json(schema) } });
const object = (properties: Record<string, unknown>) => ({ type: "object", properties });
const text = { type: "string" };
const OK = object({ ok: { type: "boolean" } });
const param = { name: "id", in: "path", required: true, schema: { type: "string" } };

/** Roles made of `fields` (besides `id`); the create sends `sent`; the listing says `listed`. */
function document(
  fields: Record<string, unknown>,
  sent: Record<string, unknown>,
  listed = "",
  many = false,
) {
  const role = object({ id: { type: "integer" }, ...fields });
  const one = object(sent);
  // A create taking one item or a list of them (Directus's `POST /items/articles`).
  const body = {
    required: true,
    ...json(many ? { oneOf: [{ type: "array", items: one }, one] } : one),
  };
  return {
    openapi: "3.0.3",
    info: { title: "Roles", version: "1" },
    paths: {
      "/roles": {
        get: {
          summary: "List roles",
          responses: ok(`The roles${listed}`, object({ roles: { type: "array", items: role } })),
        },
        post: { summary: "Create a role", requestBody: body, responses: ok("ok", OK) },
      },
      "/roles/{id}": {
        parameters: [param],
        get: { summary: "Get a role", responses: ok("The role", object({ role })) },
        put: { summary: "Update a role", requestBody: body, responses: ok("ok", OK) },
        delete: { summary: "Delete a role", responses: ok("ok", OK) },
      },
    },
  };
}

type Role = Record<string, unknown> & { id: number };

/** A server of roles whose first two are built in; it records each write's id. */
function rolesServer(builtIn: Role[]) {
  const roles: Role[] = builtIn.map((r) => ({ ...r }));
  const writes: string[] = [];
  const made: number[] = [];
  let next = 100;
  const server = serveStandIn(async (req) => {
    const id = Number(new URL(req.url).pathname.split("/")[2]);
    const at = roles.findIndex((r) => r.id === id);
    if (req.method === "POST") {
      for (const item of [await req.json()].flat()) {
        made.push(next);
        roles.push({ ...item, id: next++ });
      }
      return Response.json({ ok: true });
    }
    if (req.method === "GET") {
      if (Number.isNaN(id)) return Response.json({ roles });
      return at < 0 ? Response.json({}, { status: 404 }) : Response.json({ role: roles[at] });
    }
    writes.push(`${req.method} ${id}`);
    if (at < 0) return Response.json({}, { status: 404 });
    if (req.method === "DELETE") roles.splice(at, 1);
    else roles[at] = { ...roles[at], ...await req.json(), id };
    return Response.json({ ok: true });
  });
  return { server, roles, writes, made };
}

const BUILT_IN: Role[] = [
  { id: 1, name: "Authenticated", description: "Default role given to authenticated user." },
  { id: 2, name: "Public", description: "Default role given to unauthenticated user." },
];

Deno.test("convert openapi: the run updates and deletes the role it made, found in the listing by the name it sent", async () => {
  const fields = { name: text, description: text, type: text };
  const sent = { name: { type: "string", example: "foo" }, description: text };
  const { server, roles, writes, made } = rolesServer(BUILT_IN);
  const { runs: [run], flows, summary } = await convertAndRunSuite(
    document(fields, sent),
    server,
  );
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.deepEqual(roles.slice(0, 2).map((r) => r.id), [1, 2], "the built-in roles are kept");
  assert.equal(made.length, 1, summary);
  assert.deepEqual(writes, [`PUT ${made[0]}`, `DELETE ${made[0]}`], [...flows.values()].join());
  assert.match(summary, /\$\.json\.roles\[\?@\.name == '<the name POST \/roles sent>'\]\.id/);
  const flow = [...flows.values()].join();
  const own = /path: \$\.json\.roles\[\?@\.name == '\$\{vars\.(\w+)\}'\]\.id/.exec(flow)?.[1];
  assert.ok(own, flow);
  assert.match(
    flow,
    new RegExp(`^ {6}url: .*/roles\n {6}body:\n {8}name: \\$\\{vars\\.${own}\\}`, "m"),
  );
});

Deno.test("convert openapi: with nothing to tell the run's own role from the others, its update and delete are left out, saying why", async () => {
  // The create sends only permissions; the listed items show none of them.
  const fields = { name: text, description: text };
  const sent = { permissions: { type: "array", items: text } };
  const { server, roles, writes, made } = rolesServer(BUILT_IN);
  const { runs: [run], flows, summary } = await convertAndRunSuite(
    document(fields, sent),
    server,
  );
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.equal(made.length, 1);
  assert.deepEqual(writes, [], [...flows.values()].join());
  assert.equal(roles.length, 3);
  assert.match(summary, /PUT \/roles\/\{id\}, DELETE \/roles\/\{id\}/);
  assert.match(summary, /no way to tell the run's own role from the others in GET \/roles/);
});

Deno.test("convert openapi: a listing the document says is ordered by creation, oldest first, gives the run's own as its last item", async () => {
  const fields = { name: text, description: text };
  const sent = { permissions: { type: "array", items: text } };
  const { server, roles, writes, made } = rolesServer(BUILT_IN);
  const listed = ", ordered by creation date, oldest first";
  const { runs: [run], flows } = await convertAndRunSuite(document(fields, sent, listed), server);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.deepEqual(writes, [`PUT ${made[0]}`, `DELETE ${made[0]}`], [...flows.values()].join());
  assert.deepEqual(roles.map((r) => r.id), [1, 2]);
});

Deno.test("convert openapi: a create taking a list of items or one finds its own by the name it sent in the list's item", async () => {
  const fields = { name: text, description: text };
  const sent = { name: text, description: text };
  const { server, roles, writes, made } = rolesServer(BUILT_IN);
  const { runs: [run], flows } = await convertAndRunSuite(
    document(fields, sent, "", true),
    server,
  );
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.equal(made.length, 1);
  assert.deepEqual(writes, [`PUT ${made[0]}`, `DELETE ${made[0]}`], [...flows.values()].join());
  assert.deepEqual(roles.map((r) => r.id), [1, 2]);
});
