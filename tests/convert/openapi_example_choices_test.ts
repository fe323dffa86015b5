/**
 * `convert openapi`: an example that lists the choices a value has is sent
 * its first choice. Found on a URL shortener's own document, measured by
 * hand (docs/real-servers.md): its link create lists an optional
 * `expire_in` with the example `2 minutes/hours/days`, the form the value
 * takes written with its units side by side; sent as written, the server
 * refused the create (400 "Expire format is invalid"), and each read,
 * update and delete of the link was skipped. Hand-written documents write
 * choices so (`asc|desc`, `name|key|createdAt` for a sort); the value is
 * one of them, the first. Words joined by `|` list choices; joined by `/`,
 * three at least do: two are as often one value (`image/png`,
 * `Europe/Paris`, `owner/repo`), which is sent as written.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

/** Reminders with a repeat interval and a zone, listed in an order. */
function document() {
  return {
    openapi: "3.0.0",
    info: { title: "Reminders", version: "1" },
    paths: {
      "/reminders": {
        post: {
          requestBody: json({
            type: "object",
            required: ["text"],
            properties: {
              text: { type: "string" },
              repeat_every: { type: "string", example: "3 days/weeks/months" },
              zone: { type: "string", example: "Europe/Paris" },
            },
          }),
          responses: {
            "201": {
              description: "Created",
              ...json({ type: "object", properties: { id: { type: "integer" } } }),
            },
          },
        },
        get: {
          parameters: [{
            name: "order",
            in: "query",
            required: true,
            example: "newest|oldest",
            schema: { type: "string" },
          }],
          responses: { "200": { description: "Reminders", ...json({ type: "array", items: {} }) } },
        },
      },
      "/reminders/{id}": {
        delete: {
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
          responses: { "204": { description: "Deleted" } },
        },
      },
    },
  };
}

/** Checks each value's form as a server validating its input does. */
function startServer() {
  const reminders = new Map<number, unknown>();
  const sent: Record<string, unknown>[] = [];
  let next = 1;
  const refuse = (why: string) => Response.json({ error: why }, { status: 400 });
  const stand = serveStandIn(async (req) => {
    const url = new URL(req.url);
    const body = req.method === "POST" ? await req.json() : {};
    sent.push({ path: url.pathname, method: req.method, query: url.search, ...body });
    if (req.method === "POST" && url.pathname === "/reminders") {
      if (!/^\d+ (days|weeks|months)$/.test(String(body.repeat_every ?? "1 days"))) {
        return refuse("Repeat interval is invalid");
      }
      if (body.zone !== undefined && body.zone !== "Europe/Paris") return refuse("Unknown zone");
      reminders.set(next, body);
      return Response.json({ id: next++ }, { status: 201 });
    }
    if (req.method === "GET" && url.pathname === "/reminders") {
      const order = url.searchParams.get("order");
      if (order !== "newest" && order !== "oldest") return refuse("Unknown order");
      return Response.json([...reminders.values()]);
    }
    const id = Number(/^\/reminders\/(\d+)$/.exec(url.pathname)?.[1]);
    if (req.method === "DELETE" && reminders.delete(id)) return new Response(null, { status: 204 });
    return Response.json({ error: "Not found" }, { status: 404 });
  });
  return { ...stand, sent };
}

Deno.test("convert openapi: an example listing choices is sent its first choice", async () => {
  const server = startServer();
  const { runs, flows } = await convertAndRunSuite(document(), server, { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
  const creates = server.sent.filter((s) => s.method === "POST");
  assert.ok(creates.length >= 2, JSON.stringify(server.sent));
  for (const create of creates) {
    assert.equal(create.repeat_every, "3 days", JSON.stringify(create));
    // Two words joined by a slash are one value.
    assert.equal(create.zone, "Europe/Paris", JSON.stringify(create));
  }
  const lists = server.sent.filter((s) => s.method === "GET");
  assert.ok(lists.length >= 2, JSON.stringify(server.sent));
  for (const list of lists) assert.equal(list.query, "?order=newest", JSON.stringify(list));
  assert.ok(server.sent.some((s) => s.method === "DELETE"), JSON.stringify(server.sent));
  const all = [...flows.values()].join("\n");
  assert.doesNotMatch(all, /weeks|oldest/, all);
});
