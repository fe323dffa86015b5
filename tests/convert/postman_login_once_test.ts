/**
 * A collection-level pre-request script that logs in once and caches the token, with the
 * collection's bearer auth reading it (the shape Postman's guides and many public collections
 * write: `if (!token || expired) pm.sendRequest(login, (e, res) => set("token", …))`). Postman
 * runs it before every request: the first finds no token and logs in; the rest find it set and
 * send none. The whole `if` was a comment, so no login was sent and every request sent the
 * placeholder `{{token}}`. The condition is now read where the converter knows its value: at
 * the first request of a flow the token is unset, so the login is a step before it; after it
 * the token is the login's capture, so the condition is unknown and nothing more is sent.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

/** The collection-level script, in the shape such collections write it. */
const LOGIN_ONCE = [
  "const token = pm.collectionVariables.get('token');",
  "const expiry = Number(pm.collectionVariables.get('tokenExpiry') || 0);",
  "if (!token || Date.now() > expiry) {",
  "  pm.sendRequest({",
  "    url: pm.collectionVariables.get('baseUrl') + '/login',",
  "    method: 'POST',",
  "    header: { 'Content-Type': 'application/json' },",
  "    body: { mode: 'raw', raw: JSON.stringify({ user: 'demo' }) }",
  "  }, (err, res) => {",
  "    pm.collectionVariables.set('token', res.json().token);",
  "    pm.collectionVariables.set('tokenExpiry', Date.now() + 60000);",
  "  });",
  "}",
];

function collection(base: string): string {
  const item = (name: string, path: string) => ({
    name,
    event: [{
      listen: "test",
      script: { exec: ["pm.test('ok', () => pm.response.to.have.status(200));"] },
    }],
    request: { method: "GET", url: `{{baseUrl}}${path}`, header: [] },
  });
  return JSON.stringify({
    info: { name: "Login once", schema: V21 },
    auth: { type: "bearer", bearer: [{ key: "token", value: "{{token}}", type: "string" }] },
    event: [{ listen: "prerequest", script: { exec: LOGIN_ONCE } }],
    variable: [{ key: "baseUrl", value: base }],
    item: [item("list", "/items"), item("one", "/items/1"), item("again", "/items")],
  });
}

Deno.test("postman login once: a collection script's guarded login is sent before the first request only", async () => {
  const seen: string[] = [];
  let issued = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    seen.push(`${req.method} ${path} ${req.headers.get("authorization") ?? "-"}`);
    if (path === "/login") return Response.json({ token: `t${++issued}` });
    const ok = req.headers.get("authorization") === `Bearer t${issued}`;
    return ok ? Response.json({ id: 1 }) : Response.json({ error: "no" }, { status: 401 });
  });
  const dir = await Deno.makeTempDir();
  try {
    const { files } = convertPostman(collection(`http://127.0.0.1:${server.addr.port}`));
    const flows = files.filter((f) => f.path.endsWith(".yaml"));
    assert.equal(flows.length, 1, flows.map((f) => f.text).join("\n"));
    const flow = flows[0];
    await Deno.writeTextFile(`${dir}/${flow.path}`, flow.text);
    const run = await runCli(["run", `${dir}/${flow.path}`]);
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    assert.deepEqual(seen, [
      "POST /login -",
      "GET /items Bearer t1",
      "GET /items/1 Bearer t1",
      "GET /items Bearer t1",
    ]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postman login once: a guarded login is sent once per flow, even when what it sets is not translated", () => {
  const exec = LOGIN_ONCE.map((l) =>
    l.replace("res.json().token", "res.json().token.split('.')[0]")
  );
  const { files } = convertPostman(JSON.stringify({
    info: { name: "Login once", schema: V21 },
    event: [{ listen: "prerequest", script: { exec } }],
    variable: [{ key: "baseUrl", value: "http://127.0.0.1:9" }],
    item: [1, 2, 3].map((n) => ({
      name: `r${n}`,
      request: { method: "GET", url: "{{baseUrl}}/x", header: [] },
    })),
  }));
  const flow = files.find((f) => f.path.endsWith(".yaml"))!.text;
  // The token stays unset here, so the condition folds true at each request: Postman, which
  // does set it, logs in once, not before every request.
  assert.equal(flow.match(/- name: \w+_pm_send_request/g)?.length, 1, flow);
});

Deno.test("postman login once: a request under a condition known now that sets nothing is sent before every request", () => {
  const { files } = convertPostman(JSON.stringify({
    info: { name: "Ping first", schema: V21 },
    event: [{
      listen: "prerequest",
      script: {
        exec: [
          "if (!pm.collectionVariables.get('quiet')) {",
          "  pm.sendRequest(pm.collectionVariables.get('baseUrl') + '/ping', () => {});",
          "}",
        ],
      },
    }],
    variable: [{ key: "baseUrl", value: "http://127.0.0.1:9" }],
    item: [1, 2].map((n) => ({
      name: `r${n}`,
      request: { method: "GET", url: "{{baseUrl}}/x", header: [] },
    })),
  }));
  const flow = files.find((f) => f.path.endsWith(".yaml"))!.text;
  // Nothing it sets can make the condition false: Postman pings before each request.
  assert.equal(flow.match(/- name: \w+_pm_send_request/g)?.length, 2, flow);
});

Deno.test("postman login once: top-level folders reading the login's token are one flow, so the login is sent once per run, as Newman sends it", () => {
  const item = (name: string) => ({
    name,
    request: { method: "GET", url: "{{baseUrl}}/x?t={{token}}", header: [] },
  });
  const { files } = convertPostman(JSON.stringify({
    info: { name: "Login once", schema: V21 },
    event: [{ listen: "prerequest", script: { exec: LOGIN_ONCE } }],
    variable: [{ key: "baseUrl", value: "http://127.0.0.1:9" }],
    item: [{ name: "A", item: [item("a1"), item("a2")] }, { name: "B", item: [item("b1")] }],
  }));
  const flows = files.filter((f) => f.path.endsWith(".yaml")).map((f) => f.text);
  assert.equal(flows.length, 1, flows.join("\n"));
  assert.equal(flows[0].match(/- name: \w+_pm_send_request/g)?.length, 1, flows[0]);
});
