/**
 * `convert openapi`: a PATCH of one item whose body requires nothing sends
 * one change, not the examples of every optional member, found on Directus
 * 10 (tests/real/directus_openapi_test.ts). `PATCH /users/{id}`'s body is
 * the user as it is read (`Users`: its id, last access, 2FA secret), and
 * the server refused what a client may not set (400 "You can't change the
 * tfa_secret value manually"); `PATCH /folders/{id}` `{name?, parent?}`
 * sent only `parent: 3`, the example, which names no folder of a fresh
 * server (500). An update changes what it sends: it now sends the first
 * text member that names no item, as an update of nothing did already.
 *
 * The stand-in runs on 127.0.0.1; it refuses a change of a member that is
 * the server's own and a parent that does not exist.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ "application/json": { schema } });
const data = (ref: string) => json({ type: "object", properties: { data: { $ref: ref } } });
const ok = (ref: string) => ({ "200": { description: "OK", content: data(ref) } });
const id = { name: "id", in: "path", required: true, schema: { type: "string" } };

/** Users whose update body is the user as read; folders whose update names a parent. */
function document(): Record<string, unknown> {
  const user = "#/components/schemas/User";
  const folder = "#/components/schemas/Folder";
  return {
    openapi: "3.0.3",
    info: { title: "Accounts", version: "1" },
    paths: {
      "/users": {
        post: { requestBody: { content: json({ $ref: user }) }, responses: ok(user) },
      },
      "/users/{id}": {
        parameters: [id],
        get: { responses: ok(user) },
        patch: { requestBody: { content: json({ $ref: user }) }, responses: ok(user) },
      },
      "/folders": {
        post: {
          requestBody: {
            content: json({
              required: ["name"],
              properties: { name: { type: "string", example: "Amsterdam" } },
            }),
          },
          responses: ok(folder),
        },
      },
      "/folders/{id}": {
        parameters: [id],
        get: { responses: ok(folder) },
        patch: {
          requestBody: {
            content: json({
              properties: {
                name: { type: "string", description: "Name of the folder." },
                parent: {
                  type: "integer",
                  example: 3,
                  description: "Unique identifier of the parent folder.",
                },
              },
            }),
          },
          responses: ok(folder),
        },
      },
    },
    components: {
      schemas: {
        User: {
          type: "object",
          properties: {
            id: { type: "string", example: "63716273-0f29-4648-8a2a-2af2948f6f78" },
            first_name: { type: "string", example: "Admin" },
            email: { type: "string", format: "email", example: "admin@example.com" },
            tfa_secret: { type: "string", nullable: true, example: null },
            last_access: { type: "string", format: "date-time", example: "2020-05-31T14:32:37Z" },
          },
        },
        Folder: {
          type: "object",
          properties: {
            id: { type: "string", example: "0cf0e03d-4364-45df-b77b-ca61f61869d2" },
            name: { type: "string", example: "New York" },
            parent: { type: "string", nullable: true, example: null },
          },
        },
      },
    },
  };
}

/** The server's own members of a user, which no client sets. */
const SERVER_OWN = ["id", "tfa_secret", "last_access"];

function accounts() {
  const items = new Map<string, Record<string, unknown>>();
  const refuse = (message: string, status = 400) =>
    Response.json({ errors: [{ message }] }, { status });
  return serveStandIn(async (req) => {
    const [, kind, key] = new URL(req.url).pathname.split("/");
    const body = req.method === "GET" ? {} : await req.json();
    if (req.method === "POST") {
      const made = { ...body, id: crypto.randomUUID(), kind };
      items.set(made.id, made);
      return Response.json({ data: made });
    }
    const item = items.get(key);
    if (!item || item.kind !== kind) return refuse("Not found", 404);
    if (req.method === "GET") return Response.json({ data: item });
    const own = SERVER_OWN.find((name) => kind === "users" && name in body);
    if (own) return refuse(`You can't change the "${own}" value manually.`);
    if ("parent" in body && !items.has(String(body.parent))) return refuse("No such parent", 500);
    if (Object.keys(body).length === 0) return refuse("Nothing to update");
    Object.assign(item, body);
    return Response.json({ data: item });
  });
}

Deno.test("convert openapi: a PATCH of one item sends one change, not every example", async () => {
  const { runs, flows, summary } = await convertAndRunSuite(document(), accounts());
  const flow = [...flows.values()].join("\n");
  assert.equal(runs[0].code, 0, `${summary}\n${flow}\n${runs[0].stdout}`);
  // The create sends the user whole, as the document shows it; the updates one change each.
  const patches = flow.split("\n  # ").filter((step) => step.startsWith("PATCH"));
  assert.equal(patches.length, 2, flow);
  for (const patch of patches) assert.doesNotMatch(patch, /\bid:|tfa_secret|last_access|parent/);
  assert.match(patches.join("\n"), /first_name: Admin[\s\S]*name: /);
});
