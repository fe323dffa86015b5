import assert from "node:assert/strict";
import {
  baseMime,
  isObject,
  nameValues,
  parseCookieHeader,
  str,
} from "../../lib/convert/_har_fields.ts";

Deno.test("the HAR field readers take what is there and skip what is not", () => {
  assert.ok(isObject({}) && !isObject([]) && !isObject(null));
  assert.equal(str(1), undefined);
  assert.equal(baseMime(undefined), "");
  assert.equal(baseMime(" Text/HTML ; charset=utf-8"), "text/html");
  assert.deepEqual(nameValues([{ name: "a", value: 1 }, { name: "" }, "x", { value: "v" }]), [
    { name: "a", value: "1" },
  ]);
  assert.deepEqual(nameValues(undefined), []);
  assert.deepEqual(parseCookieHeader("a=1; b; c=d=e"), [
    { name: "a", value: "1" },
    { name: "c", value: "d=e" },
  ]);
});
