import assert from "node:assert/strict";
import { getOwn, setOwn } from "../../lib/_util/own_property.ts";

Deno.test("keys named like prototype members are own members, and only own members are found", () => {
  const record: Record<string, unknown> = {};
  for (const key of ["__proto__", "constructor", "toString", "a"]) setOwn(record, key, key.length);
  assert.equal(Object.getPrototypeOf(record), Object.prototype);
  assert.deepEqual(Object.keys(record), ["__proto__", "constructor", "toString", "a"]);
  assert.equal(getOwn(record, "__proto__"), 9);
  assert.equal(getOwn({}, "constructor"), undefined);
  assert.equal(getOwn({}, "hasOwnProperty"), undefined);
});
