/** Paths as reports show them, and the names a write places beside a file. */
import assert from "node:assert/strict";
import { displayPath, join, parentOf, relativeTo, tempBeside } from "../../lib/io/paths.ts";

Deno.test("displayPath is relative inside the working directory and /-separated", () => {
  assert.equal(displayPath(`${Deno.cwd()}/flows/a.yaml`), "flows/a.yaml");
  assert.equal(displayPath(`${Deno.cwd()}/flows//a.yaml`), "flows/a.yaml");
  assert.equal(displayPath("./././flows//a.yaml"), "flows/a.yaml");
  assert.equal(displayPath("//elsewhere//a.yaml"), "/elsewhere/a.yaml");
  if (Deno.build.os !== "windows") {
    assert.equal(
      displayPath("flows/a\\b.yaml"),
      "flows/a\\b.yaml",
      "a backslash is part of a name",
    );
  }
});

Deno.test("relativeTo keys a file by the argument it was found under", () => {
  assert.equal(relativeTo("flows", "flows/a/b.yaml"), "a/b.yaml");
  assert.equal(relativeTo("./flows/", "flows/a.yaml"), "a.yaml");
  assert.equal(relativeTo(".", "flows/a.yaml"), "flows/a.yaml");
  assert.equal(relativeTo("other", "flows/a.yaml"), "flows/a.yaml");
  assert.equal(join("a/", "/b", "c.yaml"), "a/b/c.yaml");
});

Deno.test("parentOf and tempBeside keep a write on the file's own folder", () => {
  assert.equal(parentOf("out/deep/r.json"), "out/deep");
  assert.equal(parentOf("r.json"), ".");
  assert.equal(parentOf("/r.json"), "/");
  assert.equal(parentOf("out\\r.json"), "out");
  const a = tempBeside("out/r.json");
  assert.match(a, /^out\/r\.json\.[0-9a-f]{8}\.tmp$/);
  assert.notEqual(a, tempBeside("out/r.json"), "two writers never share a temporary file");
});
