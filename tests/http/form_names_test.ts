/**
 * Form and multipart field NAMES that hold `${…}` (a list's checkbox
 * `chk_<row id>` beside a base64 CSRF token): the name and the value are
 * each encoded as sent, so a captured `a+b/c=d&e` arrives whole. An
 * unresolved name is a load problem where it is written; a name that
 * resolves to nothing, or to another field's name, is an error when sent.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

function serve() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/new") return Response.json({ id: 42, token: "a+b/c=d&e" });
    if (path === "/form") {
      return Response.json({ fields: [...new URLSearchParams(await req.text()).entries()] });
    }
    if (path === "/upload") {
      const parts = [];
      for (const [name, value] of (await req.formData()).entries()) {
        parts.push([name, typeof value === "string" ? value : value.name]);
      }
      return Response.json({ parts });
    }
    return new Response("not found", { status: 404 });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

async function inDir<T>(run: (dir: string) => Promise<T>): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-form-names-" });
  try {
    return await run(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a captured id in a form or multipart field name is sent, name and value encoded", async () => {
  const api = serve();
  try {
    await inDir(async (dir) => {
      await Deno.writeTextFile(
        `${dir}/names.yaml`,
        `name: names
steps:
  - name: a
    request: {url: ${api.url}/new}
    capture: {id: $.json.id, token: $.json.token}
  - name: form
    request:
      method: POST
      url: ${api.url}/form
      form: {"chk_\${steps.a.capture.id}": "on", "t\${steps.a.capture.token}": x, token: "\${steps.a.capture.token}", "$\${lit}": y}
    assert:
      json:
        - {path: $.json.fields, equals: [[chk_42, "on"], ["ta+b/c=d&e", x], [token, "a+b/c=d&e"], ["$\${lit}", y]]}
  - name: upload
    request:
      method: POST
      url: ${api.url}/upload
      multipart: {"chk_\${steps.a.capture.id}": "on", token: "\${steps.a.capture.token}"}
    assert:
      json:
        - {path: $.json.parts, equals: [[chk_42, "on"], [token, "a+b/c=d&e"]]}
`,
      );
      const run = await runCli(["run", `${dir}/names.yaml`]);
      assert.equal(run.code, 0, run.stdout + run.stderr);
    });
  } finally {
    await api.close();
  }
});

Deno.test("an unresolved name is a load problem where written; an empty or repeated one fails the step", async () => {
  await inDir(async (dir) => {
    await Deno.writeTextFile(
      `${dir}/bad.yaml`,
      `name: bad
steps:
  - name: s
    request: {method: POST, url: http://x.test, form: {"a_\${steps.nope.capture.id}": 1}}
  - name: m
    request: {method: POST, url: http://x.test, multipart: {"a_\${vars.missing}": 1}}
`,
    );
    const run = await runCli(["validate", `${dir}/bad.yaml`]);
    assert.equal(run.code, 2, run.stdout + run.stderr);
    const lines = (run.stdout + run.stderr).split("\n").filter((l) => / error\[/.test(l));
    assert.equal(lines.length, 2, run.stdout + run.stderr);
    assert.match(lines[0], /bad\.yaml:4:\d+ error\[/);
    assert.match(lines[1], /bad\.yaml:6:\d+ error\[/);
  });
  const api = serve();
  try {
    await inDir(async (dir) => {
      await Deno.writeTextFile(
        `${dir}/clash.yaml`,
        `name: clash
vars: {empty: "", a: a}
steps:
  - name: empty
    request: {method: POST, url: ${api.url}/form, form: {"\${vars.empty}": 1}}
  - name: same
    always: true
    request: {method: POST, url: ${api.url}/form, form: {a: 1, "\${vars.a}": 2}}
  - name: part
    always: true
    request: {method: POST, url: ${api.url}/upload, multipart: {a: 1, "\${vars.a}": 2}}
`,
      );
      const run = await runCli(["run", `${dir}/clash.yaml`]);
      assert.equal(run.code, 1, run.stdout + run.stderr);
      assert.match(run.stdout, /field name "\$\{vars\.empty\}" gives an empty name/);
      assert.equal(
        run.stdout.match(/gives "a", the name of another field/g)?.length,
        2,
        run.stdout,
      );
    });
  } finally {
    await api.close();
  }
});
