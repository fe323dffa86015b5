/**
 * `const requestParams = { url: \`http://localhost:${port}/users\`, method: "POST", … };
 * pm.sendRequest(requestParams, cb)`: the pre-request's request given by the name of an object
 * literal the script declared just before, as a course's own collection registers the user a
 * later request finds taken. Only an object literal written in the call was read, and a URL
 * in a template literal was no text, so the request was not sent and the check that the name
 * is taken failed. Now the name reads the object it was declared with, and the template is
 * joined as Postman text (`{{port}}`). A small server registers names once.
 */
import assert from "node:assert/strict";
import { runWithEnvironment } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

Deno.test("postman sendRequest(name): the object a const names is the request sent first, as Newman sends it", async () => {
  const taken = new Set<string>();
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (req) => {
      const { username } = await req.json();
      const fresh = typeof username === "string" && !taken.has(username);
      if (fresh) taken.add(username);
      return Response.json({ ok: fresh }, { status: fresh ? 201 : 400 });
    },
  );
  const pre = [
    "const port = pm.environment.get('port');",
    "const requestParams = {",
    "  url: `http://127.0.0.1:${port}/users`,",
    "  method: 'POST',",
    "  header: { 'Content-Type': 'application/json' },",
    "  body: { mode: 'raw', raw: JSON.stringify({ username: 'dicoding' }) },",
    "};",
    "pm.sendRequest(requestParams, (_, error) => {",
    "  if (error) { console.error(error); }",
    "});",
  ];
  // `port` is the environment's, as `pm.environment.get` reads it (a collection variable
  // would read `undefined` there, as in Newman).
  const { flow, run } = await runWithEnvironment(
    {
      info: { name: "Taken", schema: V21 },
      item: [{
        name: "Add User with Already Taken Username",
        event: [
          { listen: "prerequest", script: { exec: pre } },
          {
            listen: "test",
            script: { exec: ["pm.test('400', () => pm.response.to.have.status(400));"] },
          },
        ],
        request: {
          method: "POST",
          url: "http://127.0.0.1:{{port}}/users",
          header: [{ key: "Content-Type", value: "application/json" }],
          body: { mode: "raw", raw: '{"username":"dicoding"}' },
        },
      }],
    },
    { port: String(server.addr.port) },
  );
  assert.doesNotMatch(flow.text, /untranslated, from the pre-request/, flow.text);
  assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
  assert.deepEqual([...taken], ["dicoding"]);
});
