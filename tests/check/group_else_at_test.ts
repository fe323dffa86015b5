/**
 * `else` in a check group with `at` is evaluated under `at`, like its
 * `checks`; the group's `if` is rooted like the group's own `at` (on the
 * response), not inside it (issue 40, item 7d: documented in assertions.md).
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

Deno.test("else under at: $ is the value at selects; if is on the response", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json({ kind: "draft", article: { slug: "s-1", kind: "draft" } }),
  );
  const dir = await Deno.makeTempDir({ prefix: "flowrun-else-at-" });
  try {
    await Deno.writeTextFile(
      `${dir}/f.yaml`,
      `name: else at
steps:
  - name: get
    request: {url: "http://127.0.0.1:${server.addr.port}/a"}
    assert:
      json:
        - at: $.json.article
          if: {path: $.json.kind, equals: published}
          checks: [{path: $.published_at, exists: true}]
          else: [{path: $.slug, equals: s-1}, {path: $.kind, equals: draft}]
`,
    );
    const run = await runCli(["run", `${dir}/f.yaml`, "--report-json", `${dir}/r.json`]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const results = report.flows[0].steps[0].assertions.filter((a: { skipped?: boolean }) =>
      !a.skipped
    );
    const passed = results.filter((a: { passed: boolean }) => a.passed);
    assert.ok(passed.length >= 2, JSON.stringify(results));
    assert.ok(JSON.stringify(results).includes("$.slug"), JSON.stringify(results));
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
