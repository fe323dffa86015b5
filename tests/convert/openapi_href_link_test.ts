/**
 * A path parameter whose value an earlier answer hands over inside a link:
 * an answer's text member whose example the document writes as a path of
 * the operation (Signal K's `POST /access/requests` answers `{state, href}`,
 * `href` "Path where the status of the request can be checked.", example
 * `/signalk/v1/requests/358b5f32-…`, the path of `GET /requests/{id}`
 * under the server's `/signalk/v1`). The parameter is read from that member
 * at its place in the path, after the operation answering it; it was a
 * placeholder to fill (500 "not found"). Whole class: the example as a
 * path under the server's base or as a full URL, one level down (`links:
 * {status}`), in 3.1's `examples`, the parameter before the path's end
 * (`/jobs/{jobId}/result`), and a member whose example names another path
 * gives nothing.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const text = (extra: Record<string, unknown>) => ({ type: "string", ...extra });
const idParam = (name: string) => ({
  name,
  in: "path",
  required: true,
  schema: { type: "string" },
});

const DOC = {
  openapi: "3.1.0",
  info: { title: "Access", version: "1" },
  servers: [{ url: "/api/v1" }],
  paths: {
    "/access/requests": {
      post: {
        tags: ["access"],
        requestBody: json({ type: "object", properties: { clientId: text({}) } }),
        responses: {
          "202": {
            description: "pending",
            ...json({
              type: "object",
              properties: {
                state: text({}),
                href: text({
                  description: "Path where the status of the request can be checked.",
                  example: "/api/v1/requests/358b5f32-76bf-4b33-8b23-10a330827185",
                }),
              },
            }),
          },
        },
      },
    },
    "/requests/{id}": {
      get: {
        tags: ["access"],
        parameters: [idParam("id")],
        responses: { "200": { description: "" } },
      },
    },
    "/exports": {
      post: {
        tags: ["exports"],
        responses: {
          "201": {
            description: "queued",
            ...json({
              type: "object",
              properties: {
                links: {
                  type: "object",
                  properties: {
                    // Another path: not the job's.
                    docs: text({ example: "https://hub.example.com/api/v1/docs/jobs/7" }),
                    status: text({ examples: ["https://hub.example.com/api/v1/jobs/7/result"] }),
                  },
                },
              },
            }),
          },
        },
      },
    },
    "/jobs/{jobId}/result": {
      get: {
        tags: ["exports"],
        parameters: [idParam("jobId")],
        responses: { "200": { description: "" } },
      },
    },
  },
};

Deno.test("a path parameter is read from an earlier answer's member whose example is a path of that operation", async () => {
  const made = new Set<string>();
  let n = 0;
  const server = serveStandIn((req) => {
    const { pathname } = new URL(req.url);
    if (req.method === "POST" && pathname === "/api/v1/access/requests") {
      const id = crypto.randomUUID();
      made.add(`request ${id}`);
      return Response.json({ state: "PENDING", href: `/api/v1/requests/${id}` }, { status: 202 });
    }
    if (req.method === "POST" && pathname === "/api/v1/exports") {
      const id = String(++n);
      made.add(`job ${id}`);
      const links = { status: `http://127.0.0.1/api/v1/jobs/${id}/result?wait=1`, docs: "/docs" };
      return Response.json({ links }, { status: 201 });
    }
    const request = /^\/api\/v1\/requests\/([^/]+)$/.exec(pathname);
    if (request && made.has(`request ${request[1]}`)) return Response.json({ state: "PENDING" });
    const job = /^\/api\/v1\/jobs\/([^/]+)\/result$/.exec(pathname);
    if (job && made.has(`job ${job[1]}`)) return Response.json({ done: true });
    return new Response("not found", { status: 404 });
  });
  try {
    const { runs, flows, summary } = await convertAndRunSuite(DOC, server);
    assert.equal(runs[0].code, 0, runs[0].stdout + [...flows.values()].join("\n"));
    assert.match(summary, /\{id\} of GET \/requests\/\{id\} ← POST \/access\/requests/);
    assert.match(summary, /\{jobId\} of GET \/jobs\/\{jobId\}\/result ← POST \/exports/);
    assert.match(summary, /\$\.json\.links\.status \(the link its example shows\)/);
    assert.match(summary, /No placeholders to fill in/);
  } finally {
    await server.close();
  }
});

Deno.test("a link on another host than the server's, or under another base, names no item of the API", async () => {
  const { hrefLink } = await import("../../lib/convert/openapi/href_link.ts");
  const { operationsOf } = await import("../../lib/convert/openapi/operations.ts");
  const answer = (example: string) => ({
    "201": json({ type: "object", properties: { url: text({ example }) } }),
  });
  const doc = (server: string, example: string) => ({
    servers: [{ url: server, variables: { host: { default: "api.hub.test" } } }],
    paths: {
      "/checks": { post: { responses: answer(example) } },
      "/apps/{slug}": { get: { parameters: [idParam("slug")] } },
    },
  });
  const link = (server: string, example: string) => {
    const d = doc(server, example);
    const ops = operationsOf(d);
    return hrefLink(d, ops, ops[1], "slug")?.path.join(".");
  };
  assert.equal(link("https://{host}/v3", "https://api.hub.test/v3/apps/ci"), "url");
  // A page of the web site, not the API's host.
  assert.equal(link("https://{host}/v3", "https://hub.test/apps/ci"), undefined);
  // The API's host, another base.
  assert.equal(link("https://{host}/v3", "https://api.hub.test/web/apps/ci"), undefined);
  assert.equal(link("/v3", "/v3/apps/ci"), "url");
  assert.equal(link("/v3", "/apps/ci"), undefined);
});
