/**
 * `convert openapi`: where a path parameter's value is read, found on
 * Unleash 8.2.0 (tests/real/unleash_openapi_test.ts):
 *
 * - from a listing, the first array of the answer was read whatever it
 *   held: `{projectId}` of `/personal-dashboard/{projectId}` took
 *   `admins[0].id` (a user's number: 404) from `{admins, projects}`. The
 *   array whose name is the parameter's noun, else whose items hold the
 *   parameter's name, is read; an answer of several arrays none of which
 *   shows that is read for nothing;
 * - from a `Location` header, every parameter took its last segment:
 *   `{type}` of `/tags/{type}/{value}` was sent the tag's value (404). The
 *   `Location` path is matched against the template segment by segment.
 *
 * The stand-in server below answers as Unleash does, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ "application/json": { schema } });
const param = (name: string) => ({ name, in: "path", required: true, schema: { type: "string" } });
const ok = (schema?: unknown) => ({
  "200": { description: "OK", ...(schema ? { content: json(schema) } : {}) },
});
const list = (props: Record<string, unknown>) => ({
  type: "array",
  items: { type: "object", properties: props },
});
const text = { type: "string" };
const tag = {
  type: "object",
  required: ["value", "type"],
  properties: {
    value: { type: "string", example: "a-tag-value" },
    type: { type: "string", example: "simple" },
  },
};

/** A dashboard of several lists, tags created at a `Location`, and a listing of unrelated arrays. */
function document(): Record<string, unknown> {
  return {
    openapi: "3.0.3",
    info: { title: "Dashboards", version: "1" },
    paths: {
      "/api/dashboard": {
        get: {
          operationId: "getDashboard",
          responses: ok({
            type: "object",
            properties: {
              admins: list({ id: { type: "integer" }, name: { type: "string" } }),
              projects: list({ id: { type: "string" }, name: { type: "string" } }),
            },
          }),
        },
      },
      "/api/dashboard/{projectId}": {
        parameters: [param("projectId")],
        get: { operationId: "getDashboardProject", responses: ok() },
      },
      "/api/owners": {
        get: {
          operationId: "getOwners",
          responses: ok({
            type: "object",
            properties: {
              admins: list({ id: { type: "integer" }, email: { type: "string" } }),
              flags: list({ name: { type: "string" } }),
              owners: list({ ownerName: { type: "string" }, id: { type: "integer" } }),
            },
          }),
        },
      },
      "/api/owners/{ownerName}": {
        parameters: [param("ownerName")],
        get: { operationId: "getOwner", responses: ok() },
      },
      "/api/teams": {
        get: {
          operationId: "getTeams",
          responses: ok({
            type: "object",
            properties: {
              members: list({ id: { type: "integer" } }),
              teams: list({ id: { type: "integer" } }),
            },
          }),
        },
      },
      "/api/teams/{id}": {
        parameters: [param("id")],
        get: { operationId: "getTeam", responses: ok() },
      },
      "/api/boards": {
        get: {
          operationId: "getBoards",
          responses: ok({
            type: "object",
            properties: {
              users: list({ id: { type: "integer" } }),
              labels: list({ id: { type: "integer" } }),
            },
          }),
        },
      },
      "/api/boards/{boardKey}": {
        parameters: [param("boardKey")],
        get: { operationId: "getBoard", responses: ok() },
      },
      "/api/features": {
        post: {
          operationId: "createFeature",
          requestBody: {
            required: true,
            content: json({
              type: "object",
              required: ["name"],
              properties: { name: { type: "string", example: "comments" } },
            }),
          },
          responses: {
            "201": {
              description: "Created",
              content: json({ type: "object", required: ["name"], properties: { name: text } }),
            },
          },
        },
      },
      "/api/features/{featureName}": {
        parameters: [param("featureName")],
        get: {
          operationId: "getFeature",
          responses: ok({
            type: "object",
            properties: { name: text, links: list({ id: text, url: text }) },
          }),
        },
      },
      "/api/features/{featureName}/link": {
        parameters: [param("featureName")],
        post: {
          operationId: "createFeatureLink",
          requestBody: {
            required: true,
            content: json({
              type: "object",
              required: ["url"],
              properties: { url: { type: "string", example: "https://example.com" } },
            }),
          },
          responses: { "204": { description: "Created" } },
        },
      },
      "/api/features/{featureName}/link/{linkId}": {
        parameters: [param("featureName"), param("linkId")],
        delete: { operationId: "deleteFeatureLink", responses: ok() },
      },
      // An item whose read answers a list at the top: no array named for a collection under it.
      "/api/shelves/{shelfId}": {
        parameters: [param("shelfId")],
        get: { operationId: "getShelf", responses: ok(list({ id: text })) },
      },
      "/api/shelves/{shelfId}/books": {
        parameters: [param("shelfId")],
        post: { operationId: "addBook", responses: { "204": { description: "Added" } } },
      },
      "/api/shelves/{shelfId}/books/{bookId}": {
        parameters: [param("shelfId"), param("bookId")],
        delete: { operationId: "removeBook", responses: ok() },
      },
      "/api/tags": {
        post: {
          operationId: "createTag",
          requestBody: { required: true, content: json(tag) },
          responses: {
            "201": {
              description: "Created",
              headers: { location: { schema: { type: "string" } } },
              content: json({
                type: "object",
                properties: { version: { type: "integer" }, tag },
              }),
            },
          },
        },
      },
      "/api/tags/{type}/{value}": {
        parameters: [param("type"), param("value")],
        get: { operationId: "getTag", responses: ok(tag) },
        delete: { operationId: "deleteTag", responses: ok() },
      },
    },
  };
}

/** A running stand-in and the requests it got. */
interface Stand {
  base: string;
  seen: string[];
  close(): Promise<void>;
}

/** Answers as Unleash does: tags at `Location: tags/<type>/<value>`, a dashboard per project. */
function startServer(): Stand {
  const tags = new Set<string>();
  const features = new Map<string, { id: string; url: string }[]>();
  const seen: string[] = [];
  const stand = serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    const route = `${req.method} ${pathname}`;
    seen.push(route);
    if (route === "GET /api/dashboard") {
      return Response.json({ admins: [{ id: 1, name: "admin" }], projects: [{ id: "default" }] });
    }
    if (route === "GET /api/dashboard/default") return Response.json({});
    if (route === "GET /api/owners") {
      return Response.json({
        admins: [{ id: 1, email: "a@example.com" }],
        flags: [{ name: "f" }],
        owners: [{ ownerName: "ada", id: 7 }],
      });
    }
    if (route === "GET /api/owners/ada") return Response.json({});
    if (route === "GET /api/teams") {
      return Response.json({ members: [{ id: 1 }], teams: [{ id: 9 }] });
    }
    if (route === "GET /api/teams/9") return Response.json({});
    if (route === "GET /api/boards") return Response.json({ users: [{ id: 1 }], labels: [] });
    if (route === "POST /api/features") {
      const body = await req.json();
      features.set(body.name, []);
      return Response.json({ name: body.name }, { status: 201 });
    }
    const feature = /^\/api\/features\/([^/]+)(\/link(?:\/([^/]+))?)?$/.exec(pathname);
    const links = feature && features.get(decodeURIComponent(feature[1]));
    if (links && !feature[2] && req.method === "GET") {
      return Response.json({ name: decodeURIComponent(feature[1]), links });
    }
    if (links && feature[2] && !feature[3] && req.method === "POST") {
      links.push({ id: `l-${links.length + 1}`, url: (await req.json()).url });
      return new Response(null, { status: 204 });
    }
    if (links && feature[3] && links.some((l) => l.id === feature[3])) return Response.json({});
    if (route === "POST /api/tags") {
      const body = await req.json();
      tags.add(`${body.type}/${body.value}`);
      return Response.json({ version: 1, tag: body }, {
        status: 201,
        headers: { location: `tags/${body.type}/${body.value}` },
      });
    }
    const tagged = /^\/api\/tags\/([^/]+\/[^/]+)$/.exec(pathname)?.[1];
    if (tagged && tags.has(decodeURIComponent(tagged))) {
      if (req.method === "DELETE") tags.delete(decodeURIComponent(tagged));
      return Response.json({});
    }
    return Response.json({ name: "NotFoundError" }, { status: 404 });
  });
  return { ...stand, seen };
}

/** One conversion and run, which the tests read. */
let once: ReturnType<typeof convertAndRunFresh> | undefined;
const convertAndRun = () => once ??= convertAndRunFresh();

/** Converts the document and runs the suite as its summary prints it, on a stand-in. */
async function convertAndRunFresh() {
  const server = startServer();
  const { summary, runs: [run] } = await convertAndRunSuite(document(), server);
  return { summary, run, seen: server.seen };
}

Deno.test("convert openapi: a parameter read from a listing of several arrays reads the array of its noun, not the first", async () => {
  const { summary, seen } = await convertAndRun();
  assert.match(
    summary,
    /^ {2}\{projectId\} of GET \/api\/dashboard\/\{projectId\} ← GET \/api\/dashboard \$\.json\.projects\[0\]\.id /m,
  );
  assert.ok(seen.includes("GET /api/dashboard/default"), seen.join("\n"));
  assert.ok(!seen.includes("GET /api/dashboard/1"), seen.join("\n"));
  // `{id}` names no noun: the collection's (`/teams/{id}`) names the array.
  assert.match(
    summary,
    /^ {2}\{id\} of GET \/api\/teams\/\{id\} ← GET \/api\/teams \$\.json\.teams\[0\]\.id /m,
  );
  assert.ok(seen.includes("GET /api/teams/9"), seen.join("\n"));
});

Deno.test("convert openapi: else the array whose items hold the parameter's name, and no array that shows neither", async () => {
  const { summary, seen } = await convertAndRun();
  assert.match(
    summary,
    /^ {2}\{ownerName\} of GET \/api\/owners\/\{ownerName\} ← GET \/api\/owners \$\.json\.owners\[0\]\.ownerName /m,
  );
  assert.ok(seen.includes("GET /api/owners/ada"), seen.join("\n"));
  // `users` and `labels` hold no board: nothing is read from them.
  assert.doesNotMatch(summary, /\{boardKey\} of GET \/api\/boards\/\{boardKey\} ←/);
  assert.ok(!seen.includes("GET /api/boards/1"), seen.join("\n"));
});

Deno.test("convert openapi: an item its create answers nothing of is read from its parent's read, the array named for its collection", async () => {
  const { summary, seen } = await convertAndRun();
  assert.match(
    summary,
    // The link the run made, found by the url it sent (openapi_own_listed_item_test.ts).
    /^ {2}\{linkId\} of DELETE \/api\/features\/\{featureName\}\/link\/\{linkId\} ← GET \/api\/features\/\{featureName\} \$\.json\.links\[\?@\.url == '<the url POST \/api\/features\/\{featureName\}\/link sent>'\]\.id \(the run's own, after POST \/api\/features\/\{featureName\}\/link\)$/m,
  );
  assert.ok(
    seen.some((s) => /^DELETE \/api\/features\/comments[^/]*\/link\/l-1$/.test(s)),
    seen.join("\n"),
  );
  // A read that answers a list at the top names no collection's array: nothing read from it.
  assert.doesNotMatch(summary, /\{bookId\} of DELETE \S+ ← GET \/api\/shelves\/\{shelfId\}/);
});

Deno.test("convert openapi: each parameter of a Location takes the segment at its own place in the template", async () => {
  const { summary, run, seen } = await convertAndRun();
  assert.match(
    summary,
    /^ {2}\{type\} of GET \/api\/tags\/\{type\}\/\{value\} ← POST \/api\/tags /m,
  );
  const got = seen.filter((s) =>
    s.startsWith("GET /api/tags/") || s.startsWith("DELETE /api/tags/")
  );
  assert.ok(got.length === 2, seen.join("\n"));
  for (const s of got) assert.match(s, /^(GET|DELETE) \/api\/tags\/simple\/a-tag-value/);
  assert.doesNotMatch(run.stdout, /getTag[^\n]*(✗|FAIL)/i);
});
