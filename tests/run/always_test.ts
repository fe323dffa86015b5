/**
 * Cleanup that always runs: a step marked `always: true` runs after a failure
 * in its flow and after an interrupt (within a grace period), its own failure
 * is reported without hiding the first one, and misuse is a load problem.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { runFlows } from "../../lib/run/flows.ts";
import { spawnCli } from "../support/cli.ts";
import "../support/engines.ts";

/** A server that records what it received; `/slow` answers after `slowMs`. */
function serve(slowMs = 0) {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    seen.push(`${req.method} ${url.pathname}`);
    if (url.pathname === "/slow") await new Promise((r) => setTimeout(r, slowMs));
    if (url.pathname === "/broken") return Response.json({ error: "boom" }, { status: 500 });
    if (req.method === "POST") return Response.json({ id: "itm_42" }, { status: 201 });
    return Response.json({ ok: true });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    seen,
    close: () => server.shutdown(),
  };
}

const flow = (url: string, middle: string, cleanupPath = "/items/${steps.create.capture.id}") =>
  loadFlow(
    `name: with cleanup
steps:
  - name: create
    request: {method: POST, url: "${url}/items"}
    capture: {id: $.json.id}
  - name: check
    request: {url: "${url}${middle}"}
    assert: {status: 200}
  - name: later
    request: {url: "${url}/later"}
  - name: delete
    always: true
    request: {method: DELETE, url: "${url}${cleanupPath}"}
    assert: {status: 200}
`,
    "f.yaml",
  );

Deno.test("a cleanup step runs after a failure; the flow fails for the first failure", async () => {
  const api = serve();
  try {
    const { flow: f, problems } = flow(api.url, "/broken");
    assert.deepEqual(problems, []);
    const result = await runFlows([f!], { runId: "r" });
    const [create, check, later, del] = result.flows[0].steps;
    assert.equal(result.flows[0].status, "failed");
    assert.equal(create.status, "passed");
    assert.equal(check.status, "failed");
    assert.equal(later.status, "skipped");
    assert.equal(later.message, 'Skipped because step "check" failed.');
    assert.equal(del.status, "passed");
    assert.deepEqual(api.seen, ["POST /items", "GET /broken", "DELETE /items/itm_42"]);
  } finally {
    await api.close();
  }
});

Deno.test("a cleanup step's own failure is reported beside the first one", async () => {
  const api = serve();
  try {
    const { flow: f } = flow(api.url, "/broken", "/broken");
    const result = await runFlows([f!], { runId: "r" });
    const steps = result.flows[0].steps;
    assert.equal(result.flows[0].status, "failed");
    assert.deepEqual(steps.map((s) => s.status), ["passed", "failed", "skipped", "failed"]);
    assert.match(steps[1].message!, /status/);
    assert.match(steps[3].message!, /status/);
    assert.equal(result.totals.steps.failed, 2);
  } finally {
    await api.close();
  }
});

Deno.test("cleanup runs when every step passed too, in its place", async () => {
  const api = serve();
  try {
    const { flow: f } = flow(api.url, "/ok");
    const result = await runFlows([f!], { runId: "r" });
    assert.equal(result.status, "passed");
    assert.deepEqual(api.seen.at(-1), "DELETE /items/itm_42");
  } finally {
    await api.close();
  }
});

Deno.test("after an interrupt, cleanup still runs within the grace period", async () => {
  const api = serve(3_000);
  try {
    const { flow: f } = flow(api.url, "/slow");
    const controller = new AbortController();
    setTimeout(() => controller.abort("SIGINT"), 300);
    const result = await runFlows([f!], { runId: "r", signal: controller.signal });
    const [, check, later, del] = result.flows[0].steps;
    assert.equal(check.failure_kind, "interrupted");
    assert.equal(later.failure_kind, "interrupted");
    assert.equal(del.status, "passed", JSON.stringify(del));
    assert.ok(api.seen.includes("DELETE /items/itm_42"), api.seen.join());
  } finally {
    await api.close();
  }
});

Deno.test("SIGINT to the CLI: the cleanup request is sent, artifacts written, exit 130", async () => {
  const api = serve(3_000);
  const dir = await Deno.makeTempDir({ prefix: "flowrun-always-" });
  try {
    await Deno.writeTextFile(
      `${dir}/f.yaml`,
      `name: with cleanup\nsteps:\n  - name: create\n    request: {method: POST, url: "${api.url}/items"}\n    capture: {id: $.json.id}\n  - name: check\n    request: {url: "${api.url}/slow"}\n  - name: delete\n    always: true\n    request: {method: DELETE, url: "${api.url}/items/\${steps.create.capture.id}"}\n`,
    );
    const child = spawnCli(["run", `${dir}/f.yaml`, "--report-json", `${dir}/r.json`], {
      stdout: "null",
    });
    for (let i = 0; i < 500 && !api.seen.includes("GET /slow"); i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    child.kill("SIGINT");
    const { code } = await child.output();
    assert.equal(code, 130);
    assert.ok(api.seen.includes("DELETE /items/itm_42"), api.seen.join());
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    assert.equal(report.flows[0].steps[2].status, "passed");
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("always takes true or false; cleanup words from other tools point to it", () => {
  const base = `name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n`;
  const bad = loadFlow(`${base}    always: yes\n`, "f.yaml").problems;
  assert.deepEqual(bad.map((p) => [p.code, p.line, p.column]), [["wrong-type", 5, 13]]);
  assert.match(bad[0].hint!, /always: true/);
  for (const key of ["finally", "defer", "cleanup"]) {
    const [p] = loadFlow(`${base}    ${key}: true\n`, "f.yaml").problems;
    assert.equal(p.code, "unknown-key");
    assert.match(p.hint!, /"always: true"/, key);
  }
});
