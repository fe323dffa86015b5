/**
 * The example suite (examples/suite) is the "done when": a
 * 30-request collection with one shared login (--setup) for every flow,
 * items created, checked and removed through included flows (no repeated
 * login, no copied check block), data rows, conditions, conditional check
 * groups, cleanup steps and a teardown that checks no test data was left
 * behind, run in parallel. A failing check still leaves nothing behind.
 */
import assert from "node:assert/strict";
import { startDemoApi } from "../examples/demo_api.ts";
import { runCli } from "./support/cli.ts";

interface Step {
  name: string;
  status: string;
  attempts: number;
  failure_kind?: string;
  request: { url: string } | null;
}
interface Flow {
  name: string;
  status: string;
  steps: Step[];
}

async function runSuite(root: string, dir: string, url: string) {
  const run = await runCli([
    "run",
    `${root}/flows`,
    "--setup",
    `${root}/shared/login.yaml`,
    "--teardown",
    `${root}/shared/sweep.yaml`,
    "--jobs",
    "4",
    "--report-json",
    `${dir}/r.json`,
  ], { env: { BASE_URL: url } });
  const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
  return { run, flows: report.flows as Flow[] };
}

Deno.test("examples/suite: 30 requests, one login, shared flows and checks, all green in parallel", async () => {
  const api = await startDemoApi();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-suite-" });
  try {
    const { run, flows } = await runSuite("examples/suite", dir, api.url);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const names = flows.map((f) => f.name);
    assert.equal(names[0], "log in once");
    assert.equal(names.at(-1), "no test data left");
    assert.deepEqual(names.filter((n) => n.startsWith("item kinds")), [
      "item kinds [basic]",
      "item kinds [premium]",
      "item kinds [free]",
    ]);
    const steps = flows.flatMap((f) => f.steps);
    const requests = steps.reduce((n, s) => n + s.attempts, 0);
    assert.ok(requests >= 30, `${requests} requests`);
    const logins = steps.filter((s) => s.request?.url.endsWith("/login"));
    assert.equal(logins.length, 1, "one login for the whole run");
    // Items are created, read and removed through the shared flows, reported by their steps.
    const catalog = flows.find((f) => f.name === "catalog listing")!;
    assert.deepEqual(catalog.steps.map((s) => s.name), [
      "tea › create",
      "tea › read_back › get",
      "tea › read_back",
      "cake › create",
      "cake › read_back › get",
      "cake › read_back",
      "list",
      "remove_tea › delete",
      "remove_cake › delete",
    ]);
    const skipped = steps.filter((s) => s.failure_kind === "condition");
    assert.equal(skipped.length, 2, "the premium check is skipped for two rows");
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("examples/suite: a failing check leaves no test data behind", async () => {
  const api = await startDemoApi();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-suite-" });
  try {
    // A copy of the suite where one check of the item lifecycle fails.
    const root = `${dir}/suite`;
    for (const sub of ["flows", "flows/data", "shared", "checks"]) {
      await Deno.mkdir(`${root}/${sub}`, { recursive: true });
      for (const e of Deno.readDirSync(`examples/suite/${sub}`)) {
        if (e.isFile) {
          await Deno.copyFile(`examples/suite/${sub}/${e.name}`, `${root}/${sub}/${e.name}`);
        }
      }
    }
    const items = await Deno.readTextFile(`${root}/flows/items.yaml`);
    assert.ok(items.includes("{ path: $.price, equals: 9.5 }"));
    await Deno.writeTextFile(
      `${root}/flows/items.yaml`,
      items.replace("{ path: $.price, equals: 9.5 }", "{ path: $.price, equals: 9.75 }"),
    );
    const { run, flows } = await runSuite(root, dir, api.url);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const lifecycle = flows.find((f) => f.name === "item lifecycle")!;
    assert.equal(lifecycle.status, "failed");
    assert.deepEqual(lifecycle.steps.map((s) => [s.name, s.status]), [
      ["item › create", "passed"],
      ["item › read_back › get", "passed"],
      ["item › read_back", "passed"],
      ["in_the_list", "failed"],
      ["remove › delete", "passed"],
    ]);
    const sweep = flows.at(-1)!;
    assert.equal(sweep.name, "no test data left");
    assert.equal(sweep.status, "passed", "the teardown found no item of this run");
    assert.deepEqual(
      flows.filter((f) => f.status !== "passed").map((f) => f.name),
      ["item lifecycle"],
    );
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});
