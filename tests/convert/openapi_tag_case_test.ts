/**
 * `convert openapi` on a document that spells one tag two ways
 * (RealWorld's 3.0 document: `Profile` on the follow, `profile` on the
 * unfollow; `Articles`/`articles`, `Comments`/`comments`): each spelling
 * was a flow of its own, so the unfollow ran in a flow that never followed,
 * and a real RealWorld backend answers 404 ("not following"); each flow
 * also registers and logs in an account of its own, and that backend
 * allows 20 of those per 15 minutes. Tags that differ only in letter case
 * are now one flow, named as the document's `tags` list spells it (or as
 * it first appears). The stand-in runs on 127.0.0.1 and answers an unfollow
 * of someone not followed with 404, as that backend does.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });

const PERSON = {
  type: "object",
  required: ["id", "name"],
  properties: { id: { type: "integer" }, name: { type: "string" } },
};
const ID = [{ name: "id", in: "path", required: true, schema: { type: "integer" } }];
const ANSWER = { description: "The person", ...json(PERSON) };

const DOCUMENT = {
  openapi: "3.0.3",
  info: { title: "people", version: "1" },
  tags: [{ name: "People" }, { name: "Follows" }],
  paths: {
    "/people": {
      post: {
        tags: ["people"],
        requestBody: { required: true, ...json({ ...PERSON, required: ["name"] }) },
        responses: { 201: ANSWER },
      },
    },
    "/people/{id}": {
      parameters: ID,
      get: { tags: ["PEOPLE"], responses: { 200: ANSWER } },
    },
    "/people/{id}/follow": {
      parameters: ID,
      post: { tags: ["Follows"], responses: { 200: ANSWER } },
      delete: { tags: ["follows"], responses: { 200: ANSWER } },
    },
  },
};

Deno.test("convert openapi: tags that differ only in letter case are one flow, so an unfollow follows its follow", async () => {
  const people = new Map<number, { id: number; name: string; followed: boolean }>();
  const server = serveStandIn(async (req) => {
    const [, , id, follow] = new URL(req.url).pathname.split("/");
    if (req.method === "POST" && id === undefined) {
      const body = await req.json();
      const person = { id: people.size + 1, name: String(body.name), followed: false };
      people.set(person.id, person);
      return Response.json({ id: person.id, name: person.name }, { status: 201 });
    }
    const person = people.get(Number(id));
    if (!person) return new Response(null, { status: 404 });
    if (follow === "follow" && req.method === "POST") person.followed = true;
    if (follow === "follow" && req.method === "DELETE") {
      // What a RealWorld backend answers for someone not followed.
      if (!person.followed) return Response.json({ errors: ["not following"] }, { status: 404 });
      person.followed = false;
    }
    return Response.json({ id: person.id, name: person.name });
  });
  const { runs, flows, summary } = await convertAndRunSuite(DOCUMENT, server, { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.deepEqual([...flows.keys()].sort(), ["follows.yaml", "people.yaml"], summary);
  assert.match(flows.get("follows.yaml")!, /^name: Follows$/m);
  assert.match(flows.get("people.yaml")!, /^name: People$/m);
});
