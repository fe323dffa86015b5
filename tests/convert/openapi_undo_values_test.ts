/**
 * `convert openapi`: a call that undoes another (`role/revoke` of `role/grant`, `unsubscribeFeed`
 * of `subscribeFeed`) sends the values that call sent, by the property's name, where its own
 * document gives it none. etcd's `role/revoke {role, key, range_end}` sent the role but no key:
 * its `key` has no description, and proto3 requires nothing, so it revoked nothing the grant
 * had granted (412 "permission is not granted to the role", tests/real/etcd_openapi_test.ts).
 * The evidence is the pair of calls: one path whose last segment (or function name) is the
 * other's with the inverse verb (`grant`/`revoke`, `add`/`remove`, `attach`/`detach`, `X`/`unX`),
 * and a property of the same name, at any depth of what the doing call sent (`perm.key`).
 * A value made anew each time it is read (`${RANDOM…}`) is no value to copy; a property the
 * undoing call already sends, or that nothing of the pair's sent, is left as it was.
 * The stand-in refuses an undo that does not name what was done, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const text = (description?: string, example?: string) => ({ type: "string", description, example });
const bytes = (description?: string) => ({ type: "string", format: "byte", description });

/** A POST of `tag` whose body declares `properties` and requires `required`. */
const post = (tag: string, summary: string, properties: object, required?: string[]) => ({
  post: {
    tags: [tag],
    summary,
    requestBody: {
      content: { "application/json": { schema: { type: "object", properties, required } } },
    },
    responses: { "200": { description: "A successful response." } },
  },
});

const gateway = {
  openapi: "3.0.3",
  info: { title: "Store", version: "1" },
  paths: {
    "/v3/auth/role/add": post("Auth", "RoleAdd adds a new role.", {
      name: text("name is the name of the role to add to the authentication system."),
    }),
    "/v3/auth/role/grant": post("Auth", "RoleGrantPermission grants a permission to a role.", {
      name: text("name is the name of the role which will be granted the permission."),
      perm: {
        description: "perm is the permission to grant to the role.",
        $ref: "#/components/schemas/Permission",
      },
    }),
    "/v3/auth/role/revoke": post(
      "Auth",
      "RoleRevokePermission revokes a key or range permission of a specified role.",
      {
        role: text(),
        key: bytes(),
        range_end: bytes(),
      },
    ),
  },
  components: {
    schemas: {
      Permission: {
        type: "object",
        properties: {
          permType: { type: "string", enum: ["READ", "WRITE"] },
          key: bytes("the key"),
          range_end: bytes("the end of the range"),
        },
      },
    },
  },
};

const functions = {
  openapi: "3.0.3",
  info: { title: "Feeds", version: "1" },
  paths: {
    "/api/subscribeFeed": post("Feeds", "Subscribes to a feed.", {
      feed: text("The feed's name", "news"),
      note: text(),
    }, ["feed"]),
    "/api/unsubscribeFeed": post("Feeds", "Unsubscribes from a feed.", {
      feed: text(),
      note: text(),
    }),
  },
};

/** A stand-in keeping what was granted or subscribed; refusing an undo of anything else (412). */
function store() {
  const done = new Set<string>();
  const bodies = new Map<string, Record<string, unknown>>();
  const refuse = (what: string) => Response.json({ error: what }, { status: 412 });
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    const body = await req.json();
    bodies.set(path, body);
    switch (path) {
      case "/v3/auth/role/grant":
        done.add(JSON.stringify([body.name, body.perm?.key, body.perm?.range_end]));
        break;
      case "/v3/auth/role/revoke": {
        const what = JSON.stringify([body.role, body.key, body.range_end]);
        if (!done.delete(what)) return refuse("permission is not granted to the role");
        break;
      }
      case "/api/subscribeFeed":
        done.add(`feed:${body.feed}`);
        break;
      case "/api/unsubscribeFeed":
        if (!done.delete(`feed:${body.feed}`)) return refuse("not subscribed");
    }
    return Response.json({});
  });
  return { server, bodies };
}

Deno.test("convert openapi: a call undoing another sends what that call sent, by name, at any depth", async () => {
  const { server, bodies } = store();
  const { runs, summary } = await convertAndRunSuite(gateway, server, { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, run.stdout + summary);
  const grant = bodies.get("/v3/auth/role/grant") as { perm: Record<string, unknown> };
  const revoke = bodies.get("/v3/auth/role/revoke") ?? {};
  assert.equal(revoke.key, grant.perm.key);
  assert.equal(revoke.range_end, grant.perm.range_end);
});

Deno.test("convert openapi: an unX function sends what its X sent, and nothing the pair did not send", async () => {
  const { server, bodies } = store();
  const { runs, summary } = await convertAndRunSuite(functions, server, { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, run.stdout + summary);
  assert.equal(bodies.get("/api/unsubscribeFeed")?.feed, "news");
  assert.deepEqual(Object.keys(bodies.get("/api/unsubscribeFeed") ?? {}), ["feed"]);
});
