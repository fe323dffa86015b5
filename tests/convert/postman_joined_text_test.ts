/**
 * `` `User with id ${pm.collectionVariables.get("user_id")} deleted.` `` compared with a message
 * (a public project's own collection, measured by hand, checks its delete's answer so), and
 * `"User with id " + get("user_id") + " deleted."`: text joined from literals and variables'
 * values stayed a comment, both as a template and with `+`. It is the same at each read, so it is
 * now the check's operand, each variable its expression; text with a made value (`Date.now()`)
 * still stays a comment, since a flow would make another.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCollection } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

function collection(base: string, checks: string[]) {
  return {
    info: { name: "Delete", schema: V21 },
    item: [
      {
        name: "Create",
        event: [{
          listen: "test",
          script: { exec: ['pm.collectionVariables.set("user_id", pm.response.json().id);'] },
        }],
        request: { method: "POST", url: `${base}/users` },
      },
      {
        name: "Delete",
        event: [{ listen: "test", script: { exec: ["const r = pm.response.json();", ...checks] } }],
        request: { method: "DELETE", url: `${base}/users/{{user_id}}` },
      },
    ],
  };
}

const JOINED = [
  'pm.test("template", () => { expected = `User with id ${pm.collectionVariables.get("user_id")} deleted.`; pm.expect(r.message).to.eql(expected); });',
  'pm.test("plus", () => pm.expect(r.message).to.eql("User with id " + pm.collectionVariables.get("user_id") + " deleted."));',
  'pm.test("other id", () => pm.expect(r.message).to.eql(`User with id ${pm.collectionVariables.get("user_id")}0 deleted.`));',
];

Deno.test("postman joined text: a template or `+` of literals and variables is a check's operand", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const id = new URL(req.url).pathname.split("/")[2];
    return Response.json(
      req.method === "POST" ? { id: 41 } : { message: `User with id ${id} deleted.` },
    );
  });
  const dir = await Deno.makeTempDir();
  try {
    const report = await runCollection(
      collection(`http://127.0.0.1:${server.addr.port}`, JOINED),
      dir,
    );
    const verdicts = report.flows[0].steps[1].assertions.map((
      a: { name: string; passed: boolean },
    ) => [a.name, a.passed]);
    assert.deepEqual(verdicts, [["template", true], ["plus", true], ["other id", false]]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postman joined text: text with a made value stays a comment", () => {
  const made = ['pm.test("made", () => pm.expect(r.message).to.eql(`at ${Date.now()}`));'];
  const { files } = convertPostman(JSON.stringify(collection("http://h", made)));
  const flow = files.find((f) => f.path.endsWith(".yaml"))!.text;
  assert.match(
    flow,
    /\n\s*#\s+pm\.expect\(r\.message\)\.to\.eql\(`at \$\{Date\.now\(\)\}`\)/,
    flow,
  );
  assert.doesNotMatch(flow, /equals: .*NOW/, flow);
});
