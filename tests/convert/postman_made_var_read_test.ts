/**
 * A value a pre-request script makes (`pm.environment.set('new_username', \`test${now}\`)`,
 * `now` being `Date.now()`), read back by the test script to compare the answer with it
 * (`const expected = pm.environment.get('new_username'); pm.expect(json.username).to.eql(expected)`).
 * The read was taken for a variable nothing sets, so the check became "`username` is not there":
 * the opposite of Newman's, failing on every answer that echoes the name (a NestJS project's own
 * collection creates a user so, and reads it back). A variable a script set in a way flowrun
 * cannot express, with no value of its own, is not known either: a check that reads it stays a
 * comment, where it had become the same wrong "not there".
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

/** An item that POSTs `{"username": "{{name}}"}` with the given scripts. */
function create(base: string, name: string, pre: string[], test: string[]) {
  return {
    name: `create ${name}`,
    event: [
      { listen: "prerequest", script: { exec: pre } },
      { listen: "test", script: { exec: test } },
    ],
    request: {
      method: "POST",
      url: `${base}/users`,
      header: [{ key: "Content-Type", value: "application/json" }],
      body: { mode: "raw", raw: `{"username": "{{${name}}}"}` },
    },
  };
}

Deno.test("postman made var read back: the test compares the answer with the value the pre-request script made", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const { username } = await req.json();
    return Response.json({ id: 7, username }, { status: 201 });
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  const dir = await Deno.makeTempDir();
  try {
    const { files } = convertPostman(JSON.stringify({
      info: { name: "Made", schema: V21 },
      item: [create(base, "new_username", [
        "const now = Date.now();",
        "pm.environment.set('new_username', `test${now}`);",
      ], [
        "pm.test('echoes the name', function () {",
        "  const body = pm.response.json();",
        "  const expected = pm.environment.get('new_username');",
        "  pm.expect(body.username).to.eql(expected);",
        "});",
      ])],
    }));
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    assert.match(
      flow.text,
      /path: \$\.json\.username, equals: "\$\{vars\.new_username\}"/,
      flow.text,
    );
    await Deno.writeTextFile(`${dir}/${flow.path}`, flow.text);
    const run = await runCli(["run", `${dir}/${flow.path}`]);
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postman made var read back: a value set in a way not translated is not read as unset", () => {
  const { files } = convertPostman(JSON.stringify({
    info: { name: "Made", schema: V21 },
    item: [create("http://127.0.0.1:9", "renamed", [
      "const suffix = String(pm.environment.get('id')).replace(/-/g, '').slice(0, 10);",
      "pm.environment.set('renamed', `test2${suffix}`);",
    ], [
      "pm.test('echoes the name', function () {",
      "  const expected = pm.environment.get('renamed');",
      "  pm.expect(pm.response.json().username).to.eql(expected);",
      "});",
    ])],
  }));
  const flow = files.find((f) => f.path.endsWith(".yaml"))!.text;
  assert.doesNotMatch(flow, /exists: false/, flow);
  assert.match(
    flow,
    /#\s+pm\.expect\(pm\.response\.json\(\)\.username\)\.to\.eql\(expected\);/,
    flow,
  );
});
