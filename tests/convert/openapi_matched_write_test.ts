/**
 * `convert openapi` on writes at a collection's own path that act on the items their body
 * matches. MITRE Caldera 5.3.0's served Swagger 2.0 document (aiohttp-apispec; measured by hand
 * 2026-11-30, docs/real-servers.md) has `POST /facts` (a `Fact`, `trait` required) beside
 * `DELETE /facts` (a `Partial-Fact`: the same members, none required) and `PATCH /facts`
 * (`{criteria, updates}`, each a `Partial-Fact`); relationships the same. Nothing being
 * required, both were sent `{}` and refused 400 ("Need a 'criteria' to match on and 'updates'
 * to apply", "Invalid fact data was provided"). A body schema at the create's very path that
 * requires nothing and holds the create's members selects the items by them: the step now sends
 * what the create sent (at the top, or in each member holding all of them), a value the run made
 * read back from the create's answer, so it acts on the run's own item. A step that sends
 * something of its own, or a schema that requires members, keeps its body.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ "application/json": { schema } });
const ok = { "200": { description: "" } };
const props = { label: { type: "string" }, weight: { type: "integer" } };
const tag = { type: "object", properties: props, required: ["label"] };
const partial = { type: "object", properties: props };
const body = (schema: unknown) => ({ required: false, content: json(schema) });

/** Tags made here, then changed and deleted by what they hold. */
function document(): Record<string, unknown> {
  const update = { type: "object", properties: { criteria: partial, updates: partial } };
  return {
    openapi: "3.0.3",
    info: { title: "Labels", version: "1" },
    paths: {
      "/tags": {
        post: {
          requestBody: body(tag),
          responses: { "200": { description: "", content: json(tag) } },
        },
        patch: { requestBody: body(update), responses: ok },
        delete: { requestBody: body(partial), responses: ok },
      },
    },
  };
}

/** Refuses a write that selects nothing, and one that matches no tag it holds. */
function server(seen: string[]) {
  const labels = new Set<string>();
  return serveStandIn(async (req) => {
    const sent = await req.json().catch(() => ({}));
    const criteria = req.method === "PATCH" ? sent.criteria : sent;
    const label = criteria?.label;
    let status = 200;
    if (req.method === "POST") labels.add(sent.label);
    else if (typeof label !== "string") status = 400;
    else if (!labels.has(label)) status = 404;
    else if (req.method === "DELETE") labels.delete(label);
    seen.push(`${req.method} ${status}`);
    return Response.json(status === 200 ? sent : { error: "no match" }, { status });
  });
}

Deno.test("convert openapi: a write at the create's path selecting by its members sends what the create sent", async () => {
  const seen: string[] = [];
  const { runs, summary, flows } = await convertAndRunSuite(document(), server(seen));
  const steps = [...flows.values()].join("\n");
  assert.deepEqual(seen, ["POST 200", "PATCH 200", "DELETE 200"], `${summary}\n${steps}`);
  assert.match(runs[0].stdout, /3 steps: 3 passed/, runs[0].stdout);
});
