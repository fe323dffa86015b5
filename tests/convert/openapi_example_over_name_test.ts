/**
 * `convert openapi` on a path parameter the document gives a value for
 * (its example, its schema's example, an enum) that only shares its name
 * with a member of another resource's create. Homebridge UI 5.10.0's own
 * document (measured by hand 2026-11-29, docs/real-servers.md) addresses a
 * bridge as `/api/config-editor/ui/bridges/{username}`, "The MAC address of
 * the bridge", `example: 0E:02:9A:9D:44:45`; the converter read `{username}`
 * from the user `POST /api/users` made (`user1a2b…`), and the server refused
 * the bridge's changes (404 "Invalid bridge username format"). A member of
 * another resource named like the parameter is a guess by name; the
 * document's own value for the parameter is its word, and is sent. Widened
 * to the class: an example on the parameter, on its schema, an enum; and
 * the guess still stands where the document gives no value
 * (`/profiles/{username}` reads the user the run made, as Conduit's does).
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ "application/json": { schema } });
const ok = { "200": { description: "" } };
const user = {
  type: "object",
  properties: { id: { type: "integer" }, username: { type: "string" }, room: { type: "string" } },
  required: ["username"],
};

/** A path of one parameter `name` read with GET, the parameter as `param` says. */
function read(param: Record<string, unknown>) {
  return { parameters: [{ in: "path", required: true, ...param }], get: { responses: ok } };
}

/** Users made here; bridges and rooms the server has; profiles of the users. */
function document(): Record<string, unknown> {
  return {
    openapi: "3.0.3",
    info: { title: "Hub", version: "1" },
    paths: {
      "/users": {
        post: {
          requestBody: { required: true, content: json(user) },
          responses: { "201": { description: "", content: json(user) } },
        },
      },
      "/profiles/{username}": read({ name: "username", schema: { type: "string" } }),
      "/bridges/{username}": read({
        name: "username",
        description: "The MAC address of the bridge",
        example: "0E:02:9A:9D:44:45",
        schema: { type: "string" },
      }),
      "/bridges/{username}/alert": {
        parameters: [{
          name: "username",
          in: "path",
          required: true,
          schema: { type: "string", example: "0E:02:9A:9D:44:45" },
        }],
        put: { responses: ok },
      },
      "/rooms/{room}": read({ name: "room", schema: { type: "string", enum: ["lobby"] } }),
    },
  };
}

/** Refuses a bridge that is no MAC address, a room that is not its one, a profile of no user. */
function hubServer(seen: string[]) {
  const users = new Set<string>();
  return serveStandIn(async (req) => {
    const [collection, key = ""] = new URL(req.url).pathname.split("/").filter((s) => s !== "");
    if (collection === "users") {
      const body = await req.json();
      users.add(body.username);
      return Response.json({ id: users.size, ...body, room: "lobby-2" }, { status: 201 });
    }
    const name = decodeURIComponent(key);
    const found = collection === "bridges"
      ? /^[0-9A-F]{2}(?::[0-9A-F]{2}){5}$/i.test(name)
      : collection === "rooms"
      ? name === "lobby"
      : users.has(name);
    seen.push(`${req.method} /${collection} ${found ? 200 : 404}`);
    return found ? Response.json({ name }) : Response.json({ error: name }, { status: 404 });
  });
}

Deno.test("convert openapi: a parameter's own example beats another resource's member of its name", async () => {
  const seen: string[] = [];
  const { runs, summary, flows } = await convertAndRunSuite(document(), hubServer(seen));
  const steps = [...flows.values()].join("\n");
  for (
    const sent of ["GET /bridges 200", "PUT /bridges 200", "GET /rooms 200", "GET /profiles 200"]
  ) {
    assert.ok(seen.includes(sent), `${sent}: ${seen.join()}\n${summary}\n${steps}`);
  }
  assert.match(runs[0].stdout, /5 steps: 5 passed/, runs[0].stdout);
  // The profile, of which the document gives no value, still reads the user the run made.
  assert.match(summary, /\{username\} of GET \/profiles\/\{username\} ← POST \/users/, summary);
  assert.doesNotMatch(summary, /of (GET|PUT) \/bridges|of GET \/rooms/, summary);
});
