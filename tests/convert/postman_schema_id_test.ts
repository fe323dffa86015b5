/**
 * `pm.expect(tv4.validate(json, schema), \`…${tv4.error}…\`).to.be.true` with a schema that names
 * itself (`$id: 'todo-schema'`, as a public json-server project's own Newman suite writes every
 * schema it checks) was left as a comment: `$id` was not a keyword both drafts read alike. tv4
 * (draft 4) does not know `$id` and ignores it; draft 2020-12 reads it only as the base that a
 * `$ref` resolves against, and no `$ref` is carried over. So the schema is now checked without
 * it, with the verdicts Newman gives.
 */
import assert from "node:assert/strict";
import { portableSchema } from "../../lib/convert/postman/script/schema.ts";
import { runCollection } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

const TODO = {
  $schema: "todo schema",
  $id: "todo-list-schema",
  type: "array",
  items: {
    type: "object",
    $id: "todo",
    properties: {
      id: { type: "string", minLength: 7 },
      importance: { type: "number", maximum: 10 },
    },
    required: ["id"],
  },
};

Deno.test("postman schema $id: a schema that names itself is checked without its name", () => {
  assert.deepEqual(portableSchema(TODO), {
    type: "array",
    items: {
      type: "object",
      properties: {
        id: { type: "string", minLength: 7 },
        importance: { type: "number", maximum: 10 },
      },
      required: ["id"],
    },
  });
  // A `$ref` still cannot be carried over, named or not.
  assert.equal(portableSchema({ $id: "a", items: { $ref: "#/definitions/b" } }), undefined);
});

Deno.test("postman schema $id: the converted check passes and fails where Newman's does", async () => {
  let bodies: unknown[] = [[{ id: "abcdefg", importance: 3 }], [{ id: "abc" }], [{
    id: "hijklmn",
    importance: 11,
  }]];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    const body = bodies[0];
    bodies = bodies.slice(1);
    return Response.json(body);
  });
  const dir = await Deno.makeTempDir();
  try {
    const test = [
      "pm.test('valid todo list', () => {",
      "    const responseJson = pm.response.json();",
      `    const schema = ${JSON.stringify(TODO)};`,
      "    pm.expect(",
      "        tv4.validate(responseJson, schema),",
      "        `____${tv4.error}____`,",
      "    ).to.be.true;",
      "});",
    ];
    const item = (name: string) => ({
      name,
      event: [{ listen: "test", script: { exec: test } }],
      request: { method: "GET", url: "{{baseUrl}}/todos" },
    });
    const report = await runCollection({
      info: { name: "Schema id", schema: V21 },
      variable: [{ key: "baseUrl", value: `http://127.0.0.1:${server.addr.port}` }],
      item: [item("valid"), item("short id"), item("too important")],
    }, dir);
    // A schema check is the step's own (`assert.schema`), so it is known by its operator.
    const failed = report.flows[0].steps.map((
      s: { assertions: { passed: boolean; operator: string }[] },
    ) => s.assertions.filter((a) => !a.passed).map((a) => a.operator));
    assert.deepEqual(failed, [[], ["schema"], ["schema"]]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
