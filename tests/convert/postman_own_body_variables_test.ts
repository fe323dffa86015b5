/**
 * `pm.environment.set("who", pm.request.body.json().username)` after a login whose body is
 * `{"username": "{{who}}", …}` (a public Express API's own Newman suite keeps the user name it
 * logged in with so): the request's own body held a variable, so the read was not known now, the
 * set stayed a comment, and the summary named `who` as set in a way flowrun cannot express, which
 * also dropped the pre-request script's made value: the login sent the environment's empty name.
 * Postman gives the body as sent, each `{{x}}` resolved, so a field is the variable's value (or
 * text around it), which the flow sends and reads alike; a body whose variables stand outside its
 * strings is no JSON before they are resolved, and stays a comment.
 */
import assert from "node:assert/strict";
import { translateScript } from "../../lib/convert/postman/script/translate.ts";
import type { Sym } from "../../lib/convert/postman/script/sym.ts";
import { runCollection } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const variable = (name: string): Sym => ({ k: "var", name, expr: `\${vars.${name}}` });
const body = { body: { raw: '{"user": {"name": "{{who}}"}, "note": "hi {{who}}!", "n": 2}' } };

Deno.test("postman own body: a field holding a variable is the variable's value as sent", () => {
  for (
    const src of [
      "pm.test('a', () => pm.expect(pm.response.json().name).to.eql(pm.request.body.json().user.name));",
      "const sent = JSON.parse(pm.request.body.raw);\npm.expect(pm.response.json().name).to.eql(sent.user.name);",
    ]
  ) {
    const t = translateScript(src, variable, "Login", false, body);
    assert.deepEqual(t.untranslated, [], src);
    assert.deepEqual(t.checks.map((c) => "cond" in c ? c.cond : c), [
      { path: "$.json.name", op: "equals", value: "${vars.who}" },
    ]);
  }
  const note = translateScript(
    "pm.expect(pm.response.json().note).to.eql(pm.request.body.json().note);",
    variable,
    "Login",
    false,
    body,
  );
  assert.deepEqual(note.untranslated, []);
  assert.deepEqual(note.checks.map((c) => "cond" in c ? c.cond : c), [
    { path: "$.json.note", op: "equals", value: "hi ${vars.who}!" },
  ]);
  // A variable outside a string: the body is no JSON until Postman resolves it.
  const bare = translateScript(
    "pm.expect(pm.response.json().n).to.eql(pm.request.body.json().n);",
    variable,
    "Login",
    false,
    { body: { raw: '{"n": {{n}}}' } },
  );
  assert.equal(bare.translated, 0);
  assert.equal(bare.untranslated.length, 1);
});

Deno.test("postman own body: the login sends the made name and the read-back compares with it", async () => {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const sent = req.method === "POST" ? await req.json() : {};
    if (sent.username) seen.push(sent.username);
    return Response.json({ username: seen.at(-1) ?? "" });
  });
  const dir = await Deno.makeTempDir();
  try {
    const report = await runCollection({
      info: { name: "Own body", schema: V21 },
      variable: [{ key: "base", value: `http://127.0.0.1:${server.addr.port}` }],
      item: [{
        name: "Login",
        event: [
          {
            listen: "prerequest",
            script: { exec: ["pm.variables.set('who', 'tester' + new Date().getTime());"] },
          },
          {
            listen: "test",
            script: { exec: ["pm.environment.set('kept', pm.request.body.json().username);"] },
          },
        ],
        request: {
          method: "POST",
          header: [{ key: "Content-Type", value: "application/json" }],
          body: { mode: "raw", raw: '{"username": "{{who}}", "password": "pw"}' },
          url: "{{base}}/login",
        },
      }, {
        name: "Me",
        event: [{
          listen: "test",
          script: {
            exec: [
              "pm.test('same', () => pm.expect(pm.response.json().username).to.eql(pm.environment.get('kept')));",
            ],
          },
        }],
        request: { method: "GET", url: "{{base}}/me" },
      }],
    }, dir);
    const verdicts = report.flows[0].steps.flatMap((
      s: { assertions: { name?: string; passed: boolean }[] },
    ) => s.assertions.filter((a) => a.name).map((a) => [a.name, a.passed]));
    assert.deepEqual(verdicts, [["same", true]]);
    assert.equal(seen.length, 1);
    assert.match(seen[0], /^tester\d{13}$/);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
