/**
 * `pm.iterationData.get(k)` reads the run's data file, and a converted flow runs
 * without one (as Newman does without `-d`): it is `undefined`. It was read as the
 * variable `k`, so a check comparing with it passed on the collection's value
 * where Newman fails, and a set copied that value where Newman sets nothing.
 */
import assert from "node:assert/strict";
import { translateScript } from "../../lib/convert/postman/script/translate.ts";

/** `shelf` is a collection variable; iteration data must not read it. */
const variable = (n: string) =>
  n === "shelf"
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
