/**
 * A cleanup step for something that was never created: an `if:` with
 * `exists` on a capture that was never set (or a setup output never
 * produced) skips it cleanly, where any other use of the missing value is an
 * expression error of the step (issue 40, item 7b).
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

function serve() {
  const deleted: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    if (req.method === "DELETE") {
      deleted.push(url.pathname);
      return new Response(null, { status: 204 });
    }
    if (url.pathname === "/made") return Response.json({ id: "m-1" }, { status: 201 });
    return Response.json({ error: "down" }, { status: 500 });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, deleted, close: () => server.shutdown() };
}

const FLOW = (url: string) =>
  `name: make and clean
steps:
  - name: make
    request: {method: POST, url: "${url}/made"}
    capture: {id: $.json.id}
  - name: broken
    request: {method: POST, url: "${url}/broken"}
    capture: {id: $.json.id}
    assert: {status: 201}
  - name: drop made
    always: true
    if: {value: "\${steps.make.capture.id}", exists: true}
    request: {method: DELETE, url: "${url}/items/\${steps.make.capture.id}"}
  - name: drop broken
    always: true
    if: {value: "\${steps.broken.capture.id}", exists: true}
    request: {method: DELETE, url: "${url}/items/\${steps.broken.capture.id}"}
  - name: note missing
    always: true
    if: {value: "\${steps.broken.capture.id}", exists: false}
    request: {method: DELETE, url: "${url}/nothing"}
`;

Deno.test("an if: exists guard skips a cleanup step for what was never created", async () => {
  const api = serve();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-guard-" });
  try {
    await Deno.writeTextFile(`${dir}/f.yaml`, FLOW(api.url));
    const run = await runCli(["run", `${dir}/f.yaml`, "--report-json", `${dir}/r.json`]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.deepEqual(api.deleted, ["/items/m-1", "/nothing"]);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const [flow] = report.flows;
    assert.equal(flow.status, "failed", "the flow fails for the failed step, not the cleanup");
    const [, broken, made, dropBroken, missing] = flow.steps;
    assert.equal(broken.status, "failed");
    assert.equal(made.status, "passed");
    assert.equal(dropBroken.status, "skipped");
    assert.equal(dropBroken.failure_kind, "condition");
    assert.match(
      dropBroken.message,
      /^Skipped: its condition \$\{steps\.broken\.capture\.id\} exists true does not hold/,
    );
    assert.equal(missing.status, "passed");
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a teardown step guarded by exists skips an output the failed setup never produced", async () => {
  const api = serve();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-guard-" });
  try {
    await Deno.writeTextFile(
      `${dir}/setup.yaml`,
      `name: setup\nsteps:\n  - name: broken\n    request: {method: POST, url: "${api.url}/broken"}\n    capture: {id: $.json.id}\n    assert: {status: 201}\noutputs:\n  id: "\${steps.broken.capture.id}"\n`,
    );
    await Deno.writeTextFile(
      `${dir}/down.yaml`,
      `name: down\nsteps:\n  - name: drop\n    if: {value: "\${setup.id}", exists: true}\n    request: {method: DELETE, url: "${api.url}/items/\${setup.id}"}\n`,
    );
    await Deno.writeTextFile(
      `${dir}/f.yaml`,
      `name: f\nsteps:\n  - name: get\n    request: {url: "${api.url}/x?id=\${setup.id}"}\n`,
    );
    const run = await runCli([
      "run",
      `${dir}/f.yaml`,
      ...["--setup", `${dir}/setup.yaml`, "--teardown", `${dir}/down.yaml`],
      ...["--report-json", `${dir}/r.json`],
    ]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const down = report.flows.at(-1);
    assert.equal(down.status, "passed", JSON.stringify(down));
    assert.equal(down.steps[0].failure_kind, "condition");
    assert.deepEqual(api.deleted, []);
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});
