/**
 * A create refused 5xx when no two flows ran at once is not two creates
 * overlapping. A NestJS API measured by hand (2026-11-29) answered its
 * creates 500 for want of a row its document never described (a role every
 * sign-up is given); the coverage lines said a server numbering items
 * racily may refuse one of two creates sent at once and advised `--jobs 1`,
 * and run again with `--jobs 1` the same 500 came back with the same advice.
 * The flows' own times say whether they overlapped: one flow at a time, the
 * line says the refusal was not that and advises nothing, whether `--jobs 1`
 * or a run of one flow made it so. The converted
 * suite of a document of two flows, each making a note, runs against a
 * stand-in on 127.0.0.1 that refuses every note 500.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const note = {
  type: "object",
  required: ["title"],
  properties: { id: { type: "integer" }, title: { type: "string" } },
};

const create = (tag: string) => ({
  post: {
    tags: [tag],
    requestBody: json(note),
    responses: { 201: { description: "A note", ...json(note) } },
  },
});

const document = {
  openapi: "3.0.0",
  info: { title: "refused", version: "1" },
  paths: { "/notes": create("Notes"), "/drafts": create("Drafts") },
};

/** Every create refused 500, whatever else runs. */
function refusingServer() {
  return serveStandIn(() => Response.json({ statusCode: 500 }, { status: 500 }));
}

Deno.test("run: creates refused 5xx with one flow at a time are not blamed on overlapping creates", async () => {
  const { runs, flows, summary } = await convertAndRunSuite(document, refusingServer(), {
    extra: ["--jobs", "1"],
  });
  assert.equal(flows.size, 2, summary);
  const out = runs[0].stdout + runs[0].stderr;
  assert.notEqual(runs[0].code, 0, summary + out);
  assert.match(out, /POST \/notes answered 500/, out);
  assert.match(out, /POST \/drafts answered 500/, out);
  assert.match(out, /no two flows ran at once/, out);
  assert.doesNotMatch(out, /--jobs 1|run again/, out);
});

Deno.test("run: a create refused 5xx in a run of one flow is not blamed on overlapping creates either", async () => {
  const one = { ...document, paths: { "/notes": create("Notes") } };
  const { runs, flows, summary } = await convertAndRunSuite(one, refusingServer());
  assert.equal(flows.size, 1, summary);
  const out = runs[0].stdout + runs[0].stderr;
  assert.match(out, /POST \/notes answered 500, .*no two flows ran at once/, out);
  assert.doesNotMatch(out, /--jobs 1|run again/, out);
});
