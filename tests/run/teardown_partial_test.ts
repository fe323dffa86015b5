/**
 * A teardown after a failed setup: it gets whatever the setup produced
 * (outputs of plain vars, outputs of captures made before the failure), and
 * an output that was never produced is named as such, not as a missing
 * `--setup` (issue 40, item 7a).
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

function serve() {
  const deleted: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    if (req.method === "POST") return Response.json({ id: "it-7" }, { status: 201 });
    if (req.method === "DELETE") {
      deleted.push(url.pathname + url.search);
      return new Response(null, { status: 204 });
    }
    return Response.json({ ok: false }, { status: 500 });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, deleted, close: () => server.shutdown() };
}

async function files(url: string, dir: string) {
  await Deno.writeTextFile(
    `${dir}/setup.yaml`,
    `name: make things
vars: {base: "${url}", tenant: t-1}
steps:
  - name: create
    request: {method: POST, url: "\${vars.base}/items"}
    capture: {id: $.json.id}
  - name: check
    request: {url: "\${vars.base}/health"}
    assert: {status: 200}
  - name: second
    request: {method: POST, url: "\${vars.base}/items"}
    capture: {other: $.json.id}
outputs:
  base: "\${vars.base}"
  tenant: "\${vars.tenant}"
  item: "\${steps.create.capture.id}"
  other: "\${steps.second.capture.other}"
`,
  );
  await Deno.writeTextFile(
    `${dir}/down.yaml`,
    `name: clean up
steps:
  - name: delete made
    request: {method: DELETE, url: "\${setup.base}/items/\${setup.item}?t=\${setup.tenant}"}
  - name: delete other
    always: true
    request: {method: DELETE, url: "\${setup.base}/items/\${setup.other}"}
`,
  );
  await Deno.writeTextFile(
    `${dir}/f.yaml`,
    `name: a flow\nsteps:\n  - name: get\n    request: {url: "\${setup.base}/x"}\n`,
  );
}

Deno.test("a teardown after a failed setup gets the outputs the setup produced", async () => {
  const api = serve();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-partial-" });
  try {
    await files(api.url, dir);
    const run = await runCli([
      "run",
      `${dir}/f.yaml`,
      "--setup",
      `${dir}/setup.yaml`,
      "--teardown",
      `${dir}/down.yaml`,
      "--report-json",
      `${dir}/r.json`,
    ]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    // Plain vars and the capture made before the failure reached the teardown.
    assert.deepEqual(api.deleted, ["/items/it-7?t=t-1"]);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const down = report.flows.at(-1);
    assert.equal(down.steps[0].status, "passed");
    // The output that was never produced: the setup that did not pass is named, not --setup.
    assert.equal(down.steps[1].failure_kind, "expression");
    assert.match(
      down.steps[1].message,
      /No setup flow handed out "other" \(in "\$\{setup\.other\}"\): setup flow "make things" did not pass/,
    );
    assert.doesNotMatch(run.stdout + run.stderr, /run with --setup/);
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a setup whose optional capture found nothing hands the flows and teardown every other output", async () => {
  const api = serve();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-partial-" });
  try {
    await Deno.writeTextFile(
      `${dir}/setup.yaml`,
      `name: half outputs
vars: {base: "${api.url}", tenant: t-2}
steps:
  - name: maybe
    request: {method: POST, url: "\${vars.base}/items"}
    capture: {id: {path: $.json.nothing, optional: true}}
outputs:
  base: "\${vars.base}"
  first: "\${steps.maybe.capture.id}"
  tenant: "\${vars.tenant}"
`,
    );
    await Deno.writeTextFile(
      `${dir}/down.yaml`,
      `name: clean up\nsteps:\n  - name: sweep\n    request: {method: DELETE, url: "\${setup.base}/items/all?t=\${setup.tenant}"}\n`,
    );
    await Deno.writeTextFile(
      `${dir}/f.yaml`,
      `name: a flow\nsteps:\n  - name: get\n    request: {url: "\${setup.base}/x"}\n`,
    );
    const run = await runCli([
      "run",
      `${dir}/f.yaml`,
      ...["--setup", `${dir}/setup.yaml`, "--teardown", `${dir}/down.yaml`],
    ]);
    // The flow ran (the stand-in answers its GET 500, which it does not check).
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.deepEqual(api.deleted, ["/items/all?t=t-2"]);
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});
