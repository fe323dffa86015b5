/**
 * A capture under a condition (`when`, with the earlier value kept `otherwise`)
 * has no Artillery counterpart: Artillery captures from every answer. The export
 * still captures the value (what a passing run reads) and says, in its notes,
 * that the condition is not exported, instead of dropping it silently.
 */
import assert from "node:assert/strict";
import { artilleryCapture } from "../../lib/export/captures.ts";
import { newScope } from "../../lib/export/scope.ts";
import { compilePath } from "../../lib/expr/path.ts";
import { compileValue } from "../../lib/expr/template.ts";

Deno.test("export: a capture's when is named in the notes, the value still captured", () => {
  const place = { scope: newScope(), flow: "f", flowIndex: 0, vars: new Set<string>(), step: "s" };
  const when = [{
    kind: "path" as const,
    path: compilePath("$.status", "response"),
    operator: "equals" as const,
    expected: compileValue(201),
    line: 1,
    column: 1,
  }];
  const from = {
    kind: "path" as const,
    path: compilePath("$.json.id", "response"),
    first: false,
    when,
    otherwise: compileValue("old"),
  };
  const got = artilleryCapture({ name: "id", line: 1, column: 1, from }, place);
  assert.deepEqual(got, { json: "$.id", as: "f0_s__id" });
  assert.equal(place.scope.notes.length, 1);
  assert.match(place.scope.notes[0].what, /"when" holds/);
});
