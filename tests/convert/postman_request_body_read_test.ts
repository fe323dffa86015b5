/**
 * `const requestBody = JSON.parse(pm.request.body.raw)` in a test script, then
 * `pm.collectionVariables.set("user_name", requestBody.name)` and
 * `pm.expect(response.user.name).to.equal(requestBody.name)` (a public project's own collection,
 * measured by hand: it keeps the name and e-mail it created a user with, to compare a later read
 * with them and to send them again): the request's own body was unknown, so the sets stayed
 * comments, the later read compared with an empty value and a later body sent empty fields (400
 * where Newman got 409). A raw body with no `{{x}}` is known now, as Postman gives it (the body as
 * sent), so its fields are literal values. One with a `{{x}}` in its strings stayed a comment; its
 * fields are now the variables' values as the request sent them (postman_own_body_variables_test.ts).
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCollection } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

function item(name: string, method: string, path: string, raw: string, exec: string[]) {
  return {
    name,
    event: [{ listen: "test", script: { exec } }],
    request: {
      method,
      header: [{ key: "Content-Type", value: "application/json" }],
      body: { mode: "raw", raw },
      url: `{{base}}${path}`,
    },
  };
}

/** Creates a user, keeping what it sent, then sends a name back and reads the user. */
function collection(base: string) {
  const body = JSON.stringify({ name: "Hugh Man", email: "hugh@example.com", tags: ["a"] });
  return {
    info: { name: "Users", schema: V21 },
    variable: [{ key: "base", value: base }],
    item: [
      item("Create", "POST", "/users", body, [
        "const requestBody = JSON.parse(pm.request.body.raw);",
        'pm.collectionVariables.set("user_name", requestBody.name);',
        'pm.collectionVariables.set("first_tag", requestBody.tags[0]);',
        "pm.test('echo', () => pm.expect(pm.response.json().email).to.equal(requestBody.email));",
      ]),
      item("Rename", "PUT", "/users/1", '{"name": "{{user_name}} Jr", "tag": "{{first_tag}}"}', [
        "const sent = JSON.parse(pm.request.body.raw);",
        "pm.test('name', () => pm.expect(pm.response.json().name).to.equal(sent.name));",
      ]),
      item("Read", "GET", "/users/1", "", [
        "pm.test('kept', () => pm.expect(pm.response.json().name).to.eql('Hugh Man Jr'));",
        "pm.test('missing', () => pm.expect(pm.response.json().tag).to.eql('b'));",
      ]),
    ],
  };
}

Deno.test("postman request body: JSON.parse(pm.request.body.raw) gives the literal body's fields", async () => {
  let user: Record<string, unknown> = {};
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    if (req.method !== "GET") user = { ...user, ...(await req.json()) };
    return Response.json(user, { status: req.method === "POST" ? 201 : 200 });
  });
  const dir = await Deno.makeTempDir();
  try {
    const c = collection(`http://127.0.0.1:${server.addr.port}`);
    const { files } = convertPostman(JSON.stringify(c));
    const flow = files.find((f) => f.path.endsWith(".yaml"))!.text;
    // The second body holds `{{user_name}} Jr`: its field is that text as the request sent it.
    assert.doesNotMatch(flow, /# untranslated/, flow);
    const report = await runCollection(c, dir);
    const verdicts = report.flows[0].steps.flatMap((
      s: { assertions: { name?: string; passed: boolean }[] },
    ) => s.assertions.filter((a) => a.name).map((a) => [a.name, a.passed]));
    assert.deepEqual(verdicts, [["echo", true], ["name", true], ["kept", true], [
      "missing",
      false,
    ]]);
    assert.deepEqual(user, {
      name: "Hugh Man Jr",
      email: "hugh@example.com",
      tags: ["a"],
      tag: "a",
    });
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
