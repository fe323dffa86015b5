/**
 * `convert openapi`: a path parameter named for another collection whose
 * create names its items in its body. Found on LemonLDAP::NG 2.16's Manager
 * API (Debian's `liblemonldap-ng-manager-perl`, measured by hand:
 * docs/real-servers.md): menu applications live under
 * `/api/v1/menu/app/{cat}`, `{cat}` a category of `/api/v1/menu/cat`, made by
 * `POST /api/v1/menu/cat {confKey, catname}` (answered `{"message": …}`). The
 * POST to `/api/v1/menu/app/{cat}` looked like a create at a URL the client
 * names, so the run named a category nothing made, and the applications'
 * create, listing and read each answered 400 or 404. The category's create
 * is now copied into the applications' flow and `{cat}` is the key its body
 * sent; widened to the spellings of a collection's noun (`cat` of `/cat`,
 * `category` of `/categories`, `box` of `/boxes`) and to the key the
 * document says nothing of but a `pattern`.
 *
 * The stand-in refuses as LemonLDAP::NG does (404 for a category it does not
 * hold, 409 for a key it holds), on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

/** Menu categories under `cats` (a path), applications under `/menu/app/{param}`. */
function document(cats: string, param: string): Record<string, unknown> {
  const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
  const key = { type: "string", pattern: "^\\w[\\w\\.\\-]*$" };
  const cat = {
    type: "object",
    required: ["confKey", "catname"],
    properties: { confKey: key, catname: { type: "string" } },
  };
  const app = { type: "object", required: ["confKey"], properties: { confKey: key } };
  const made = { "201": { description: "Successful creation" } };
  const inCat = { name: param, in: "path", required: true, schema: { type: "string" } };
  const own = { name: "confKey", in: "path", required: true, schema: { type: "string" } };
  return {
    openapi: "3.0.1",
    info: { title: "Manager API", version: "2.0.9" },
    paths: {
      [cats]: {
        post: { tags: ["menucat"], requestBody: { required: true, ...json(cat) }, responses: made },
      },
      [`${cats}/{confKey}`]: {
        parameters: [own],
        get: { tags: ["menucat"], responses: { "200": { description: "", ...json(cat) } } },
      },
      [`/api/v1/menu/app/{${param}}`]: {
        parameters: [inCat],
        get: {
          tags: ["menuapp"],
          responses: { "200": { description: "", ...json({ type: "array", items: app }) } },
        },
        post: { tags: ["menuapp"], requestBody: { required: true, ...json(app) }, responses: made },
      },
      [`/api/v1/menu/app/{${param}}/{confKey}`]: {
        parameters: [inCat, own],
        get: { tags: ["menuapp"], responses: { "200": { description: "", ...json(app) } } },
        delete: { tags: ["menuapp"], responses: { "204": { description: "" } } },
      },
    },
  };
}

/** Categories and their applications as the Manager API keeps them; each request's path. */
function startServer(cats: string) {
  const known = new Map<string, Map<string, unknown>>();
  const bodies = new Map<string, unknown>();
  const seen: string[] = [];
  const message = (status: number, text: string) => Response.json({ message: text }, { status });
  const stand = serveStandIn(async (req) => {
    const path = decodeURIComponent(new URL(req.url).pathname);
    seen.push(`${req.method} ${path}`);
    if (path === cats && req.method === "POST") {
      const body = await req.json();
      if (known.has(body.confKey)) return message(409, "Conflict");
      known.set(body.confKey, new Map());
      bodies.set(body.confKey, body);
      return message(201, "Successful operation");
    }
    if (path.startsWith(`${cats}/`) && req.method === "GET") {
      const key = path.slice(cats.length + 1);
      return known.has(key) ? Response.json(bodies.get(key)) : message(404, "Not found");
    }
    const m = /^\/api\/v1\/menu\/app\/([^/]+)(?:\/([^/]+))?$/.exec(path);
    const apps = m ? known.get(m[1]) : undefined;
    if (!m || !apps) return message(404, `Menu category '${m?.[1]}' not found`);
    if (!m[2] && req.method === "GET") return Response.json([...apps.values()]);
    if (!m[2] && req.method === "POST") {
      const body = await req.json();
      if (apps.has(body.confKey)) return message(409, "Conflict");
      apps.set(body.confKey, body);
      return message(201, "Successful operation");
    }
    if (!apps.has(m[2])) return message(404, "Not found");
    if (req.method === "GET") return Response.json(apps.get(m[2]));
    apps.delete(m[2]);
    return new Response(null, { status: 204 });
  });
  return { ...stand, seen };
}

const SPELLINGS: [string, string][] = [
  ["/api/v1/menu/cat", "cat"],
  ["/api/v1/menu/categories", "category"],
  ["/api/v1/boxes", "box"],
];

for (const [cats, param] of SPELLINGS) {
  Deno.test(`convert openapi: {${param}} names an item of ${cats}, made by its create's body`, async () => {
    const server = startServer(cats);
    const { summary, runs, flows } = await convertAndRunSuite(document(cats, param), server, {
      runs: 2,
    });
    for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(summary, /^No placeholders to fill in\.$/m);
    const flow = flows.get("menuapp.yaml")!;
    // The category's create is the applications' flow's own, and `{param}` the key it sent.
    assert.match(flow, new RegExp(`url: \\$\\{ENV\\.BASE_URL\\}${cats}$`, "m"));
    assert.match(flow, /\/api\/v1\/menu\/app\/\$\{vars\.confKey\}\/\$\{vars\.confKey\}$/m);
    assert.doesNotMatch(flow, new RegExp(`vars\\.${param}\\b`));
    // No request reached a category nothing made.
    const notFound = server.seen.filter((s) => / \/api\/v1\/menu\/app\/(?!confKey-)/.test(s));
    assert.deepEqual(notFound, []);
    const apps = server.seen.filter((s) => s.startsWith("POST /api/v1/menu/app/"));
    assert.equal(apps.length, 2, server.seen.join("\n")); // one per run
  });
}
