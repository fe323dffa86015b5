/** Compiling a path once: plain chains here, the rest by json-p3, each mistake at its offset. */
import assert from "node:assert/strict";
import { compilePath, MAX_PATH_NESTING, PathSyntaxError } from "../../lib/expr/path_compile.ts";
import { pathEngine } from "../../lib/expr/path_engine.ts";

await pathEngine.load();

Deno.test("a plain chain is compiled without json-p3, header names in lower case", () => {
  assert.deepEqual(compilePath("$.json.items[0]['id']", "response").chain, [
    "json",
    "items",
    0,
    "id",
  ]);
  assert.deepEqual(compilePath("$.headers.Location", "response").chain, ["headers", "location"]);
  assert.equal(compilePath("$.a", "body"), compilePath("$.a", "body"), "compiled once");
});

Deno.test("other paths are json-p3 queries, with a filter weight", () => {
  const filtered = compilePath("$.items[?@.price > 10].name", "body");
  assert.ok(filtered.query && filtered.filtered && !filtered.singular);
  assert.equal(filtered.weight, 3, "$, [? and @");
  assert.equal(compilePath("$.items[?match(@.a, 'x')]", "body").weight, Infinity);
  assert.equal(compilePath("$.items[*]", "body").weight, 0);
});

function mistake(source: string, root: "body" | "response"): [number, string] {
  try {
    compilePath(source, root);
  } catch (error) {
    assert.ok(error instanceof PathSyntaxError);
    return [error.offset, error.message];
  }
  assert.fail(`${source} compiled`);
}

Deno.test("mistakes: the response root, nesting and syntax", () => {
  assert.deepEqual(mistake("$.id", "response"), [
    1,
    'Path "$.id" does not start at $.json, $.status or $.headers.',
  ]);
  assert.equal(mistake("$.items[*].id", "response")[1].includes("does not start at $.json"), true);
  const deep = "$" + "[?@".repeat(MAX_PATH_NESTING + 1) + "]".repeat(MAX_PATH_NESTING + 1);
  assert.equal(mistake(deep, "body")[0], 1 + 3 * MAX_PATH_NESTING);
  assert.equal(mistake("$.items[", "body")[0], 8);
});

Deno.test("a path json-p3 must compile asks for the engine when it is not loaded (not a syntax error)", async () => {
  const code = `import { compilePath } from ${
    JSON.stringify(import.meta.resolve("../../lib/expr/path_compile.ts"))
  };
import { ModuleNeeded } from ${JSON.stringify(import.meta.resolve("../../lib/_util/on_demand.ts"))};
console.log(compilePath("$.a.b", "body").chain?.join());
try { compilePath("$.items[*]", "body"); console.log("compiled"); }
catch (error) { console.log(error instanceof ModuleNeeded ? "module needed" : String(error)); }`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-check", code],
    stdout: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  assert.equal(new TextDecoder().decode(out.stdout), "a,b\nmodule needed\n");
});
