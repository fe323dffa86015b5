/** `schema` and `openapi` documents read at load time (lib/load/schema_document.ts). */
import assert from "node:assert/strict";
import { loadStepFlow, stepOf } from "../support/step_flow.ts";
import "../support/engines.ts";

const files = (texts: Record<string, string>) => ({
  readFile: (path: string) =>
    path in texts
      ? { bytes: new TextEncoder().encode(texts[path]) }
      : { message: "no such file", code: "file-read" },
});

Deno.test("an inline schema, a JSON file and an OpenAPI document load", () => {
  const inline = stepOf(["assert: {schema: {type: object}}"]).assert.schemas![0];
  assert.equal(inline.source, "the inline schema");
  const options = files({
    "s.json": '{"type": "object"}',
    "api.yaml": "openapi: 3.0.0\npaths: {}\n",
  });
  const both = stepOf(["assert: {schema: s.json, openapi: api.yaml}"], options).assert.schemas!;
  assert.deepEqual(both.map((s) => [s.kind, s.source]), [["schema", "s.json"], [
    "openapi",
    "api.yaml",
  ]]);
});

Deno.test("a missing file, bad JSON, no object, an OpenAPI document without paths", () => {
  const options = files({ "bad.json": "{", "n.json": "5", "api.yaml": "openapi: 3.0.0\n" });
  const message = (line: string) => loadStepFlow([line], options).problems[0].message;
  assert.match(message("assert: {schema: gone.json}"), /: no such file\.$/);
  assert.match(message("assert: {schema: bad.json}"), /: it is not JSON \(/);
  assert.match(message("assert: {schema: n.json}"), /: it holds no schema object\.$/);
  assert.match(
    message("assert: {openapi: api.yaml}"),
    /it has no "paths", so it is not an OpenAPI/,
  );
});

Deno.test("a YAML document's merge keys are applied, as the document's author wrote them to be", async () => {
  const { parseDocument } = await import("../../lib/load/schema_document.ts");
  // PowerDNS serves its OpenAPI document as YAML and shares its error answers with `<<: *x`:
  // read as YAML 1.2 data, each operation had a response named `<<` and lost the 404.
  const text =
    "common: &errors\n  '404': {description: gone}\nresponses:\n  <<: *errors\n  '200': {description: ok}\n";
  const got = parseDocument(new TextEncoder().encode(text), "api.yaml");
  assert.ok("document" in got);
  const responses = (got.document as { responses: Record<string, unknown> }).responses;
  assert.deepEqual(Object.keys(responses).sort(), ["200", "404"]);
  // JSON has no merge keys: a "<<" member is data.
  const json = parseDocument(new TextEncoder().encode('{"r": {"<<": 1}}'), "api.json");
  assert.ok("document" in json);
  assert.deepEqual(json.document, { r: { "<<": 1 } });
});
