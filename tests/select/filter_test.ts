import assert from "node:assert/strict";
import { globToRegExp, matchesFilter } from "../../lib/select/filter.ts";

const flow = { file: "flows/auth/login_basic.yaml", name: "Login with Basic auth" };

Deno.test("no patterns select every flow", () => {
  assert.equal(matchesFilter([], flow), true);
});

Deno.test("a plain pattern matches a substring of the name or the path", () => {
  assert.equal(matchesFilter(["Basic auth"], flow), true);
  assert.equal(matchesFilter(["auth/login"], flow), true);
  assert.equal(matchesFilter(["basic auth"], flow), false, "case-sensitive");
  assert.equal(matchesFilter(["orders"], flow), false);
});

Deno.test("a glob must match the whole name, the whole path or the file name", () => {
  assert.equal(matchesFilter(["login_*.yaml"], flow), true, "file name");
  assert.equal(matchesFilter(["flows/*/login_basic.yaml"], flow), true, "path");
  assert.equal(matchesFilter(["Login *"], flow), true, "name");
  assert.equal(matchesFilter(["auth/*"], flow), false, "a glob is anchored");
  assert.equal(matchesFilter(["flows/*.yaml"], flow), false, "* stays within a segment");
  assert.equal(matchesFilter(["flows/**/*.yaml", "nothing"], flow), true, "any pattern selects");
});

Deno.test("a flow whose name could not be read is matched by path only", () => {
  assert.equal(matchesFilter(["Login*"], { file: flow.file }), false);
  assert.equal(matchesFilter(["**/login_*"], { file: flow.file }), true);
});

Deno.test("globToRegExp: **, ?, character classes and escaping", () => {
  assert.equal(globToRegExp("**/x.yaml").test("x.yaml"), true, "**/ may match no directory");
  assert.equal(globToRegExp("**/x.yaml").test("a/b/x.yaml"), true);
  assert.equal(globToRegExp("a?.yaml").test("ab.yaml"), true);
  assert.equal(globToRegExp("a?.yaml").test("a/.yaml"), false);
  assert.equal(globToRegExp("v[12].yaml").test("v2.yaml"), true);
  assert.equal(globToRegExp("v[!12].yaml").test("v2.yaml"), false);
  assert.equal(
    globToRegExp("a+b(c).yaml").test("a+b(c).yaml"),
    true,
    "regex characters are literal",
  );
  assert.equal(globToRegExp("a[b").test("a[b"), true, "an unclosed [ is literal");
});
