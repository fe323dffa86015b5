/**
 * A document whose paths name no collection: each operation at a path of
 * its own, a verb and a noun run together (`POST /addWidget`,
 * `PUT /updateWidget/{id}`, `PATCH /patchWidget/{id}`,
 * `DELETE /removeWidget/{id}`), one tag for all. An Express shop API
 * measured by hand (2026-11-29, `swagger-jsdoc`) documents its orders that
 * way. The POST read as an action on the whole API, so it ran last and
 * alone; the PUT, read as a create (nothing posts to its collection), and
 * the PATCH and the DELETE were sent the id the summary asked the user
 * for (404 on a fresh server); the PATCH, whose schema names no member
 * ("a partial object"), was sent `{}` (400 "no data provided to update").
 * The POST answering 201 is now the tag's create: it runs first, the
 * others read the id from its answer (undescribed: the first `id`
 * anywhere), and the PATCH's body is made from the tag's PUT's schema.
 * The converted suite runs twice against a stand-in on 127.0.0.1 written
 * that way, with only `BASE_URL`.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const widget = {
  type: "object",
  required: ["label", "size"],
  properties: { label: { type: "string" }, size: { type: "integer" } },
};
const ref = { $ref: "#/components/schemas/Widget" };
const id = [{ name: "id", in: "path", required: true, schema: { type: "integer" } }];
const said = (description: string) => ({ description });

const document = {
  openapi: "3.0.0",
  info: { title: "verbs", version: "1" },
  components: { schemas: { Widget: widget } },
  paths: {
    "/addWidget": {
      post: {
        tags: ["Widgets"],
        requestBody: { required: true, ...json({ type: "array", items: ref }) },
        responses: { 201: said("Added, every widget returned"), 400: said("Bad list") },
      },
    },
    "/listWidgets": {
      get: { tags: ["Widgets"], responses: { 200: said("Widgets"), 404: said("None") } },
    },
    "/updateWidget/{id}": {
      put: {
        tags: ["Widgets"],
        parameters: id,
        requestBody: { required: true, ...json(ref) },
        responses: { 200: said("Updated"), 404: said("No widget with that id") },
      },
    },
    "/patchWidget/{id}": {
      patch: {
        tags: ["Widgets"],
        parameters: id,
        requestBody: {
          required: true,
          ...json({ type: "object", description: "Fields to change" }),
        },
        responses: { 200: said("Updated"), 400: said("No data to update"), 404: said("None") },
      },
    },
    "/removeWidget/{id}": {
      delete: {
        tags: ["Widgets"],
        parameters: id,
        responses: { 204: said("Removed"), 404: said("No widget with that id") },
      },
    },
  },
};

/** Widgets numbered from 1; the create answers every widget, the one it made last. */
function widgetServer() {
  const widgets = new Map<number, Record<string, unknown>>();
  let next = 1;
  return serveStandIn(async (req) => {
    const [, verb, raw] = new URL(req.url).pathname.split("/");
    const body = req.method === "GET" || req.method === "DELETE" ? undefined : await req.json();
    if (verb === "addWidget") {
      if (!Array.isArray(body) || body.some((w) => !w?.label || !w?.size)) {
        return Response.json({ message: "Bad list" }, { status: 400 });
      }
      for (const w of body) widgets.set(next, { id: next++, ...w });
      return Response.json({ message: "Added", widgets: [...widgets.values()] }, { status: 201 });
    }
    if (verb === "listWidgets") {
      return widgets.size
        ? Response.json([...widgets.values()])
        : new Response(null, { status: 404 });
    }
    const found = widgets.get(Number(raw));
    if (verb === "patchWidget" && Object.keys(body ?? {}).length === 0) {
      return Response.json({ message: "No data to update" }, { status: 400 });
    }
    if (!found) return Response.json({ message: "No widget with that id" }, { status: 404 });
    if (verb === "removeWidget") {
      widgets.delete(Number(raw));
      return new Response(null, { status: 204 });
    }
    return Response.json(Object.assign(found, body));
  });
}

Deno.test("convert openapi: a tag's one 201 POST beside paths naming no collection creates its items, first", async () => {
  const { runs, flows, summary } = await convertAndRunSuite(document, widgetServer(), { runs: 2 });
  assert.match(summary, /No placeholders to fill in/, summary);
  assert.match(summary, /\{id\} of PUT \/updateWidget\/\{id\} ← POST \/addWidget/, summary);
  const flow = flows.get("widgets.yaml") ?? "";
  assert.doesNotMatch(flow, /^serial: true/m, flow);
  assert.ok(flow.indexOf("/addWidget") < flow.indexOf("/updateWidget"), flow);
  for (const run of runs) assert.equal(run.code, 0, summary + run.stdout + run.stderr);
});

Deno.test("convert openapi: a PATCH of such a tag naming no member is made from the tag's PUT", async () => {
  const { flows, summary } = await convertAndRunSuite(document, widgetServer());
  const flow = flows.get("widgets.yaml") ?? "";
  const patch = flow.slice(
    flow.indexOf("method: PATCH"),
    flow.indexOf("assert:", flow.indexOf("method: PATCH")),
  );
  assert.match(patch, /label: /, summary + flow);
});

Deno.test("convert openapi: without a 201, an item read back, beside a create of its own, or as one of two, such a POST keeps its role", async () => {
  const { operationsOf } = await import("../../lib/convert/openapi/operations.ts");
  const roleOf = (paths: Record<string, unknown>, template: string) =>
    operationsOf({ paths }).find((o) => o.template === template && o.method === "POST")?.role;
  const item = { "/updateWidget/{id}": { put: { tags: ["W"], responses: { 200: said("") } } } };
  const post = (status: number) => ({ post: { tags: ["W"], responses: { [status]: said("") } } });
  assert.equal(roleOf({ ...item, "/addWidget": post(201) }, "/addWidget"), "create");
  // A reset answers 200: still an action on the whole API.
  assert.equal(roleOf({ ...item, "/resetWidgets": post(200) }, "/resetWidgets"), "whole");
  // Two POSTs answering 201 in the tag: which makes its items, nothing says.
  const two = { ...item, "/addWidget": post(201), "/importWidgets": post(201) };
  assert.equal(roleOf(two, "/addWidget"), "whole");
  // Only a POST at an item's path (a message sent to a user): no item is read back.
  const sent = { "/sendWidget/{name}": post(201), "/addWidget": post(201) };
  assert.equal(roleOf(sent, "/addWidget"), "whole");
  // A collection of the tag's own has its create: the other POST is not it.
  const own = {
    ...item,
    "/widgets": { ...post(201), get: { tags: ["W"] } },
    "/addWidget": post(201),
  };
  assert.equal(roleOf(own, "/addWidget"), "whole");
});
