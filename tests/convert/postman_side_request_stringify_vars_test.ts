/**
 * `raw: JSON.stringify({ username: pm.environment.get('name') })` and `JSON.stringify({ token })`
 * (a `const` read from a variable): the raw body of a `pm.sendRequest` made of variables, as a
 * course's forum collection registers its user before each login and reads a refresh token back
 * after the logout. Only an object of literals was read, so neither request was sent: the login
 * found no user and the read-back's test was lost. Now each variable member is its text, JSON-
 * quoted, as `JSON.stringify` writes the string a Postman variable holds. A small server keeps the
 * names it registered; one holds a quote, which must reach it decoded.
 */
import assert from "node:assert/strict";
import { runWithEnvironment } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

/** A request object a script writes, its raw body `JSON.stringify` of `members`. */
const sendRequest = (path: string, members: string, callback: string) => [
  "const port = pm.environment.get('port');",
  "const req = {",
  `  url: \`http://127.0.0.1:\${port}${path}\`,`,
  "  method: 'POST',",
  "  header: { 'Content-Type': 'application/json' },",
  `  body: { mode: 'raw', raw: JSON.stringify(${members}) },`,
  "};",
  `pm.sendRequest(req, (error, response) => { ${callback} });`,
];

Deno.test("postman sendRequest: a raw body JSON.stringify of variables is sent with their values", async () => {
  const users = new Set<string>();
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (req) => {
      const { username } = req.method === "POST" ? await req.json() : {};
      const path = new URL(req.url).pathname;
      if (path === "/users") users.add(username);
      return Response.json({ known: users.has(username) }, {
        status: users.has(username) ? 200 : 404,
      });
    },
  );
  // The environment's, as `pm.environment.get` reads them (a collection variable would read
  // `undefined` there, as in Newman).
  const { flow, run, report } = await runWithEnvironment(
    {
      info: { name: "Forum", schema: V21 },
      item: [{
        name: "Login",
        event: [
          {
            listen: "prerequest",
            script: {
              exec: sendRequest(
                "/users",
                "{ username: pm.environment.get('name'), fullname: 'Dicoding' }",
                "console.log(error ? error : response.json());",
              ),
            },
          },
          {
            listen: "test",
            script: { exec: ["pm.test('known', () => pm.response.to.have.status(200));"] },
          },
        ],
        request: {
          method: "POST",
          url: "http://127.0.0.1:{{port}}/login",
          header: [{ key: "Content-Type", value: "application/json" }],
          body: { mode: "raw", raw: '{"username":"{{name}}"}' },
        },
      }, {
        name: "Read back",
        event: [{
          listen: "test",
          script: {
            exec: [
              "const username = pm.environment.get('name');",
              "pm.test('when looking the user up', () => {",
              ...sendRequest(
                "/lookup",
                "{ username }",
                "pm.test('the user is known', () => { pm.expect(response.code).to.equals(200); });",
              ),
              "});",
            ],
          },
        }],
        request: { method: "GET", url: "http://127.0.0.1:{{port}}/" },
      }],
    },
    { port: String(server.addr.port), name: 'di"co' },
  );
  assert.doesNotMatch(flow.text, /untranslated, from/, flow.text);
  assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
  assert.deepEqual([...users], ['di"co']);
  const steps = report.flows[0].steps;
  const names = steps.flatMap((s: { assertions: { name?: string }[] }) =>
    s.assertions.map((a) => a.name)
  );
  assert.ok(names.includes("the user is known"), JSON.stringify(names));
});
