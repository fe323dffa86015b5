/**
 * `convert openapi` on a pantry API written as `@nestjs/swagger` documents
 * one whose entities mark their columns with `@ApiProperty` but not the
 * generated primary key: each create is documented as answering its entity's
 * schema (`Dish {title, course}`, `Item {label, shelf}`), a schema other than
 * the create's body, describing members and naming no identifier at all. The
 * server answers the saved row with its `id`. The items' `{id}` and the
 * nested `{dishId}`/`{itemId}` were placeholders to fill in (`string`, `1`),
 * one `vars.id` shared by both collections, so every read, update and delete
 * failed on a fresh server. An answer that names no identifier says nothing
 * of the one the server adds: the id is searched for in it, as in an
 * undescribed answer (undescribed_answer.ts). An answer naming its key
 * (Google's `resourceId`) is read as described, as before.
 * The stand-in runs on 127.0.0.1 and answers 404 for an item it has not.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (ref: string, description = "") => ({
  description,
  content: { "application/json": { schema: { $ref: `#/components/schemas/${ref}` } } },
});
const body = (ref: string) => ({
  required: true,
  content: { "application/json": { schema: { $ref: `#/components/schemas/${ref}` } } },
});
const key = (name: string) => ({ name, in: "path", required: true, schema: { type: "string" } });
const text = { type: "string" };

/** The document, the dishes' create answering `made` (the items' answering their entity). */
function document(made: Record<string, unknown>) {
  const items = (noun: string, input: string, out: string, answer: unknown) => ({
    [`/${noun}`]: {
      post: { requestBody: body(input), responses: { 201: answer } },
      get: { responses: { 200: { description: "Listed" } } },
    },
    [`/${noun}/{id}`]: {
      get: { parameters: [key("id")], responses: { 200: { description: "Found" } } },
      patch: {
        parameters: [key("id")],
        requestBody: body(input),
        responses: { 200: json(out) },
      },
      delete: { parameters: [key("id")], responses: { 204: { description: "Gone" } } },
    },
  });
  return {
    openapi: "3.0.0",
    info: { title: "Pantry", version: "1" },
    paths: {
      ...items("dishes", "DishIn", "Dish", made),
      ...items("items", "ItemIn", "Item", json("Item", "Created")),
      "/dishes/{dishId}/items/{itemId}": {
        patch: {
          parameters: [key("dishId"), key("itemId")],
          responses: { 200: { description: "Added" } },
        },
      },
    },
    components: {
      schemas: {
        DishIn: { type: "object", properties: { title: text }, required: ["title"] },
        Dish: ENTITY,
        ItemIn: { type: "object", properties: { label: text }, required: ["label"] },
        Item: {
          type: "object",
          properties: { label: text, shelf: text },
          required: ["label", "shelf"],
        },
      },
    },
  };
}

const ENTITY = {
  type: "object",
  properties: { title: text, course: { type: "string", enum: ["starter", "main"] } },
  required: ["title", "course"],
};

/** The stand-in: dishes and items by number, each answered with its `id`; 404 for no such item. */
function pantry(seen: string[]) {
  const made = { dishes: new Set<number>(), items: new Set<number>() };
  let next = 1;
  return async (req: Request): Promise<Response> => {
    const { pathname } = new URL(req.url);
    seen.push(`${req.method} ${pathname}`);
    const sent = await req.text().then((t) => t === "" ? {} : JSON.parse(t));
    const [, noun, id, , other] = pathname.split("/") as [string, "dishes" | "items", ...string[]];
    const kept = made[noun];
    if (kept === undefined) return new Response(null, { status: 404 });
    if (id === undefined) {
      if (req.method === "GET") return Response.json([...kept].map((n) => ({ id: n })));
      kept.add(next);
      return Response.json({ id: next++, ...sent, course: "main", shelf: "top" }, { status: 201 });
    }
    if (!kept.has(Number(id))) return Response.json({ message: "Not found" }, { status: 404 });
    if (other !== undefined && !made.items.has(Number(other))) {
      return Response.json({ message: "No such item" }, { status: 404 });
    }
    if (req.method === "DELETE") kept.delete(Number(id));
    if (req.method === "DELETE") return new Response(null, { status: 204 });
    return Response.json({ id: Number(id), title: "t", course: "main", label: "l", shelf: "top" });
  };
}

Deno.test("convert openapi: a create answering an entity that names no identifier gives its items' ids", async () => {
  const seen: string[] = [];
  const { runs: [run], flows } = await convertAndRunSuite(
    document(json("Dish", "Created")),
    serveStandIn(pantry(seen)),
  );
  assert.equal(run.code, 0, run.stdout + run.stderr + seen.join("\n"));
  const suite = [...flows.values()].join("\n");
  assert.doesNotMatch(suite, /fill in/, suite);
  for (
    const want of [
      /^GET \/dishes\/\d+$/,
      /^DELETE \/items\/\d+$/,
      /^PATCH \/dishes\/\d+\/items\/\d+$/,
    ]
  ) {
    assert.ok(seen.some((s) => want.test(s)), `${want}\n${seen.join("\n")}`);
  }
});

// An entity none of whose columns carries `@ApiProperty` is documented `{type: object,
// properties: {}}` (a mecanojob API's `Appointment`, answered by its create and by the update
// at its item's path): no member, so nothing of the id either; its `{id}` was a placeholder.
Deno.test("convert openapi: a create answering an entity documented with no member gives its items' ids", async () => {
  const seen: string[] = [];
  const doc = document(json("Dish", "Created"));
  doc.components.schemas.Dish = { type: "object", properties: {} } as never;
  const { runs: [run], flows } = await convertAndRunSuite(doc, serveStandIn(pantry(seen)));
  assert.equal(run.code, 0, run.stdout + run.stderr + seen.join("\n"));
  const suite = [...flows.values()].join("\n");
  assert.doesNotMatch(suite, /fill in/, suite);
  assert.ok(seen.some((s) => /^GET \/dishes\/\d+$/.test(s)), seen.join("\n"));
  assert.ok(seen.some((s) => /^DELETE \/dishes\/\d+$/.test(s)), seen.join("\n"));
});
