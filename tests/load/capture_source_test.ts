/** One capture's source (lib/load/capture_source.ts). */
import assert from "node:assert/strict";
import { codesOf, loadStepFlow, stepOf } from "../support/step_flow.ts";

const from = (source: string) => stepOf([`capture: {v: ${source}}`]).captures[0].from;

Deno.test("each source kind, read from its table entry", () => {
  assert.deepEqual(from("{cookie: sid}"), { kind: "cookie", name: "sid" });
  assert.deepEqual(from("{xpath: //h1}"), { kind: "xpath", expression: "//h1" });
  assert.deepEqual(from("{header: X-Id}"), { kind: "header", name: "x-id" });
  const regex = from("{regex: 'id=(\\d+)'}");
  assert.equal(regex.kind === "regex" && regex.source, "id=(\\d+)");
  const path = from("{path: $.json.items, first: true}");
  assert.equal(path.kind === "path" && path.first, true);
});

Deno.test("one source; first for paths only; query for headers only", () => {
  assert.deepEqual(codesOf(["capture: {v: {cookie: a, header: b}}"]), ["wrong-type"]);
  assert.deepEqual(codesOf(["capture: {v: {first: true}}"]), ["missing-key"]);
  assert.deepEqual(codesOf(["capture: {v: {cookie: a, first: true}}"]), ["unknown-key"]);
  assert.deepEqual(codesOf(["capture: {v: {path: $.json.a, first: 1}}"]), ["wrong-type"]);
  assert.deepEqual(codesOf(["capture: {v: {cookie: a, query: code}}"]), ["unknown-key"]);
  assert.deepEqual(codesOf(['capture: {v: {header: location, query: ""}}']), ["wrong-type"]);
  assert.deepEqual(codesOf(['capture: {v: {header: "a b"}}']), ["bad-header"]);
  assert.deepEqual(codesOf(["capture: {v: {regex: '('}}"]), ["bad-regex"]);
  const [empty] = loadStepFlow(['capture: {v: {cookie: ""}}']).problems;
  assert.equal(empty.hint, "For example: cookie: session");
});
