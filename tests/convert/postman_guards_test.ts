/**
 * Hostile collections for convert postman that ended in a stack trace
 * (exit 3) or in a flow `flowrun validate` refused: names Object answers for
 * itself (`{{constructor}}`, `__proto__`, a body language `toString`), and
 * variable values holding `${` or another variable.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { loadFlow } from "../../lib/load/mod.ts";
import { parse } from "yaml";

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

Deno.test("postman guards: a variable naming others is sent as Postman resolves it, and validates", () => {
  // The shape of a public collection's variables (`apiBase` = `{{baseUrl}}/api`, see the fixtures'
  // README), with a value holding `${`, a secret, a variable that names nothing, and a cycle.
  const collection = {
    info: { name: "Flight Radar", schema: SCHEMA },
    variable: [
      { key: "baseUrl", value: "http://localhost:8080" },
      { key: "apiBase", value: "{{baseUrl}}/api" },
      { key: "version", value: "v1" },
      { key: "prefix", value: "/{{version}}/items" },
      { key: "greeting", value: "Hi ${name} {{nobody}}" },
      { key: "salutation", value: "Dear {{token}}" },
      { key: "token", value: "" },
      { key: "a", value: "{{b}}" },
      { key: "b", value: "{{a}}" },
    ],
    item: [
      { name: "Live", request: { method: "GET", url: "{{apiBase}}/aircraft/live" } },
      {
        name: "Prefixed",
        request: {
          method: "POST",
          header: [{ key: "X-Salutation", value: "{{salutation}}" }, {
            key: "X-Loop",
            value: "{{a}}",
          }],
          url: "http://localhost:8080{{prefix}}?g={{greeting}}",
          body: { mode: "raw", raw: "{{greeting}}" },
        },
      },
    ],
  };
  assert.deepEqual(problemsOf(collection).filter((p) => !p.startsWith("unset-env")), []);
  const text = convertPostman(JSON.stringify(collection)).files[0].text;
  const flow = parse(text);
  assert.equal(
    flow.steps[0].request.url,
    "${ENV.API_BASE:-http://localhost:8080/api}/aircraft/live",
  );
  assert.equal(flow.vars.prefix, "/v1/items");
  assert.equal(flow.vars.greeting, "Hi $${name} ${vars.lbrace}{nobody}}");
  // `token` is defined empty: it may be set, and is sent empty (as Newman does) when it is not.
  assert.equal(flow.vars.salutation, "Dear ${ENV.TOKEN:-}");
  assert.equal(flow.vars.a, "${vars.lbrace}{a}}");
  assert.equal(Object.keys(flow.vars)[0], "lbrace", "the literal brace is defined before its use");
});

Deno.test("postman guards: a literal $ before a variable is sent, not the variable's name", () => {
  const collection = {
    info: { name: "Prices", schema: SCHEMA },
    variable: [{ key: "price", value: "12" }, { key: "brace", value: "{x}" }],
    item: [{
      name: "Quote",
      request: {
        method: "POST",
        header: [{ key: "X-Cost", value: "${{price}}" }],
        url: "https://a.example/q",
        body: { mode: "raw", raw: "Total: $${{price}} {{brace}} ${{brace}}" },
      },
    }],
  };
  assert.deepEqual(problemsOf(collection).filter((p) => !p.startsWith("unset-env")), []);
  const flow = parse(convertPostman(JSON.stringify(collection)).files[0].text);
  assert.equal(Object.keys(flow.vars)[0], "dollar");
  assert.equal(flow.steps[0].request.headers["X-Cost"], "${vars.dollar}${vars.price}");
  assert.equal(
    flow.steps[0].request.body,
    "Total: ${vars.dollar}${vars.dollar}${vars.price} ${vars.brace} ${vars.dollar}${vars.brace}",
  );
});
