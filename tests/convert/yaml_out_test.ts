import assert from "node:assert/strict";
import {
  commented,
  isPlainSafe,
  oneLine,
  scalar,
  toYaml,
  yflow,
  ymap,
} from "../../lib/convert/yaml_out.ts";

Deno.test("scalars are plain only where YAML reads them back as the same string", () => {
  assert.ok(isPlainSafe("${vars.base_url}/items", false) && !isPlainSafe("${vars.x}", true));
  for (const text of ["true", "123", "a: b", "- x", "#c", "", " lead"]) {
    assert.ok(!isPlainSafe(text, false), text);
    assert.equal(JSON.parse(scalar(text, false)), text);
  }
  assert.equal(scalar(null, false), "null");
  assert.equal(oneLine("a\r\nb"), "a b");
});

Deno.test("toYaml writes maps, lists, comments and flow maps", () => {
  const text = toYaml(
    ["made by hand"],
    ymap([
      ["name", "demo"],
      ["skip", undefined],
      ["steps", [
        commented(["GET /a"], ymap([["name", "a"], ["check", yflow([["type", "string"]])]])),
      ]],
    ]),
  );
  assert.equal(
    text,
    "# made by hand\nname: demo\nsteps:\n  # GET /a\n  - name: a\n    check: { type: string }\n",
  );
});
