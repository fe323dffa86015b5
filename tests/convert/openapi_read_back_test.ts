/**
 * A write whose JSON body schema says nothing (no type, no properties: what
 * `@nestjs/swagger` writes for a body typed `any`) to a path whose GET reads
 * the same resource sends back what that GET answered: the document shows
 * the resource only through its read. Homebridge UI's `POST
 * /api/config-editor` ("Update the Homebridge `config.json` file") was sent
 * `null`, which the UI took for a new file: it wrote a fresh default over
 * the config, without the UI's own settings, and every later change to them
 * failed (500); its `PUT /api/server/ports` ("Object with start and end
 * properties.") was sent `null` too (500). A read-back runs after the read
 * in its flow, and a write whose body the document describes is sent as
 * before.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

const DOC = {
  openapi: "3.0.0",
  info: { title: "Hub", version: "1" },
  paths: {
    "/config": {
      get: { tags: ["Config"], responses: { "200": { description: "" } } },
      post: {
        tags: ["Config"],
        summary: "Update the config file.",
        requestBody: { required: true, description: "The config file", ...json({}) },
        responses: { "201": { description: "" } },
      },
    },
    "/config/hidden": {
      get: { tags: ["Config"], responses: { "200": { description: "" } } },
      put: {
        tags: ["Config"],
        requestBody: { required: true, ...json({ type: "array", items: {} }) },
        responses: { "200": { description: "" } },
      },
    },
    "/config/name": {
      get: { tags: ["Config"], responses: { "200": { description: "" } } },
      put: {
        tags: ["Config"],
        requestBody: json({ type: "object", properties: { name: { type: "string" } } }),
        responses: { "200": { description: "" } },
      },
    },
  },
};

Deno.test("a write of a body the document does not describe sends back what the same path's read answers", async () => {
  const config = { bridge: { name: "Hub", port: 51826 }, platforms: [{ platform: "ui" }] };
  let hidden: unknown = ["a-plugin"];
  const written: string[] = [];
  const server = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "GET" && path === "/config") return Response.json(config);
    if (req.method === "GET" && path === "/config/hidden") return Response.json(hidden);
    if (req.method === "GET" && path === "/config/name") return Response.json({ name: "Hub" });
    const body = await req.json().catch(() => undefined);
    written.push(`${req.method} ${path} ${JSON.stringify(body)}`);
    if (path === "/config") {
      const whole = JSON.stringify(body) === JSON.stringify(config);
      return whole ? Response.json(body, { status: 201 }) : new Response("no", { status: 500 });
    }
    if (path === "/config/hidden") {
      if (!Array.isArray(body) || body.some((x) => typeof x !== "string")) {
        return new Response("no", { status: 500 });
      }
      hidden = body;
      return Response.json(body);
    }
    return Response.json({ name: body?.name });
  });
  const { runs } = await convertAndRunSuite(DOC, server);
  assert.equal(runs[0].code, 0, runs[0].stdout);
  const sorted = written.sort();
  assert.deepEqual(sorted.slice(0, 2), [
    `POST /config ${JSON.stringify(config)}`,
    'PUT /config/hidden ["a-plugin"]',
  ]);
  // The described body is made from its schema, as before (its one member: lone_member.ts), not
  // the read's answer (`"Hub"`).
  assert.match(sorted[2], /^PUT \/config\/name \{"name":"name-[0-9a-f]+"\}$/);
  assert.equal(sorted.length, 3);
});
