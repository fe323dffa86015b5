/**
 * Suite setup and teardown: --setup flows run once before the others and
 * hand their outputs to every flow as ${setup.NAME}; --teardown flows run
 * after all of them whatever happened; a failed setup stops the others but
 * not the teardown; references to outputs are checked at load time.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

function serve() {
  let logins = 0;
  const items = new Set<string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/login") {
      const body = await req.json();
      if (body.password !== "pw-1") return Response.json({ error: "no" }, { status: 401 });
      logins++;
      return Response.json({ token: "tok-5e2f9a1c7b3d8e40" });
    }
    if (req.headers.get("authorization") !== "Bearer tok-5e2f9a1c7b3d8e40") {
      return Response.json({ error: "unauthorized" }, { status: 401 });
    }
    if (req.method === "POST") {
      items.add("shared");
      return Response.json({ id: "shared" }, { status: 201 });
    }
    if (req.method === "DELETE") {
      items.delete(url.pathname.split("/").at(-1)!);
      return new Response(null, { status: 204 });
    }
    return Response.json({ items: [...items] });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    logins: () => logins,
    items,
    close: () => server.shutdown(),
  };
}

async function suite(url: string, password: string) {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-setup-" });
  await Deno.mkdir(`${dir}/flows`);
  await Deno.mkdir(`${dir}/shared`);
  await Deno.writeTextFile(
    `${dir}/shared/setup.yaml`,
    `name: log in once
steps:
  - name: login
    request: {method: POST, url: "${url}/login", body: {user: ann, password: "${password}"}}
    capture: {token: $.json.token}
    assert: {status: 200}
  - name: create
    request: {method: POST, url: "${url}/items", headers: {authorization: "Bearer \${steps.login.capture.token}"}}
    capture: {id: $.json.id}
outputs:
  token: "\${steps.login.capture.token}"
  item: "\${steps.create.capture.id}"
`,
  );
  await Deno.writeTextFile(
    `${dir}/shared/teardown.yaml`,
    `name: clean up
steps:
  - name: delete
    request: {method: DELETE, url: "${url}/items/\${setup.item}", headers: {authorization: "Bearer \${setup.token}"}}
`,
  );
  for (const n of [1, 2, 3]) {
    await Deno.writeTextFile(
      `${dir}/flows/f${n}.yaml`,
      `name: flow ${n}
steps:
  - name: list
    request: {url: "${url}/items", headers: {authorization: "Bearer \${setup.token}"}}
    assert:
      status: 200
      json: [{path: $.json.items, contains: "\${setup.item}"}]
`,
    );
  }
  return dir;
}

/**
 * Runs `fn` with the API started and a suite logging in with `password`
 * written to a fresh folder; both gone after, whatever `fn` does.
 */
async function withSuite(
  password: string,
  fn: (api: ReturnType<typeof serve>, dir: string) => Promise<void>,
): Promise<void> {
  const api = serve();
  const dir = await suite(api.url, password);
  try {
    await fn(api, dir);
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/** Runs the suite's flows with its setup and teardown, `more` options and a JSON report. */
function runWithSetUp(dir: string, ...more: string[]) {
  return runCli([
    "run",
    `${dir}/flows`,
    "--setup",
    `${dir}/shared/setup.yaml`,
    "--teardown",
    `${dir}/shared/teardown.yaml`,
    ...more,
    "--report-json",
    `${dir}/r.json`,
  ]);
}

Deno.test("one login for the whole run, outputs for every flow, teardown at the end", () =>
  withSuite("pw-1", async (api, dir) => {
    const run = await runWithSetUp(dir, "--jobs", "3");
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(api.logins(), 1);
    assert.equal(api.items.size, 0, "the teardown removed what the setup created");
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    assert.deepEqual(report.flows.map((f: { name: string }) => f.name), [
      "log in once",
      "flow 1",
      "flow 2",
      "flow 3",
      "clean up",
    ]);
    assert.ok(
      !JSON.stringify(report).includes("tok-5e2f9a1c7b3d8e40"),
      "the shared token is masked",
    );
  }));

Deno.test("a failed setup stops the other flows; the teardown still runs", () =>
  withSuite("wrong", async (_api, dir) => {
    const run = await runWithSetUp(dir);
    assert.equal(run.code, 1);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const [setup, f1, , , teardown] = report.flows;
    assert.equal(setup.status, "failed");
    assert.equal(f1.status, "skipped");
    assert.match(f1.steps[0].message, /^Not run: setup flow "log in once" did not pass\.$/);
    // The teardown ran, and could not resolve what the setup never handed out.
    assert.equal(teardown.steps[0].failure_kind, "expression");
    assert.match(teardown.steps[0].message, /No setup flow handed out "item"/);
  }));

Deno.test("references to setup outputs are checked before anything is sent", () =>
  withSuite("pw-1", async (api, dir) => {
    await Deno.writeTextFile(
      `${dir}/flows/f1.yaml`,
      `name: typo\nsteps:\n  - name: s\n    request: {url: "${api.url}/items", headers: {authorization: "Bearer \${setup.tokn}"}}\n`,
    );
    const typo = await runCli(["run", `${dir}/flows`, "--setup", `${dir}/shared/setup.yaml`]);
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /error\[unknown-output\]: No setup flow hands out "tokn"/);
    assert.match(typo.stderr, /hint: Did you mean "\$\{setup\.token\}"\?/);
    const none = await runCli(["run", `${dir}/flows`]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /reads an output of the run's setup flow, but the run has none/);
    assert.equal(api.logins(), 0, "nothing was sent");
  }));
