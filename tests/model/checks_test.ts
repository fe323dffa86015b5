import assert from "node:assert/strict";
import { CAPTURE_SOURCES, TYPE_NAMES } from "../../lib/model/checks.ts";
import {
  CAPTURE_SOURCES as FROM_FLOW,
  TYPE_NAMES as TYPES_FROM_FLOW,
} from "../../lib/model/flow.ts";

Deno.test("the type names and capture sources, the same from flow.ts", () => {
  assert.deepEqual([...TYPE_NAMES], [
    "string",
    "number",
    "integer",
    "boolean",
    "object",
    "array",
    "null",
  ]);
  assert.deepEqual([...CAPTURE_SOURCES], ["path", "header", "cookie", "regex", "xpath", "body"]);
  assert.equal(FROM_FLOW, CAPTURE_SOURCES);
  assert.equal(TYPES_FROM_FLOW, TYPE_NAMES);
});
