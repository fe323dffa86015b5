/**
 * A `default` answer every operation of the document writes alike (what
 * `hapi-swagger` writes for each route declaring no response schema: a text
 * called "Successful") says nothing of any one operation's answer. A hotel
 * booking API documented so had its item reads sent the whole listing in
 * their path (`GET /room_types/{"results":[…]}`: 400), taken for a read
 * answering one text, and its creates' answers never read for the items'
 * ids. Now such an answer is undescribed: the id is searched for in the
 * create's answer, as for `201: {description: ""}`. A `default` only one
 * operation writes is still its statement (`openapi_parent_text_test.ts`).
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const stub = { default: { description: "Successful", schema: { type: "string" } } };
const idParam = { name: "id", in: "path", required: true, type: "integer" };

/** A Swagger 2.0 document whose every operation answers the same stand-in `default`. */
function stubbedDocument() {
  const body = {
    in: "body",
    name: "body",
    schema: { type: "object", required: ["name"], properties: { name: { type: "string" } } },
  };
  return {
    swagger: "2.0",
    info: { title: "Rooms", version: "1" },
    paths: {
      "/things": {
        post: { tags: ["things"], parameters: [body], responses: stub },
        get: { tags: ["things"], responses: stub },
      },
      "/things/{id}": {
        get: { tags: ["things"], parameters: [idParam], responses: stub },
        delete: { tags: ["things"], parameters: [idParam], responses: stub },
      },
    },
  };
}

/** The stand-in: makes things numbered from 41, lists them in an envelope, reads known ones. */
function things(seen: string[]) {
  const made = new Map<string, string>([["1", "seeded"]]);
  let next = 41;
  return serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    seen.push(`${req.method} ${path}`);
    if (path === "/things" && req.method === "POST") {
      const { name } = await req.json();
      const id = next++;
      made.set(String(id), name);
      return Response.json({ id, name });
    }
    if (path === "/things") {
      const results = [...made].map(([id, name]) => ({ id: Number(id), name })).reverse();
      return Response.json({ results, totalItems: results.length });
    }
    const id = /^\/things\/(\d+)$/.exec(path)?.[1];
    if (!id) return Response.json({ message: "Invalid request params input" }, { status: 400 });
    if (!made.has(id)) return Response.json({ message: "Not found" }, { status: 404 });
    if (req.method === "DELETE") made.delete(id);
    return Response.json({ id: Number(id), name: made.get(id) ?? "" });
  });
}

Deno.test("convert openapi reads an item's id from its create's answer under a default every operation shares", async () => {
  const seen: string[] = [];
  const { runs, summary } = await convertAndRunSuite(stubbedDocument(), things(seen));
  assert.equal(runs[0].code, 0, runs[0].stdout);
  assert.ok(seen.includes("GET /things/41"), seen.join(", "));
  assert.ok(seen.includes("DELETE /things/41"), seen.join(", "));
  assert.ok(!seen.some((s) => s.includes("%7B")), seen.join(", "));
  assert.match(summary, /\{id\} of GET \/things\/\{id\} ← POST \/things .*undescribed/);
});
