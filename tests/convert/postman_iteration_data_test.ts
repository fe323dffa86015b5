/**
 * `pm.iterationData.get(k)` reads the run's data file, and a flow converted without one
 * (`--iteration-data`) runs as Newman does without `-d`: it is `undefined`. It was read as the
 * variable `k`, so a check comparing with it passed on the collection's value
 * where Newman fails, and a set copied that value where Newman sets nothing.
 */
import assert from "node:assert/strict";
import { translateScript } from "../../lib/convert/postman/script/translate.ts";

/**
 * `shelf` is a collection variable, and no data file is given: the data scope's getter reads
 * `undefined` (as the converter's reader says), never the variable.
 */
const variable = (n: string, scope?: string) =>
  n === "shelf" && scope !== "data"
    ? { k: "var" as const, name: n, expr: "${vars.shelf}" }
    : { k: "lit" as const, value: undefined };

Deno.test("postman iteration data: pm.iterationData.get is undefined, never the variable of that name", () => {
  const t = translateScript(
    'pm.test("a", () => pm.expect(pm.response.json().a).to.eql(pm.iterationData.get("shelf")));',
    variable,
  );
  assert.deepEqual(t.checks.map((c) => "cond" in c ? c.cond : c), [
    { path: "$.json.a", op: "exists", value: false },
  ]);
});

Deno.test("postman iteration data: a set from it is not a copy of the variable: named as not translated", () => {
  const t = translateScript('pm.environment.set("c", pm.iterationData.get("shelf"));', variable);
  assert.deepEqual(t.sets, []);
  assert.deepEqual(t.dropped, ["c"]);
});
