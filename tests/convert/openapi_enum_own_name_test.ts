/**
 * `convert openapi` on a create whose body property another path reads as
 * its last parameter, where that property is one of an `enum` (SReview's
 * talk `state`, read back by `GET /event/{eventId}/bystate/{state}`): the
 * link made it the run's own name, so the create sent
 * `waiting-${RANDOM.HEX_8}`, which the enum refuses (400: "Not in enum
 * list"), and every step reading the talk was skipped. The enum lists every
 * value the server takes, so the value is sent as the document gives it.
 * The stand-in runs on 127.0.0.1 and refuses what its enum does not list.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const STATES = ["waiting", "cutting", "done"];
const TALK = {
  type: "object",
  properties: {
    id: { type: "integer" },
    state: { type: "string", enum: STATES, default: "waiting" },
  },
};
const param = (name: string, type = "integer") => ({
  name,
  in: "path",
  required: true,
  schema: { type },
});

const DOCUMENT = {
  openapi: "3.0.0",
  info: { title: "talks", version: "1" },
  paths: {
    "/talk": {
      post: {
        tags: ["talk"],
        requestBody: json({ $ref: "#/components/schemas/Talk" }),
        responses: { 200: { description: "Made", ...json({ $ref: "#/components/schemas/Talk" }) } },
      },
    },
    "/talk/{talkId}": {
      get: {
        tags: ["talk"],
        parameters: [param("talkId")],
        responses: { 200: { description: "One", ...json({ $ref: "#/components/schemas/Talk" }) } },
      },
    },
    "/talk/bystate/{state}": {
      get: {
        tags: ["talk"],
        parameters: [param("state", "string")],
        responses: { 200: { description: "Those", ...json({ type: "array", items: TALK }) } },
      },
    },
  },
  components: { schemas: { Talk: TALK } },
};

Deno.test("convert openapi: a created item's enum property another path reads is sent as the document gives it", async () => {
  const talks: { id: number; state: string }[] = [];
  const server = serveStandIn(async (req) => {
    const parts = new URL(req.url).pathname.split("/").filter((p) => p !== "");
    if (req.method === "POST") {
      const body = await req.json();
      const state = body.state ?? "waiting";
      if (!STATES.includes(state)) {
        return Response.json({ errors: [{ message: "Not in enum list", path: "/body/state" }] }, {
          status: 400,
        });
      }
      talks.push({ id: talks.length + 1, state });
      return Response.json(talks.at(-1));
    }
    if (parts[1] === "bystate") return Response.json(talks.filter((t) => t.state === parts[2]));
    const talk = talks.find((t) => t.id === Number(parts[1]));
    return talk ? Response.json(talk) : new Response("not found", { status: 404 });
  });
  const { runs: [run], flows } = await convertAndRunSuite(DOCUMENT, server);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.equal(talks.length, 1, run.stdout);
  assert.ok(
    ![...flows.values()].some((f) => /waiting-\$\{RANDOM/.test(f)),
    [...flows.values()].join("\n"),
  );
});
