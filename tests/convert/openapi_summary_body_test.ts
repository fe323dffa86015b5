/**
 * `convert openapi`: a write that documents no request body, whose summary
 * is a verb that hands something over followed by the name of one of the
 * document's schemas, sends a body of that schema. Found on WireMock 3.13.2
 * (docs/real-servers.md): `POST /__admin/mappings/import` is "Import stub
 * mappings", documents no `requestBody`, and the document's `stub-mappings`
 * schema is what the server takes (`{"mappings": […]}`); the step sent
 * nothing (422 "No content to map"). A summary whose verb hands nothing
 * over ("Reset stub mappings") or that names no schema keeps its step
 * bodiless, and so does a write that answers JSON (Jupyter Server's "Create
 * a new terminal" answers the `Terminal` the server makes). Every spelling of a schema's name is the same words
 * (`note-batch`, `note_batch`, `NoteBatch`, `Note Batch`), in OpenAPI 3
 * and in Swagger 2.0's `definitions`.
 *
 * The stand-in below refuses an import without its notes, on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const note = {
  type: "object",
  required: ["text"],
  properties: { text: { type: "string", example: "Buy milk" } },
};
const batch = (ref: string) => ({
  type: "object",
  required: ["notes"],
  properties: { notes: { type: "array", items: { $ref: ref } } },
});

function openapi3(name: string, summary: string, answers = false): Record<string, unknown> {
  const ref = (n: string) => `#/components/schemas/${n}`;
  const answer = answers
    ? { content: { "application/json": { schema: { $ref: ref(name) } } } }
    : {};
  return {
    openapi: "3.0.3",
    info: { title: "Notes", version: "1" },
    paths: {
      "/notes": {
        get: { summary: "List notes", responses: { "200": { description: "OK" } } },
      },
      "/notes/import": {
        post: {
          tags: ["Notes"],
          summary,
          responses: { "200": { description: "Imported", ...answer } },
        },
      },
      "/notes/reset": {
        post: { summary: `Reset ${name}`, responses: { "200": { description: "Reset" } } },
      },
    },
    components: { schemas: { Note: note, [name]: batch(ref("Note")) } },
  };
}

function swagger2(name: string, summary: string): Record<string, unknown> {
  return {
    swagger: "2.0",
    info: { title: "Notes", version: "1" },
    paths: {
      "/notes/import": {
        post: { summary, responses: { "200": { description: "Imported" } } },
      },
      "/notes/reset": {
        post: { summary: `Reset ${name}`, responses: { "200": { description: "Reset" } } },
      },
    },
    definitions: { Note: note, [name]: batch("#/definitions/Note") },
  };
}

/** The bodies each path got; an import without `notes` is refused, a reset takes anything. */
function startServer() {
  const got: Record<string, unknown[]> = {};
  const stand = serveStandIn(async (req) => {
    const path = new URL(req.url).pathname;
    const text = await req.text();
    const body = text === "" ? undefined : JSON.parse(text);
    (got[`${req.method} ${path}`] ??= []).push(body);
    if (path === "/notes/import") {
      if (!Array.isArray(body?.notes)) {
        return Response.json({ error: "No content to map" }, { status: 422 });
      }
      return Response.json({ imported: body.notes.length });
    }
    return Response.json(path === "/notes" ? [] : {});
  });
  return { ...stand, got };
}

for (const name of ["note-batch", "note_batch", "NoteBatch", "Note Batch"]) {
  for (const [form, document] of [["OpenAPI 3", openapi3], ["Swagger 2.0", swagger2]] as const) {
    Deno.test(`convert openapi: "Import ${name}" with no documented body sends a body of the schema ${name} (${form})`, async () => {
      const server = startServer();
      const words = name.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[-_]/g, " ").toLowerCase();
      const { runs, flows, summary } = await convertAndRunSuite(
        document(name, `Import ${words}`),
        server,
      );
      assert.equal(runs[0].code, 0, runs[0].stdout + runs[0].stderr);
      // The step says where its body came from; the summary no longer calls it bodiless.
      const text = [...flows.values()].join("\n");
      assert.ok(text.includes(`# body: the schema ${name} its summary names`), text);
      assert.doesNotMatch(summary, /Sent with no body/);
      assert.deepEqual(server.got["POST /notes/import"], [{ notes: [{ text: "Buy milk" }] }]);
      // "Reset" hands nothing over: the reset stays as the document gives it, bodiless.
      assert.deepEqual(server.got["POST /notes/reset"], [undefined]);
    });
  }
}

Deno.test("convert openapi: a bodiless write whose summary names no schema, or a verb that hands nothing over, or that answers JSON, sends nothing", async () => {
  const cases: [string, boolean][] = [
    ["Import everything", false],
    ["Export note batch", false],
    ["Import note batch now", false],
    // Jupyter's "Create a new terminal" answers its Terminal: the server makes it.
    ["Create a new note batch", true],
  ];
  for (const [summary, answers] of cases) {
    const server = startServer();
    const { runs } = await convertAndRunSuite(openapi3("NoteBatch", summary, answers), server);
    assert.notEqual(runs[0].code, 0, summary);
    assert.deepEqual(server.got["POST /notes/import"], [undefined], summary);
  }
});
