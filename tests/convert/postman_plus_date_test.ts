/**
 * `const name = \`tom${+ new Date()}\`; pm.environment.set("name", name)`: the time in
 * milliseconds by a unary plus, a name made unique by the clock. It was left a comment, so
 * the requests that read `{{name}}` sent it empty (a course's own collection registers its
 * third user so, and every request of that user failed). Now it is made as `Date.now()` is:
 * once per flow run, the same in every request that reads it. A small server registers a
 * user and logs it in.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

Deno.test("postman +new Date(): a name made unique by the clock is made once and sent by every request that reads it", async () => {
  const users = new Set<string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const { username } = await req.json();
    const fresh = /^tom\d{10,}$/.test(username) && !users.has(username);
    if (new URL(req.url).pathname === "/users") {
      if (fresh) users.add(username);
      return Response.json({ ok: fresh }, { status: fresh ? 201 : 400 });
    }
    const known = users.has(username);
    return Response.json({ ok: known }, { status: known ? 201 : 401 });
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  const post = (name: string, path: string, event: unknown[]) => ({
    name,
    event,
    request: {
      method: "POST",
      url: `${base}/${path}`,
      header: [{ key: "Content-Type", value: "application/json" }],
      body: { mode: "raw", raw: '{"username":"{{usernameTom}}"}' },
    },
  });
  const status = [{
    listen: "test",
    script: { exec: ["pm.test('created', () => pm.response.to.have.status(201));"] },
  }];
  const dir = await Deno.makeTempDir();
  try {
    const { files } = convertPostman(JSON.stringify({
      info: { name: "Clock", schema: V21 },
      item: [
        post("Add User Tom", "users", [...status, {
          listen: "prerequest",
          script: {
            exec: [
              "const usernameTom = `tom${+ new Date()}`;",
              "pm.environment.set('usernameTom', usernameTom);",
            ],
          },
        }]),
        post("Login Tom", "authentications", status),
      ],
    }));
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    assert.doesNotMatch(flow.text, /# untranslated/, flow.text);
    await Deno.writeTextFile(`${dir}/${flow.path}`, flow.text);
    const run = await runCli(["run", `${dir}/${flow.path}`]);
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    assert.equal(users.size, 1);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postman +new Date(): a value a script makes is left out of the environment's vars file, which would send it empty", () => {
  const { files } = convertPostman(
    JSON.stringify({
      info: { name: "Clock", schema: V21 },
      item: [{
        name: "Add User Tom",
        event: [{
          listen: "prerequest",
          script: { exec: ["pm.environment.set('usernameTom', `tom${+ new Date()}`);"] },
        }],
        request: { method: "GET", url: "http://127.0.0.1:9/users/{{usernameTom}}", header: [] },
      }],
    }),
    JSON.stringify({
      name: "Local",
      values: [{ key: "usernameTom", value: "", enabled: true }, {
        key: "port",
        value: "5000",
        enabled: true,
      }],
    }),
  );
  const vars = JSON.parse(files.find((f) => f.path.endsWith(".vars.json"))!.text);
  // The flow's own default makes it; a vars file value (left by an earlier Postman run) wins.
  assert.deepEqual(vars, { port: "5000" });
  const flow = files.find((f) => f.path.endsWith(".yaml"))!;
  assert.match(flow.text, /usernameTom: tom\$\{NOW\.UNIX_MS\}/);
});
