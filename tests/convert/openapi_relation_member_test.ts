/**
 * `convert openapi` on a create whose body's members are relations: each is
 * `oneOf` an id and the related item (a `$ref` to its schema, as the API
 * answers it expanded), none `required`. Found on Directus 10
 * (tests/real/directus_openapi_test.ts): `POST /operations` sent its
 * document's example ids for `resolve` and `reject` ("The operation
 * triggered when …": operations that do not exist, refused by the foreign
 * key) and left out `flow`, marked `nullable: false` (400 "Validation failed
 * for field "flow". Value is required"), so the operation's read, updates
 * and deletes never ran. An optional relation whose example is an id names
 * an item that must exist, and is left out as a member named for a
 * collection is; one the document marks `nullable: false` cannot be left
 * empty, and is sent the flow's own item of the related schema's create.
 *
 * The stand-in runs on 127.0.0.1 and answers as Directus does.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

/** How the ids are typed: Directus's uuids, or integers (a Strapi-like relation). */
const IDS = {
  uuid: { id: { type: "string", format: "uuid" }, example: "63716273-0f29-4648-8a2a-2af2948f6f78" },
  integer: { id: { type: "integer" }, example: 7 },
};

const document = (ids: (typeof IDS)[keyof typeof IDS]) => {
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const relation = (to: string, description: string) => ({
    description,
    example: ids.example,
    oneOf: [{ type: ids.id.type }, ref(to)],
  });
  const one = (name: string) => ({
    "200": { description: "The item", ...json({ properties: { data: ref(name) } }) },
  });
  const id = { name: "id", in: "path", required: true, schema: { type: ids.id.type } };
  return {
    openapi: "3.0.1",
    info: { title: "Automation", version: "1" },
    components: {
      schemas: {
        Flows: {
          type: "object",
          properties: { id: ids.id, name: { type: "string", example: "Update Articles Flow" } },
        },
        Operations: {
          type: "object",
          properties: {
            id: ids.id,
            name: { type: "string", example: "Log to Console" },
            type: { type: "string", example: "log" },
            resolve: relation("Operations", "The operation triggered when this one succeeds."),
            reject: relation("Operations", "The operation triggered when this one fails."),
            flow: { nullable: false, oneOf: [ids.id, ref("Flows")] },
          },
        },
      },
    },
    paths: {
      "/flows": {
        post: {
          operationId: "createFlow",
          tags: ["Flows"],
          requestBody: json({ anyOf: [ref("Flows")] }),
          responses: one("Flows"),
        },
      },
      "/flows/{id}": {
        get: { operationId: "getFlow", tags: ["Flows"], parameters: [id], responses: one("Flows") },
      },
      "/operations": {
        post: {
          operationId: "createOperation",
          tags: ["Operations"],
          requestBody: json({ anyOf: [ref("Operations")] }),
          responses: one("Operations"),
        },
      },
      "/operations/{id}": {
        get: {
          operationId: "getOperation",
          tags: ["Operations"],
          parameters: [id],
          responses: one("Operations"),
        },
        delete: {
          operationId: "deleteOperation",
          tags: ["Operations"],
          parameters: [id],
          responses: { "204": { description: "Deleted" } },
        },
      },
    },
  };
};

/** Directus's flows and operations: an operation needs its flow, and its relations must exist. */
function standIn(integers: boolean, made: string[]) {
  const flows = new Map<string, unknown>();
  const operations = new Map<string, unknown>();
  let next = 1;
  const newId = () => integers ? next++ : crypto.randomUUID();
  const refused = (message: string) => Response.json({ errors: [{ message }] }, { status: 400 });
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const [, kind, item] = /^\/(flows|operations)(?:\/([^/]+))?$/.exec(pathname) ?? [];
    const table = kind === "flows" ? flows : operations;
    if (kind && !item && req.method === "POST") {
      const body = await req.json();
      const key = String(body.id ?? newId());
      if (table.has(key)) return refused(`Value for field "id" has to be unique.`);
      if (kind === "operations") {
        if (body.flow === undefined) return refused(`Validation failed for field "flow".`);
        for (const f of ["flow", "resolve", "reject"]) {
          const to = f === "flow" ? flows : operations;
          if (body[f] !== undefined && body[f] !== null && !to.has(String(body[f]))) {
            return refused(`Foreign key "${f}" names nothing: ${body[f]}`);
          }
        }
        made.push(key);
      }
      const row = { ...body, id: integers ? Number(key) : key };
      table.set(key, row);
      return Response.json({ data: row });
    }
    if (kind && item && table.has(item) && req.method === "GET") {
      return Response.json({ data: table.get(item) });
    }
    if (kind && item && req.method === "DELETE" && table.delete(item)) {
      return new Response(null, { status: 204 });
    }
    return new Response(null, { status: 404 });
  });
}

for (const [shape, ids] of Object.entries(IDS)) {
  Deno.test(`convert openapi: a create's optional relations are left out, and one marked not nullable is sent the flow's own item (${shape} ids)`, async () => {
    const made: string[] = [];
    const { runs, flows } = await convertAndRunSuite(
      document(ids),
      standIn(shape === "integer", made),
      { runs: 2 },
    );
    for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(made.length, 2);
    const flow = flows.get("operations.yaml") ?? "";
    assert.match(flow, /flow: "?\$\{steps\.create_flow\.capture\.id\}"?/);
    assert.doesNotMatch(flow, /resolve:|reject:/);
  });
}
