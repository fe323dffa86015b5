/**
 * Hostile collections for convert postman that ended in a stack trace
 * (exit 3) or in a flow `flowrun validate` refused: names Object answers for
 * itself (`{{constructor}}`, `__proto__`, a body language `toString`), and
 * variable values holding `${` or another variable.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { loadFlow } from "../../lib/load/mod.ts";

const SCHEMA = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const env = () => "http://127.0.0.1:9";

/** Each flow of a conversion, with what `flowrun validate` finds in it. */
function problemsOf(collection: unknown): string[] {
  const { files } = convertPostman(JSON.stringify(collection));
  return files.filter((f) => f.path.endsWith(".yaml")).flatMap((f) =>
    loadFlow(f.text, f.path, { env }).problems.map((p) => `${p.code}: ${p.message}\n${f.text}`)
  );
}

Deno.test("postman guards: names of Object's own members are names like any other", () => {
  const problems = problemsOf({
    info: { name: "c", schema: SCHEMA },
    variable: [{ key: "hasOwnProperty", value: "1" }, { key: "__proto__", value: "p" }],
    item: [{
      name: "constructor",
      event: [{
        listen: "test",
        script: {
          exec: [
            "pm.test('a', () => pm.expect(pm.response.json().constructor).to.be.constructor);",
            "pm.environment.set('toString', pm.response.json().__proto__);",
            "tests['b'] = responseCode.constructor === 200;",
          ],
        },
      }],
      request: {
        method: "POST",
        header: [{ key: "X-P", value: "{{__proto__}}" }],
        url: "https://a.example/{{constructor}}/{{$constructor}}/{{hasOwnProperty}}/{{valueOf}}",
        body: { mode: "raw", raw: "{}", options: { raw: { language: "toString" } } },
        auth: { type: "constructor" },
      },
    }],
  });
  assert.deepEqual(problems.filter((p) => !p.startsWith("unset-env")), []);
});
