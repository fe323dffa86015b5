import assert from "node:assert/strict";
import { Spelling } from "../../lib/convert/spelling.ts";

Deno.test("the two spellings of references and JSON paths", () => {
  const a = new Spelling("a"), b = new Spelling("b");
  assert.equal(a.capRef("login", "token"), "${steps.login.capture.token}");
  assert.equal(b.capRef("login", "token"), "${steps.login.token}");
  assert.equal(a.jsonPath(["items", 0, "id"]), "$.json.items[0].id");
  assert.equal(b.jsonPath(["id"]), "$.id");
  assert.equal(a.varRef("base_url"), "${vars.base_url}");
  assert.equal(a.lit("cost ${x}"), "cost $${x}");
});
