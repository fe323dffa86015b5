/**
 * `convert openapi` on the shape of Unleash's admin API (its own document,
 * `/docs/openapi.json`), found on the real server (tests/real/unleash_openapi_test.ts):
 *
 * - an item addressed by a name the client chose, its parameter named for
 *   the collection's noun and the property (`{featureName}` of
 *   `/projects/{projectId}/features/{featureName}`, the created feature's
 *   `name`), was sent as the placeholder `string` (404), with every
 *   operation on the feature after it;
 * - that name, the document's example (`disable-comments`), was created
 *   once per flow that needs a feature (the create is copied into each), so
 *   every flow but the first was refused (409: the name exists), and so
 *   was a second run; the same for a name handed back only in a `Location`
 *   header (`POST /context` → `/context/subscriptionTier`);
 * - a create's property that names an existing thing it belongs to, read
 *   by a parameter before the item's own (`type` of
 *   `/features/{featureName}/tags/{type}/{value}`, a tag type that exists),
 *   stays the document's example (`simple`): a run's own type is refused
 *   (400: the tag type does not exist);
 * - an item nothing creates (`{name}` of `/environments/{name}`) was read
 *   from an unrelated create that answers a `name` (the feature's: 404)
 *   where its own collection's listing (`GET /environments`) holds one;
 * - the maintenance switch (`POST /api/admin/maintenance {"enabled": true}`)
 *   ran beside the other flows, and the server refused every change after
 *   it (503) until someone switched it off: it is left out like a shutdown.
 *
 * The stand-in server below answers as Unleash does, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ "application/json": { schema } });
const named = {
  type: "object",
  required: ["name"],
  properties: { name: { type: "string", example: "disable-comments" } },
};
const feature = {
  type: "object",
  properties: { name: { type: "string" }, project: { type: "string" } },
};
const contextField = {
  type: "object",
  required: ["name"],
  properties: {
    name: { type: "string", example: "subscriptionTier" },
    description: { type: "string", example: "The user's subscription tier" },
  },
};
const tag = {
  type: "object",
  required: ["value", "type"],
  properties: {
    value: { type: "string", example: "a-tag-value" },
    type: { type: "string", example: "simple" },
  },
};
const param = (name: string) => ({ name, in: "path", required: true, schema: { type: "string" } });
const ok = (schema?: unknown) => ({
  "200": { description: "OK", ...(schema ? { content: json(schema) } : {}) },
});

/** The parts of Unleash's admin document the defects showed in, as it writes them. */
function unleashDocument(): Record<string, unknown> {
  const tags = (t: string) => ({ tags: [t] });
  const featureItem = "/api/admin/projects/{projectId}/features/{featureName}";
  return {
    openapi: "3.0.3",
    info: { title: "Unleash API", version: "8.2.0" },
    servers: [],
    paths: {
      "/api/admin/projects": {
        get: {
          ...tags("Projects"),
          operationId: "getProjects",
          responses: ok({
            type: "object",
            properties: {
              version: { type: "integer" },
              projects: {
                type: "array",
                items: { type: "object", properties: { id: { type: "string" } } },
              },
            },
          }),
        },
      },
      "/api/admin/projects/{projectId}/features": {
        parameters: [param("projectId")],
        post: {
          ...tags("Features"),
          operationId: "createFeature",
          requestBody: { required: true, content: json(named) },
          responses: ok(feature),
        },
      },
      [featureItem]: {
        parameters: [param("projectId"), param("featureName")],
        get: { ...tags("Features"), operationId: "getFeature", responses: ok(feature) },
        delete: { ...tags("Features"), operationId: "archiveFeature", responses: ok() },
      },
      "/api/admin/client-metrics/features/{featureName}": {
        parameters: [param("featureName")],
        get: { ...tags("Metrics"), operationId: "getFeatureMetrics", responses: ok() },
      },
      "/api/client/features": {
        get: {
          ...tags("Client"),
          operationId: "getAllClientFeatures",
          responses: ok({
            type: "object",
            properties: {
              segments: {
                type: "array",
                items: { type: "object", properties: { id: { type: "integer" } } },
              },
              features: { type: "array", items: feature },
            },
          }),
        },
      },
      "/api/client/features/{featureName}": {
        parameters: [param("featureName")],
        get: { ...tags("Client"), operationId: "getClientFeature", responses: ok(feature) },
      },
      "/api/admin/features/{featureName}/tags": {
        parameters: [param("featureName")],
        post: {
          ...tags("Features"),
          operationId: "addTag",
          requestBody: { required: true, content: json(tag) },
          responses: { "201": { description: "Created", content: json(tag) } },
        },
      },
      "/api/admin/features/{featureName}/tags/{type}/{value}": {
        parameters: [param("featureName"), param("type"), param("value")],
        delete: { ...tags("Features"), operationId: "removeTag", responses: ok() },
      },
      "/api/admin/environments": {
        get: {
          ...tags("Environments"),
          operationId: "getAllEnvironments",
          responses: ok({
            type: "object",
            properties: {
              version: { type: "integer" },
              environments: {
                type: "array",
                items: { type: "object", properties: { name: { type: "string" } } },
              },
            },
          }),
        },
      },
      "/api/admin/environments/{name}": {
        parameters: [param("name")],
        get: { ...tags("Environments"), operationId: "getEnvironment", responses: ok() },
      },
      "/api/admin/maintenance": {
        get: { ...tags("Maintenance"), operationId: "getMaintenance", responses: ok() },
        post: {
          ...tags("Maintenance"),
          operationId: "toggleMaintenance",
          summary: "Enabled/disabled maintenance mode",
          requestBody: {
            required: true,
            content: json({
              type: "object",
              required: ["enabled"],
              properties: { enabled: { type: "boolean", example: true } },
            }),
          },
          responses: { "204": { description: "This response has no body." } },
        },
      },
      "/api/admin/context": {
        post: {
          ...tags("Context"),
          operationId: "createContextField",
          requestBody: { required: true, content: json(contextField) },
          responses: {
            "201": {
              description: "Created",
              headers: { location: { schema: { type: "string" } } },
              content: json(contextField),
            },
          },
        },
      },
      "/api/admin/context/{contextField}": {
        parameters: [param("contextField")],
        get: { ...tags("Context"), operationId: "getContextField", responses: ok(contextField) },
      },
      "/api/admin/context/{contextField}/strategies": {
        parameters: [param("contextField")],
        get: { ...tags("Strategies"), operationId: "getStrategiesByContext", responses: ok() },
      },
    },
  };
}

/** A running stand-in. */
interface Unleash {
  base: string;
  seen: string[];
  close(): Promise<void>;
}

/**
 * Answers as Unleash 8.2.0 does: one project `default`, features and
 * context fields by the name the client chose (409 for a name that exists,
 * 404 for one that does not); the client API lists the features after a
 * segment list.
 */
function startUnleash(): Unleash {
  const features = new Set<string>();
  const fields = new Map<string, unknown>();
  const seen: string[] = [];
  let maintenance = false;
  const notFound = () => Response.json({ name: "NotFoundError" }, { status: 404 });
  const exists = () => Response.json({ name: "NameExistsError" }, { status: 409 });
  const stand = serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const route = `${req.method} ${pathname}`;
    seen.push(route);
    const body = req.method === "POST" ? await req.json() : undefined;
    if (route === "GET /api/admin/environments") {
      return Response.json({ version: 1, environments: [{ name: "development" }] });
    }
    if (route === "GET /api/admin/environments/development") {
      return Response.json({ name: "development" });
    }
    if (route === "GET /api/admin/maintenance") return Response.json({ enabled: maintenance });
    if (route === "POST /api/admin/maintenance") {
      maintenance = body.enabled;
      return new Response(null, { status: 204 });
    }
    if (maintenance && req.method !== "GET") {
      return Response.json({ name: "MaintenanceError" }, { status: 503 });
    }
    if (route === "GET /api/admin/projects") {
      return Response.json({ version: 1, projects: [{ id: "default" }] });
    }
    if (route === "POST /api/admin/projects/default/features") {
      if (features.has(body.name)) return exists();
      features.add(body.name);
      return Response.json({ name: body.name, project: "default" });
    }
    if (route === "GET /api/client/features") {
      return Response.json({
        segments: [{ id: 1 }],
        features: [...features].map((name) => ({ name, project: "default" })),
      });
    }
    if (route === "POST /api/admin/context") {
      if (fields.has(body.name)) return exists();
      fields.set(body.name, body);
      return Response.json(body, {
        status: 201,
        headers: { location: `context/${encodeURIComponent(body.name)}` },
      });
    }
    const feature =
      /^\/api\/(?:admin\/projects\/default|admin\/client-metrics|client)\/features\/([^/]+)$/
        .exec(pathname)?.[1];
    if (feature !== undefined) {
      const name = decodeURIComponent(feature);
      if (!features.has(name)) return notFound();
      if (req.method === "DELETE") features.delete(name);
      return Response.json({ name, project: "default" });
    }
    const tagged = /^\/api\/admin\/features\/([^/]+)\/tags(?:\/(simple)\/([^/]+))?$/.exec(pathname);
    if (tagged && !features.has(decodeURIComponent(tagged[1]))) return notFound();
    if (tagged && req.method === "POST") {
      if (body.type !== "simple") return Response.json({ name: "BadDataError" }, { status: 400 });
      return Response.json(body, { status: 201 });
    }
    if (tagged && tagged[2]) return Response.json({});
    const field = /^\/api\/admin\/context\/([^/]+)(\/strategies)?$/.exec(pathname);
    if (field) {
      const known = fields.get(decodeURIComponent(field[1]));
      if (!known) return notFound();
      return Response.json(field[2] ? { strategies: [] } : known);
    }
    return notFound();
  });
  return { ...stand, seen };
}

/** One conversion and two runs on one stand-in, which the tests read (each a subprocess saved). */
let once: ReturnType<typeof convertAndRunFresh> | undefined;
const convertAndRun = () => once ??= convertAndRunFresh();

/** Converts the document and runs the suite as its summary prints it, twice on one stand-in. */
async function convertAndRunFresh() {
  const unleash = startUnleash();
  const suite = await convertAndRunSuite(unleashDocument(), unleash, {
    runs: 2,
    extra: ["--jobs", "3"],
  });
  const [first, second] = suite.runs;
  const flows = [...suite.flows.values()].join("\n");
  return { summary: suite.summary, first, second, seen: unleash.seen, flows };
}

Deno.test("convert openapi: an item addressed by its noun and a property ({featureName} ← name) is read from its create, nothing to fill in", async () => {
  const { summary, first, seen, flows } = await convertAndRun();
  assert.equal(first.code, 0, first.stdout + first.stderr);
  assert.doesNotMatch(summary, /Fill in/);
  assert.match(
    summary,
    /\{featureName\} of GET \/api\/admin\/projects\/\{projectId\}\/features\/\{featureName\} ← POST \/api\/admin\/projects\/\{projectId\}\/features \$\.json\.name$/m,
  );
  assert.doesNotMatch(flows, /features\/string|\$\{vars\.featureName\}/);
  assert.ok(
    seen.some((s) => /^GET \/api\/admin\/projects\/default\/features\/disable-comments-/.test(s)),
  );
});

Deno.test("convert openapi: a name the client chose for what it creates is the run's own, so flows that each create one, and a second run, are not refused", async () => {
  const { first, second, seen, flows } = await convertAndRun();
  assert.equal(first.code, 0, first.stdout + first.stderr);
  assert.equal(second.code, 0, second.stdout + second.stderr);
  assert.match(flows, /^ {8}name: disable-comments-\$\{RANDOM\.HEX_8\}$/m);
  assert.match(flows, /^ {8}name: subscriptionTier-\$\{RANDOM\.HEX_8\}$/m);
  // The tag's value is its own; its type names one that exists.
  assert.match(flows, /^ {8}value: a-tag-value-\$\{RANDOM\.HEX_8\}$/m);
  assert.match(flows, /^ {8}type: simple$/m);
  assert.ok(
    seen.some((s) => /^DELETE \/api\/admin\/features\/[^/]+\/tags\/simple\/a-tag-value-/.test(s)),
  );
  // Both runs created a feature in each flow that needs one, and a context field in each of its two.
  const creates = seen.filter((s) => s === "POST /api/admin/projects/default/features").length;
  assert.ok(creates >= 4, seen.join("\n"));
  assert.equal(seen.filter((s) => s === "POST /api/admin/context").length, 4);
});

Deno.test("convert openapi: the switch into maintenance mode, which refuses every change after it, is left out and named", async () => {
  const { summary, first, seen, flows } = await convertAndRun();
  assert.equal(first.code, 0, first.stdout + first.stderr);
  assert.ok(!seen.includes("POST /api/admin/maintenance"));
  assert.ok(seen.includes("GET /api/admin/maintenance"));
  assert.match(
    summary,
    /^Left out 1 operation that stops the server .*: POST \/api\/admin\/maintenance$/m,
  );
  assert.match(flows, /# Left out: POST \/api\/admin\/maintenance/);
});

Deno.test("convert openapi: an item nothing creates is read from its own collection's listing, not from an unrelated create's property of its name", async () => {
  const { summary, first, seen } = await convertAndRun();
  assert.equal(first.code, 0, first.stdout + first.stderr);
  assert.match(
    summary,
    /^ {2}\{name\} of GET \/api\/admin\/environments\/\{name\} ← GET \/api\/admin\/environments \$\.json\.environments\[0\]\.name/m,
  );
  assert.ok(seen.includes("GET /api/admin/environments/development"), seen.join("\n"));
});
