/**
 * `convert openapi` on an item whose identifier is made from what an update
 * changes: RealWorld's `{slug}` of `/articles/{slug}`, which the spec says
 * "also gets updated when the title is changed" (a second RealWorld backend,
 * Koa + Knex, did so when measured by hand, see docs/real-servers.md). The steps
 * after the update sent the slug the create answered and got 404. Where the
 * update's 2xx answer holds the identifier where the create's does
 * (`article.slug`), the steps after it read it from the update's answer. A
 * stand-in on 127.0.0.1 renames the item on each update of its title, for a
 * PUT and a PATCH, and a `Location`-only create and an answer without the
 * identifier keep reading the create's.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const wrapped = (schema: unknown) => ({
  type: "object",
  required: ["note"],
  properties: { note: schema },
});

/** A note whose `slug` has the schema `slug`. */
const note = (slug: unknown = { type: "string" }) => ({
  type: "object",
  required: ["slug", "title"],
  properties: { slug, title: { type: "string" } },
});
const NOTE = note();
const NEW = { type: "object", required: ["title"], properties: { title: { type: "string" } } };
const SLUG = { name: "slug", in: "path", required: true, schema: { type: "string" } };

/**
 * A notes API whose `{slug}` is its title's: `method` updates, answering
 * `answer`; `made` is the create's body and `answered` its answer's note.
 */
function document(method: "put" | "patch", answer: unknown, made: unknown = NEW, answered = NOTE) {
  return {
    openapi: "3.0.3",
    info: { title: "notes", version: "1" },
    paths: {
      "/notes": {
        post: {
          requestBody: { required: true, ...json(wrapped(made)) },
          responses: { 201: { description: "made", ...json(wrapped(answered)) } },
        },
      },
      "/notes/{slug}": {
        parameters: [SLUG],
        get: { responses: { 200: { description: "the note", ...json(wrapped(NOTE)) } } },
        [method]: {
          requestBody: { required: true, ...json(wrapped(NEW)) },
          responses: { 200: { description: "updated", ...answer as object } },
        },
        delete: { responses: { 204: { description: "gone" } } },
      },
      "/notes/{slug}/likes": {
        parameters: [SLUG],
        post: { responses: { 201: { description: "liked" } } },
      },
    },
  };
}

/**
 * A notes server whose slug follows the title, as RealWorld's does (or,
 * not `renames`, one that keeps it and answers an update with a report):
 * what each request got.
 */
function renamingServer(renames = true) {
  const notes = new Map<string, { slug: string; title: string }>();
  const got: string[] = [];
  let made = 0;
  const server = serveStandIn(async (req) => {
    const [, , slug, sub] = new URL(req.url).pathname.split("/");
    const body = await req.json().catch(() => undefined);
    const answer = (status: number, value?: unknown) => {
      got.push(`${req.method} ${sub ? `/${sub}` : slug ? "{slug}" : ""} ${status}`);
      return value === undefined
        ? new Response(null, { status })
        : Response.json(value, { status });
    };
    if (!slug) {
      const note = { slug: `${body.note.title}-${++made}`, title: body.note.title };
      notes.set(note.slug, note);
      return answer(201, { note });
    }
    const note = notes.get(slug);
    if (!note) return answer(404, { errors: { slug: ["not found"] } });
    if (sub) return answer(201);
    if (req.method === "DELETE") return notes.delete(slug), answer(204);
    if (req.method === "GET") return answer(200, { note });
    // An action's report, as Signal K's resources answer an update: no id in it.
    if (!renames) return answer(200, { state: "COMPLETED" });
    notes.delete(slug);
    const renamed = { slug: `${body.note.title}-${++made}`, title: body.note.title };
    notes.set(renamed.slug, renamed);
    return answer(200, { note: renamed });
  });
  return { server, got };
}

for (const method of ["put", "patch"] as const) {
  Deno.test(`convert openapi: after a ${method.toUpperCase()} that answers the item's new slug, later steps send that slug`, async () => {
    const { server, got } = renamingServer();
    const { runs, flows } = await convertAndRunSuite(
      document(method, json(wrapped(NOTE))),
      server,
      { runs: 2 },
    );
    for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(got.filter((g) => / 404$/.test(g)).length, 0, got.join("\n"));
    assert.equal(got.filter((g) => g === "DELETE {slug} 204").length, 2, got.join("\n"));
    const text = [...flows.values()].join("\n");
    assert.match(
      text,
      /capture:\s+slug: \$\.json\.note\.slug[^]*capture:\s+slug: \$\.json\.note\.slug/,
    );
  });
}

Deno.test("convert openapi: an update whose answer does not hold the slug leaves later steps on the create's", async () => {
  const answer = json({ type: "object", properties: { ok: { type: "boolean" } } });
  const { server } = renamingServer();
  const { flows } = await convertAndRunSuite(document("put", answer), server, { runs: 0 });
  const text = [...flows.values()].join("\n");
  // Only the create captures the slug: every step of the item reads it.
  assert.equal(text.match(/slug: \$\.json\.note\.slug/g)?.length, 1, text);
  assert.doesNotMatch(text, /steps\.update\w*\.capture/);
});

/** The flows of `doc`, converted only. */
async function converted(doc: unknown): Promise<string> {
  const { server } = renamingServer();
  const { flows } = await convertAndRunSuite(doc, server, { runs: 0 });
  return [...flows.values()].join("\n");
}

Deno.test("convert openapi: a slug the client sent at the create, a UUID or text of a pattern, stays the create's after an update", async () => {
  // The client names it: an update changes it only when the client says so.
  const named = { ...NEW, properties: { ...NEW.properties, slug: { type: "string" } } };
  const uuid = note({ type: "string", format: "uuid" });
  const keyed = document("put", json(wrapped(uuid)), NEW, uuid);
  const shaped = note({ type: "string", pattern: "^[0-9a-f-]{36}$" });
  const patterned = document("put", json(wrapped(shaped)), NEW, shaped);
  for (const doc of [document("put", json(wrapped(NOTE)), named), keyed, patterned]) {
    const text = await converted(doc);
    assert.equal(text.match(/slug: \$\.json\.note\.slug/g)?.length, 1, text);
  }
});

Deno.test("convert openapi: an update answering a report of the action, not the item, leaves later steps on the create's slug", async () => {
  // Signal K's resources: `{state, statusCode, id}` declared, `{state, statusCode}` answered.
  const report = json({
    type: "object",
    properties: {
      state: { type: "string" },
      note: { type: "object", properties: { slug: { type: "string" } } },
    },
  });
  const { server, got } = renamingServer(false);
  const { runs, flows } = await convertAndRunSuite(document("put", report), server, { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.equal(got.filter((g) => g === "DELETE {slug} 204").length, 2, got.join("\n"));
  const text = [...flows.values()].join("\n");
  assert.equal(text.match(/slug: \$\.json\.note\.slug/g)?.length, 1, text);
});
