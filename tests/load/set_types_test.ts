/** A set load starts empty: no flows, problems, files, bytes or listed files. */
import assert from "node:assert/strict";
import { emptySet } from "../../lib/load/set_types.ts";

Deno.test("each empty set is its own", () => {
  assert.deepEqual(emptySet().result, {
    flows: [],
    problems: [],
    files: [],
    bytes: new Map(),
    warnings: [],
    setup: [],
    teardown: [],
    included: [],
  });
  const a = emptySet();
  const b = emptySet();
  a.result.files.push("x.yaml");
  a.reported.add("x.yaml");
  assert.deepEqual([b.result.files, [...b.reported]], [[], []]);
});
