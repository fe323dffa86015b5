/**
 * A folder's pre-request script that registers a user with `pm.sendRequest` and, in its
 * callback, logs in with a second `pm.sendRequest(login, (error, response) => …)` whose
 * callback keeps the token (a course's collection does this before each request). The outer
 * callback's parameters were replaced wherever their names appeared, the inner callback's own
 * `(error, response)` included, so the callback no longer parsed: the login was not sent and the
 * token never set. Now a function that declares a parameter alike reads its own. And
 * `JSON.stringify({ fullname: pm.environment.get("newFullname") })` of a variable nothing gives
 * leaves the member out, as JavaScript does, where the whole request was not sent.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

const PRE = [
  "const register = { url: 'http://127.0.0.1:{{port}}/users', method: 'POST',",
  "  header: { 'Content-Type': 'application/json' },",
  "  body: { mode: 'raw', raw: JSON.stringify({ username: 'ann', fullname: pm.environment.get('newFullname') }) } };",
  "pm.sendRequest(register, (error, response) => {",
  "  console.log(error ? error : response);",
  "  const login = { url: 'http://127.0.0.1:{{port}}/login', method: 'POST',",
  "    header: { 'Content-Type': 'application/json' },",
  "    body: { mode: 'raw', raw: JSON.stringify({ username: 'ann' }) } };",
  "  pm.sendRequest(login, (error, response) => {",
  "    if (!error) {",
  "      const { data: { accessToken } } = response.json();",
  "      pm.environment.set('token', accessToken);",
  "    }",
  "  });",
  "});",
];

/** A server that registers once, logs in with a token, and lists notes for that token only. */
function notesServer() {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const body = req.method === "POST" ? await req.text() : "";
    seen.push(`${req.method} ${path} ${body}`);
    if (path === "/login") {
      return Response.json({ data: { accessToken: "tok-1" } }, { status: 201 });
    }
    if (path === "/users") return Response.json({ status: "success" }, { status: 201 });
    const ok = req.headers.get("authorization") === "Bearer tok-1";
    return Response.json({ notes: [] }, { status: ok ? 200 : 401 });
  });
  return { seen, port: server.addr.port, close: () => server.shutdown() };
}

Deno.test("postman nested sendRequest: the login a callback sends is a step after the request it follows, its token kept", async () => {
  const server = notesServer();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-nested-" });
  try {
    const { files } = convertPostman(JSON.stringify({
      info: { name: "Nested", schema: V21 },
      variable: [{ key: "port", value: String(server.port) }],
      item: [{
        name: "Notes",
        event: [{ listen: "prerequest", script: { exec: PRE } }],
        item: [{
          name: "List notes",
          event: [{
            listen: "test",
            script: { exec: ["pm.test('200', () => pm.response.to.have.status(200));"] },
          }],
          request: {
            method: "GET",
            url: "http://127.0.0.1:{{port}}/notes",
            header: [{ key: "Authorization", value: "Bearer {{token}}" }],
          },
        }],
      }],
    }));
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    assert.doesNotMatch(flow.text, /not translated: it does not parse/, flow.text);
    const steps = parse(flow.text).steps as { request: { url: string; body?: unknown } }[];
    // Register, then the login its callback sends, then the request.
    assert.deepEqual(steps.map((s) => s.request.url.replace(/^.*\}/, "")), [
      "/users",
      "/login",
      "/notes",
    ]);
    // The member nothing gives a value is left out, as JSON.stringify leaves it.
    assert.deepEqual(steps[0].request.body, { username: "ann" });
    await Deno.writeTextFile(`${dir}/${flow.path}`, flow.text);
    const run = await runCli(["run", dir, "--jobs", "1"]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.deepEqual(server.seen, [
      'POST /users {"username":"ann"}',
      'POST /login {"username":"ann"}',
      "GET /notes ",
    ]);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postman nested sendRequest: a script's two requests go first, then what their callbacks send, as Newman's answers come", () => {
  const send = (user: string) => [
    `pm.sendRequest({ url: 'http://127.0.0.1:9/users?u=${user}', method: 'POST' }, (error, response) => {`,
    `  pm.sendRequest({ url: 'http://127.0.0.1:9/login?u=${user}', method: 'POST' }, (error, response) => {`,
    `    pm.environment.set('token_${user}', response.json().token);`,
    "  });",
    "});",
  ];
  const { files } = convertPostman(JSON.stringify({
    info: { name: "Two", schema: V21 },
    item: [{
      name: "List",
      event: [{ listen: "prerequest", script: { exec: [...send("a"), ...send("b")] } }],
      request: { method: "GET", url: "http://127.0.0.1:9/notes?a={{token_a}}&b={{token_b}}" },
    }],
  }));
  const steps = parse(files.find((f) => f.path.endsWith(".yaml"))!.text).steps as {
    request: { url: string };
  }[];
  // Newman sends both registrations as the script runs, each login when its answer comes
  // (as a course's collection sent them to its real server: /users, /users, then the logins).
  assert.deepEqual(steps.map((s) => s.request.url.replace(/^.*\}(?=\/)/, "").replace(/\?.*/, "")), [
    "/users",
    "/users",
    "/login",
    "/login",
    "/notes",
  ]);
  assert.deepEqual(steps.slice(0, 4).map((s) => s.request.url.replace(/^.*\?u=/, "")), [
    "a",
    "b",
    "a",
    "b",
  ]);
});

Deno.test("postman sendRequest: a header written as a template literal is sent with the variable's value, the request a step after", async () => {
  const server = notesServer();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-header-tpl-" });
  // As a course's collection reads a note back inside a pm.test: `Bearer ${pm.environment.get(…)}`.
  const test = [
    "pm.test('when the notes are read back', () => {",
    "  const request = { url: `http://127.0.0.1:${pm.collectionVariables.get('port')}/notes`, method: 'GET',",
    "    header: { 'Authorization': `Bearer ${pm.environment.get('token')}` } };",
    "  pm.sendRequest(request, (error, response) => {",
    "    pm.test('then they are listed', () => pm.expect(response.code).to.equals(200));",
    "  });",
    "});",
  ];
  try {
    const { files } = convertPostman(JSON.stringify({
      info: { name: "Header", schema: V21 },
      variable: [{ key: "port", value: String(server.port) }],
      item: [{
        name: "Login",
        event: [{
          listen: "test",
          script: { exec: ["pm.environment.set('token', pm.response.json().data.accessToken);"] },
        }],
        request: { method: "POST", url: "http://127.0.0.1:{{port}}/login" },
      }, {
        name: "Register",
        event: [{ listen: "test", script: { exec: test } }],
        request: { method: "POST", url: "http://127.0.0.1:{{port}}/users" },
      }],
    }));
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    assert.doesNotMatch(flow.text, /# untranslated/, flow.text);
    await Deno.writeTextFile(`${dir}/${flow.path}`, flow.text);
    const run = await runCli(["run", dir, "--jobs", "1"]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.deepEqual(server.seen, ["POST /login ", "POST /users ", "GET /notes "]);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
