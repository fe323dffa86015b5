/**
 * `convert openapi` on a gRPC-gateway-shaped document (every operation a POST to
 * `/…/<noun>/<verb>`, proto3 bodies that require nothing), as etcd publishes one:
 *
 * - a property whose own description says it is the thing itself ("key is the key, in bytes, to
 *   put …"), or what the operation acts on ("perm is the permission to grant", and the summary
 *   "grants") is sent, as the summary's "cannot be empty" is (`summary_named.ts`);
 * - the item a create names is named again, by value, by the operations of its noun and by the
 *   properties named for that noun or described as its name ("role is the name of the role to
 *   grant"): `role/add {name}` then `role/get {role}`, `user/grant {user, role}` (`rpc_names.ts`);
 * - the last segment is the verb (`/role/add`, `/role/delete`): the delete runs after the reads;
 * - a sample a `format: byte` property's description shows ("aa") is sent as bytes are, base64.
 *
 * Before, etcd's get, grant and delete of a role or user were sent `{}` (412,
 * tests/real/etcd_openapi_test.ts). A body nothing says anything of stays `{}`. The stand-in
 * keeps what is made and refuses an unknown name, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const text = (description?: string) => ({ type: "string", description });
const bytes = (description: string) => ({ type: "string", format: "byte", description });

/** A POST of the tag `Auth` whose body declares `properties` and requires none. */
const post = (tag: string, summary: string, properties: Record<string, unknown>) => ({
  post: {
    tags: [tag],
    summary,
    requestBody: {
      content: { "application/json": { schema: { type: "object", properties } } },
    },
    responses: { "200": { description: "A successful response." } },
  },
});

const document = {
  openapi: "3.0.3",
  info: { title: "Store", version: "1" },
  paths: {
    "/v3/auth/role/add": post("Auth", "RoleAdd adds a new role.", {
      name: text("name is the name of the role to add to the authentication system."),
    }),
    "/v3/auth/role/delete": post("Auth", "RoleDelete deletes a specified role.", { role: text() }),
    "/v3/auth/role/get": post("Auth", "RoleGet gets detailed role information.", { role: text() }),
    "/v3/auth/role/grant": post("Auth", "RoleGrantPermission grants a permission to a role.", {
      name: text("name is the name of the role which will be granted the permission."),
      // A `$ref` with a description of its own, as a Swagger 2.0 gateway's upgraded.
      perm: {
        description: "perm is the permission to grant to the role.",
        $ref: "#/components/schemas/Permission",
      },
    }),
    "/v3/auth/user/add": post("Auth", "UserAdd adds a new user. User name cannot be empty.", {
      name: text(),
      note: text(),
    }),
    "/v3/auth/user/delete": post("Auth", "UserDelete deletes a specified user.", {
      name: text("name is the name of the user to delete."),
    }),
    "/v3/auth/user/get": post("Auth", "UserGet gets detailed user information.", { name: text() }),
    "/v3/auth/user/grant": post("Auth", "UserGrant grants a role to a specified user.", {
      role: text("role is the name of the role to grant to the user."),
      user: text("user is the name of the user which should be granted a given role."),
    }),
    "/v3/kv/put": post("KV", "Put puts the given key into the key-value store.", {
      key: bytes("key is the key, in bytes, to put into the key-value store."),
      value: bytes("value is the value, in bytes, to associate with the key."),
    }),
    "/v3/kv/range": post("KV", "Range gets the keys in the range from the key-value store.", {
      key: bytes("key is the first key for the range."),
      range_end: bytes(
        'If range_end is key plus one (e.g., "aa"+1 == "ab"), all keys prefixed with key.',
      ),
      limit: { type: "string", format: "int64", description: "limit is a limit on the keys." },
    }),
    "/v3/notes/archive": post("Notes", "Archives the notes.", { title: text(), body: text() }),
  },
  components: {
    schemas: {
      Permission: {
        type: "object",
        properties: {
          key: bytes("the key"),
          permType: { type: "string", enum: ["READ", "WRITE"] },
        },
      },
    },
  },
};

/** A stand-in keeping roles, users and keys; refusing a name it does not hold (412). */
function store() {
  const roles = new Set<string>();
  const users = new Set<string>();
  const keys = new Set<string>();
  const bodies = new Map<string, Record<string, unknown>>();
  const refuse = (what: string) => Response.json({ error: what }, { status: 412 });
  const name = (v: unknown) => typeof v === "string" && v !== "" ? v : undefined;
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    const body = await req.json();
    bodies.set(path, body);
    const made = (set: Set<string>, v: unknown) => name(v) !== undefined && set.has(v as string);
    switch (path) {
      case "/v3/auth/role/add":
      case "/v3/auth/user/add":
        if (!name(body.name)) return refuse("name is empty");
        (path.includes("role") ? roles : users).add(body.name);
        break;
      case "/v3/auth/role/get":
      case "/v3/auth/role/delete":
        if (!made(roles, body.role)) return refuse("role not found");
        if (path.endsWith("delete")) roles.delete(body.role);
        break;
      case "/v3/auth/user/get":
      case "/v3/auth/user/delete":
        if (!made(users, body.name)) return refuse("user not found");
        if (path.endsWith("delete")) users.delete(body.name);
        break;
      case "/v3/auth/role/grant":
        // etcd 3.4 dereferences `perm` once the role exists: without one, it crashed.
        if (!made(roles, body.name) || !name(body.perm?.key)) return refuse("no role or perm");
        break;
      case "/v3/auth/user/grant":
        if (!made(users, body.user) || !made(roles, body.role)) return refuse("no such user");
        break;
      case "/v3/kv/put":
        if (!name(body.key)) return refuse("key is not provided");
        keys.add(body.key);
        break;
      case "/v3/kv/range":
        if (!name(body.key)) return refuse("key is not provided");
        // Bytes are base64 in JSON: the description's sample "aa" is the bytes, not their form.
        if (
          body.range_end !== undefined &&
          !/^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2,3}=*)?$/.test(body.range_end)
        ) {
          return Response.json({ error: "illegal base64 data" }, { status: 400 });
        }
    }
    return Response.json({});
  });
  return { server, bodies };
}

Deno.test("convert openapi: a gRPC-gateway document names what its creates made by value, in the fields its descriptions and nouns tie to it; its deletes run last", async () => {
  const { server, bodies } = store();
  const { runs, summary, flows } = await convertAndRunSuite(document, server, { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, run.stdout + summary);
  const sent = (path: string) => bodies.get(path) ?? {};
  assert.equal(sent("/v3/auth/role/get").role, sent("/v3/auth/role/add").name);
  assert.equal(sent("/v3/auth/user/grant").user, sent("/v3/auth/user/add").name);
  assert.equal(sent("/v3/auth/user/grant").role, sent("/v3/auth/role/add").name);
  assert.equal(sent("/v3/kv/range").key, sent("/v3/kv/put").key);
  // Only what the document ties: no note, limit or value, and the archive of notes stays empty.
  assert.deepEqual(Object.keys(sent("/v3/auth/user/add")), ["name"]);
  assert.deepEqual(Object.keys(sent("/v3/kv/range")).sort(), ["key", "range_end"]);
  assert.equal(sent("/v3/kv/range").range_end, btoa("aa"));
  assert.deepEqual(sent("/v3/notes/archive"), {});
  // The run's own names: a var made per run, never a literal.
  assert.match(flows.get("auth.yaml") ?? "", /role: role-\$\{RANDOM\.HEX_8\}/);
});
