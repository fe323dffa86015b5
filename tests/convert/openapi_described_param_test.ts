/**
 * `convert openapi` on path parameters named only `{id}` under a path of
 * another noun, which the document describes in the very words it uses for
 * an item its creates make: an AI workflow server's document (2026) reads a
 * flow's chat messages at `GET /chatmessage/{id}`, "Chatflow ID", as
 * `GET /chatflows/{id}` is described, and re-processes a store at
 * `POST /document-store/refresh/{id}`, "Document Store ID", as
 * `/document-store/store/{id}` is. Nothing else names the item (no create
 * of `/chatmessage`, no noun in `{id}`), so each was a placeholder the
 * summary asked to fill in, sent its example and refused (500, "not
 * found"). The parameter's description is the document's word for what it
 * names: one described like an item parameter some create produces reads
 * that create's answer. Only a description naming something besides "id"
 * ("ID", "The unique identifier" say nothing), and only when every such
 * parameter is produced by one create.
 *
 * The stand-in runs on 127.0.0.1 and answers 404 for a pipeline it does not
 * hold.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { operationsOf } from "../../lib/convert/openapi/operations.ts";
import { paramLinks } from "../../lib/convert/openapi/producers.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const pipeline = {
  type: "object",
  properties: { id: { type: "string" }, title: { type: "string" } },
};
const ok = (schema: unknown = pipeline) => ({ "200": { description: "Done", ...json(schema) } });
const idIs = (description: string) => [
  { in: "path", name: "id", required: true, description, schema: { type: "string" } },
];
const byId = (tag: string, description: string, method = "get", schema: unknown = pipeline) => ({
  [method]: { tags: [tag], parameters: idIs(description), responses: ok(schema) },
});

const document = {
  openapi: "3.0.3",
  info: { title: "Pipelines", version: "1.0.0" },
  paths: {
    "/pipelines": {
      post: { tags: ["pipelines"], requestBody: json(pipeline), responses: ok() },
    },
    "/pipelines/{id}": {
      ...byId("pipelines", "Pipeline ID"),
      ...byId("pipelines", "Pipeline ID", "delete"),
    },
    "/run-log/{id}": byId("run-log", "Pipeline ID", "get", { type: "array", items: {} }),
    "/rebuild/{id}": byId("rebuild", "pipeline id.", "post", { type: "object" }),
  },
};

/** Pipelines in memory: a log or a rebuild of one it does not hold is 404. */
function standIn(seen: string[]) {
  const held = new Set<string>();
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    seen.push(`${req.method} ${pathname}`);
    if (req.method === "POST" && pathname === "/pipelines") {
      const made = { ...await req.json(), id: crypto.randomUUID() };
      held.add(made.id);
      return Response.json(made);
    }
    const [, kind, id] = /^\/(pipelines|run-log|rebuild)\/([^/]+)$/.exec(pathname) ?? [];
    if (!held.has(id)) {
      return Response.json({ message: `Pipeline ${id} not found` }, { status: 404 });
    }
    if (req.method === "DELETE") held.delete(id);
    return Response.json(kind === "run-log" ? [] : kind === "rebuild" ? {} : { id, title: "t" });
  });
}

Deno.test("convert openapi: an {id} described like a made item's parameter reads that create's answer", async () => {
  const seen: string[] = [];
  const { runs, summary } = await convertAndRunSuite(document, standIn(seen), { runs: 2 });
  assert.match(summary, /\{id\} of GET \/run-log\/\{id\} ← POST \/pipelines \$\.json\.id/);
  assert.match(summary, /\{id\} of POST \/rebuild\/\{id\} ← POST \/pipelines \$\.json\.id/);
  assert.doesNotMatch(summary, /Fill in/);
  for (const run of runs) assert.equal(run.code, 0, summary + run.stdout);
  assert.ok(seen.every((s) => !/\/string$/.test(s)), seen.join(", "));
});

Deno.test("convert openapi: a description saying only 'id', or two creates', links nothing", () => {
  const post = (tag: string) => ({
    post: { tags: [tag], requestBody: json(pipeline), responses: ok() },
  });
  const ops = operationsOf({
    paths: {
      "/pipelines": post("p"),
      "/pipelines/{id}": byId("p", "The ID"),
      "/jobs": post("j"),
      "/jobs/{id}": byId("j", "Item ID"),
      "/stages": post("s"),
      "/stages/{id}": byId("s", "Item ID"),
      "/audit/{id}": byId("a", "The ID"),
      "/history/{id}": byId("h", "Item ID"),
    },
  });
  const links = paramLinks({}, ops);
  for (const template of ["/audit/{id}", "/history/{id}"]) {
    const op = ops.find((o) => o.template === template)!;
    assert.equal(links.get(op), undefined, template);
  }
});

/*
 * The same document describes `GET /feedback/{id}` and `GET /leads/{id}` as
 * "Chatflow ID" too, though each is read from its own collection's create by
 * its path: two creates produce parameters so described. Of those, the one
 * whose collection the words name (`/chatflows`, "chatflow") is meant; where
 * the words name none of them (two collections' "Item ID"), nothing links.
 */
Deno.test("convert openapi: of two creates whose parameters are described alike, the one the words name", () => {
  const post = (tag: string) => ({
    post: { tags: [tag], requestBody: json(pipeline), responses: ok() },
  });
  const ops = operationsOf({
    paths: {
      "/pipelines": post("p"),
      "/pipelines/{id}": byId("p", "Pipeline ID"),
      "/alerts": post("a"),
      "/alerts/{id}": byId("a", "Pipeline ID"),
      "/run-log/{id}": byId("r", "Pipeline ID"),
    },
  });
  const links = paramLinks({}, ops);
  const log = ops.find((o) => o.template === "/run-log/{id}")!;
  assert.equal(links.get(log)?.[0]?.producer.template, "/pipelines");
});
