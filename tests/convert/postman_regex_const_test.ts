/**
 * A regular expression kept in a `const` before the check that uses it:
 * `const emailRegex = /^[^\s@]+@[^\s@]+\.[^\s@]+$/; pm.expect(json.email).to.match(emailRegex);`.
 * A demo API's own collection checks a read user's email that way; the converter read a
 * literal written in the call only, so the check stayed a comment. A `const` cannot be given
 * another value, so the name is the literal: both `to.match(re)` and `re.test(x)` are `matches`
 * checks now, which fail on text the expression does not match.
 */
import assert from "node:assert/strict";
import { runCollectionAgainst } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

/** A collection reading `/user`, its email checked through a regular expression kept by name. */
function collection(base: string) {
  return {
    info: { name: "Users", schema: V21 },
    item: [{
      name: "Get User",
      event: [{
        listen: "test",
        script: {
          exec: [
            "const outer = /^[a-z]+$/;",
            "pm.test('Email format is valid', function () {",
            "    const jsonData = pm.response.json();",
            "    const emailRegex = /^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$/;",
            "    pm.expect(jsonData.email).to.match(emailRegex);",
            "});",
            "pm.test('Name is lower case', () => {",
            "    pm.expect(outer.test(pm.response.json().name)).to.be.true;",
            "});",
          ],
        },
      }],
      request: { method: "GET", url: `${base}/user` },
    }],
  };
}

/** Serves one user, converts and runs the collection against it: the run and the flow. */
function runAgainst(user: Record<string, string>) {
  return runCollectionAgainst(collection, () => Response.json(user));
}

Deno.test("postman regex const: a regular expression kept by name is the check's pattern", async () => {
  const { run, flow } = await runAgainst({ email: "ada@example.com", name: "ada" });
  assert.doesNotMatch(flow.text, /# untranslated/, flow.text);
  assert.equal(flow.text.match(/matches:/g)?.length, 2, flow.text);
  assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
});

Deno.test("postman regex const: the kept pattern fails on text it does not match", async () => {
  const { run, flow } = await runAgainst({ email: "not-an-email", name: "Ada" });
  assert.notEqual(run.code, 0, run.stdout + run.stderr + flow.text);
  assert.match(run.stdout + run.stderr, /Email format is valid/);
  assert.match(run.stdout + run.stderr, /Name is lower case/);
});
