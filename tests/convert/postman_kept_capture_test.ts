/**
 * A value a test script sets only when the response says so
 * (`if (pm.response.code === 201) pm.environment.set("userId", json.data.userId)`,
 * seen in a course's Notes API suite), on a request that runs again when the
 * user already exists: Newman keeps the first user's id at the refused
 * register (400) and every later request reads it. The flow captured the id
 * whatever the answer, so the refused register failed (nothing to capture)
 * and the requests reading the id were not sent as Newman sends them. Now the
 * capture says when it is taken and keeps the earlier capture otherwise
 * (`when`, `otherwise`); a first set with nothing earlier stays a capture as
 * before.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

const REGISTER = [
  "const json = pm.response.json();",
  "if (pm.response.code === 201) {",
  '  pm.environment.set("userId", json.data.userId);',
  "}",
];

/** Registers user 1 once; a second register is refused as the user exists. */
function server() {
  const seen: string[] = [];
  let users = 0;
  const s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    seen.push(`${req.method} ${path}`);
    if (req.method === "POST") {
      return users++ === 0
        ? Response.json({ status: "success", data: { userId: 1 } }, { status: 201 })
        : Response.json({ status: "fail", message: "username taken" }, { status: 400 });
    }
    return Response.json({ path }, { status: path === "/users/1" ? 200 : 404 });
  });
  return { seen, port: (s.addr as Deno.NetAddr).port, s };
}

function collection(port: number): string {
  const register = (name: string) => ({
    name,
    event: [{ listen: "test", script: { exec: REGISTER } }],
    request: { method: "POST", url: "{{baseUrl}}/users", body: { mode: "raw", raw: "{}" } },
  });
  return JSON.stringify({
    info: { name: "Kept", schema: V21 },
    variable: [{ key: "baseUrl", value: `http://127.0.0.1:${port}` }],
    item: [register("register"), register("register again"), {
      name: "read the user",
      event: [{
        listen: "test",
        script: { exec: ['pm.test("found", () => pm.response.to.have.status(200));'] },
      }],
      request: { method: "GET", url: "{{baseUrl}}/users/{{userId}}" },
    }],
  });
}

Deno.test("postman kept capture: a set under a condition on the response keeps the earlier value otherwise", async () => {
  const app = server();
  const dir = await Deno.makeTempDir();
  try {
    const { files } = convertPostman(collection(app.port));
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    assert.match(flow.text, /otherwise: \$\{steps\.register\.capture\.userId\}/, flow.text);
    assert.match(flow.text, /when:\n\s+- \{ path: \$\.status, equals: 201 \}/, flow.text);
    for (const f of files) await Deno.writeTextFile(`${dir}/${f.path}`, f.text);
    const got = await runCli(["run", `${dir}/${flow.path}`, "--report-json", `${dir}/r.json`]);
    assert.equal(got.code, 0, got.stdout + got.stderr);
    assert.deepEqual(app.seen, ["POST /users", "POST /users", "GET /users/1"]);
  } finally {
    await app.s.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postman kept capture: a first set under a condition, with nothing earlier, is a capture as before", () => {
  const { files } = convertPostman(collection(1));
  const flow = files.find((f) => f.path.endsWith(".yaml"))!;
  assert.match(
    flow.text,
    /- name: register\n(?:.*\n)*?\s+capture:\n\s+userId: \$\.json\.data\.userId\n/,
  );
});
