/**
 * `convert openapi`: a body's list of names of things the API makes (the
 * bulk switches' `features: [feature-a, feature-b]`) names the flow's own
 * item, and such a step runs among the deletes. Found on Unleash 8.2.0
 * (tests/real/unleash_openapi_test.ts): the bulk switches sent the
 * document's example names, which exist nowhere (404), though the flow
 * had made a feature of its own. The evidence is the document's: the
 * property is named for a collection whose items its paths address
 * (`features` → `/features/{featureName}`), and the flow holds a value for
 * that parameter. A bulk operation may archive what it lists (`POST
 * /archive`), which the document does not tell from a switch, so these
 * steps run after the item's reads and updates.
 *
 * The stand-in below refuses an unknown name as Unleash does (404) and
 * archives at `POST /archive` and `DELETE /features/{featureName}`, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ "application/json": { schema } });
const param = (name: string) => ({ name, in: "path", required: true, schema: { type: "string" } });
const ok = (schema?: unknown) => ({
  "200": { description: "OK", ...(schema ? { content: json(schema) } : {}) },
});
const feature = {
  type: "object",
  required: ["name"],
  properties: { name: { type: "string", example: "disable-comments" } },
};
/** A request body of a list of features' names, with the document's example names. */
const listed = {
  required: true,
  content: json({
    type: "object",
    required: ["features"],
    properties: {
      features: { type: "array", items: { type: "string" }, example: ["feature-a", "feature-b"] },
    },
  }),
};

/** Features created, read, updated, switched in bulk, archived one by one or in bulk. */
function document(): Record<string, unknown> {
  return {
    openapi: "3.0.3",
    info: { title: "Flags", version: "1" },
    tags: [{ name: "Features" }],
    paths: {
      "/api/features": {
        get: { tags: ["Features"], operationId: "getFeatures", responses: ok() },
        post: {
          tags: ["Features"],
          operationId: "createFeature",
          requestBody: { required: true, content: json(feature) },
          responses: ok(feature),
        },
      },
      "/api/features/{featureName}": {
        parameters: [param("featureName")],
        get: { tags: ["Features"], operationId: "getFeature", responses: ok(feature) },
        put: {
          tags: ["Features"],
          operationId: "updateFeature",
          requestBody: { required: true, content: json(feature) },
          responses: ok(feature),
        },
        delete: { tags: ["Features"], operationId: "archiveFeature", responses: ok() },
      },
      "/api/bulk_features/on": {
        post: {
          tags: ["Features"],
          operationId: "bulkOn",
          requestBody: listed,
          responses: ok(),
        },
      },
      "/api/archive": {
        post: {
          tags: ["Features"],
          operationId: "archiveFeatures",
          requestBody: listed,
          responses: ok(),
        },
      },
    },
  };
}

/** The stand-in: live and archived features, and each request's method, path and body. */
function startServer() {
  const live = new Set<string>();
  const archived = new Set<string>();
  const log: string[] = [];
  const bulk: unknown[] = [];
  const stand = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    const body = req.method === "GET" || req.method === "DELETE" ? undefined : await req.json();
    log.push(`${req.method} ${path}`);
    const one = /^\/api\/features\/([^/]+)$/.exec(path)?.[1];
    const known = (name: unknown) => typeof name === "string" && live.has(name);
    if (path === "/api/features" && req.method === "GET") return Response.json([...live]);
    if (path === "/api/features" && req.method === "POST") {
      if (live.has(body.name) || archived.has(body.name)) {
        return new Response(null, { status: 409 });
      }
      live.add(body.name);
      return Response.json({ name: body.name });
    }
    // Archiving one archived already is no error (Unleash 8.2 answers 200).
    if (one !== undefined && req.method === "DELETE" && (known(one) || archived.has(one))) {
      live.delete(one);
      archived.add(one);
      return new Response(null, { status: 200 });
    }
    if (one !== undefined && !known(one)) return new Response(null, { status: 404 });
    if (one !== undefined) return Response.json({ name: one });
    const names: unknown[] = Array.isArray(body?.features) ? body.features : [];
    bulk.push(body);
    if (path === "/api/bulk_features/on") {
      return new Response(null, { status: names.every(known) ? 200 : 404 });
    }
    if (path === "/api/archive") {
      if (!names.every(known)) return new Response(null, { status: 404 });
      for (const n of names) if (live.delete(n as string)) archived.add(n as string);
      return new Response(null, { status: 200 });
    }
    return new Response(null, { status: 404 });
  });
  return { ...stand, live, archived, log, bulk };
}

Deno.test("convert openapi: a body's list of names of a collection's items names the flow's own item, after its reads and updates", async () => {
  const server = startServer();
  const { runs, flows } = await convertAndRunSuite(document(), server, { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
  const flow = flows.get("features.yaml")!;
  assert.match(flow, /features: \["\$\{steps\.create_feature\.capture\.featureName\}"\]/);
  assert.doesNotMatch(flow, /feature-a/);
  // Both bulk bodies of both runs named the feature that run made, and nothing else.
  assert.equal(server.bulk.length, 4);
  const made = [...server.archived];
  assert.equal(made.length, 2);
  assert.deepEqual(server.bulk.map((b) => (b as { features: string[] }).features), [
    [made[0]],
    [made[0]],
    [made[1]],
    [made[1]],
  ]);
  // The item's own reads and update came before the bulk steps, which may archive it, and
  // those before the item's own delete, which may remove it.
  const first = server.log.slice(0, server.log.length / 2);
  const at = (line: string) => first.findIndex((l) => l.startsWith(line));
  assert.ok(at("PUT /api/features/") < at("POST /api/bulk_features/on"), first.join("\n"));
  assert.ok(at("GET /api/features/") < at("POST /api/archive"), first.join("\n"));
  assert.ok(at("POST /api/bulk_features/on") < at("DELETE /api/features/"), first.join("\n"));
});

Deno.test("convert openapi: a list named for a collection the flow made nothing of keeps the document's names", async () => {
  const doc = document() as { paths: Record<string, unknown> };
  delete doc.paths["/api/features"];
  const server = startServer();
  const { flows } = await convertAndRunSuite(doc, server);
  assert.match(flows.get("features.yaml")!, /features: \[feature-a, feature-b\]/);
});

Deno.test("convert openapi: a list of names in another tag's flow copies in the create of such an item", async () => {
  // Unleash's bulk tag change (`PUT /projects/{projectId}/tags {features: [...]}`, tag "Tags")
  // sent the document's example names from a flow that made no feature: 500.
  const doc = document() as { paths: Record<string, Record<string, unknown>> };
  doc.paths["/api/bulk_features/on"].post = {
    ...doc.paths["/api/bulk_features/on"].post as object,
    tags: ["Tags"],
  };
  const server = startServer();
  const { runs, flows } = await convertAndRunSuite(doc, server, { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
  const flow = flows.get("tags.yaml")!;
  assert.match(flow, /- name: create_feature\n/);
  assert.match(flow, /features: \["\$\{steps\.create_feature\.capture\.featureName\}"\]/);
  assert.doesNotMatch(flow, /feature-a/);
  // Every list sent named a feature a flow of the run made, none the document's example.
  const made = new Set([...server.live, ...server.archived]);
  assert.ok(server.bulk.length >= 4, JSON.stringify(server.bulk));
  for (const b of server.bulk) {
    for (const name of (b as { features: string[] }).features) assert.ok(made.has(name), name);
  }
});

Deno.test("convert openapi: a list of text is not filled from a create answering a number", async () => {
  // Unleash's Edge validation lists token secrets (`tokens: [...]`), and a personal access token
  // is `/user/tokens/{id}`, its id an integer: the validation keeps the document's values.
  const token = { type: "object", properties: { id: { type: "integer" } } };
  const doc = {
    openapi: "3.0.3",
    info: { title: "Tokens", version: "1" },
    paths: {
      "/api/tokens": {
        post: { tags: ["Tokens"], operationId: "createToken", responses: ok(token) },
      },
      "/api/tokens/{id}": {
        parameters: [param("id")],
        get: { tags: ["Tokens"], operationId: "getToken", responses: ok(token) },
      },
      "/edge/validate": {
        post: {
          tags: ["Edge"],
          operationId: "validate",
          requestBody: {
            required: true,
            content: json({
              type: "object",
              required: ["tokens"],
              properties: {
                tokens: { type: "array", items: { type: "string" }, example: ["p:dev.secret"] },
              },
            }),
          },
          responses: ok(),
        },
      },
    },
  };
  const server = serveStandIn(() => Response.json({ id: 1 }));
  const { flows } = await convertAndRunSuite(doc, server);
  const edge = flows.get("edge.yaml")!;
  assert.match(edge, /tokens: \[p:dev\.secret\]/);
  assert.doesNotMatch(edge, /create_token/);
});
