/**
 * Step conditions: `if` runs a step only when conditions on earlier values
 * hold (the operators of checks), reports it skipped with the condition
 * otherwise, and the flow goes on; misuse is a load problem.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { runFlows } from "../../lib/run/flows.ts";
import "../support/engines.ts";

function serve(items: string[]) {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    seen.push(`${req.method} ${url.pathname}`);
    return Response.json({ items, count: items.length });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, seen, close: () => server.shutdown() };
}

const text = (url: string) =>
  `name: conditional cleanup
vars: {mode: full}
steps:
  - name: list
    request: {url: "${url}/items"}
    capture: {count: $.json.count, first: "$.json.items[*]"}
  - name: purge
    if: {value: "\${steps.list.capture.count}", gt: 0}
    request: {method: DELETE, url: "${url}/items"}
  - name: full_check
    if:
      - {value: "\${vars.mode}", equals: full}
      - {value: "\${steps.list.capture.first}", length: 0}
    request: {url: "${url}/empty-check"}
  - name: after
    request: {url: "${url}/after"}
`;

Deno.test("a step runs only when its conditions hold; the flow goes on either way", async () => {
  for (
    const [items, expected] of [[[], ["skipped", "passed"]], [["a"], [
      "passed",
      "skipped",
    ]]] as const
  ) {
    const api = serve([...items]);
    try {
      const { flow, problems } = loadFlow(text(api.url), "f.yaml");
      assert.deepEqual(problems, []);
      const result = await runFlows([flow!], { runId: "r" });
      const [, purge, full, after] = result.flows[0].steps;
      assert.equal(result.flows[0].status, "passed", JSON.stringify(result.flows[0].steps));
      assert.deepEqual([purge.status, full.status], expected);
      assert.equal(after.status, "passed");
      const skipped = [purge, full].find((s) => s.status === "skipped")!;
      assert.equal(skipped.failure_kind, "condition");
      assert.match(
        skipped.message!,
        items.length === 0
          ? /^Skipped: its condition \$\{steps\.list\.capture\.count\} gt 0 does not hold \(expected a number > 0, got 0\)\.$/
          : /^Skipped: its condition \$\{steps\.list\.capture\.first\} length 0 does not hold \(expected length 0, got 1\)\.$/,
      );
      assert.equal(api.seen.includes("DELETE /items"), items.length > 0);
    } finally {
      await api.close();
    }
  }
});

Deno.test("a flow whose only step is skipped by its condition has passed", async () => {
  const { flow } = loadFlow(
    `name: f\nvars: {go: "no"}\nsteps:\n  - name: s\n    if: {value: "\${vars.go}", equals: "yes"}\n    request: {url: "http://127.0.0.1:9/"}\n`,
    "f.yaml",
  );
  const result = await runFlows([flow!], { runId: "r" });
  assert.equal(result.status, "passed");
  assert.equal(result.flows[0].steps[0].failure_kind, "condition");
});

Deno.test("misused conditions are load problems with their fix", () => {
  const base = `name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n`;
  const cases: [string, string, string][] = [
    ['    if: "yes"\n', "wrong-type", "a condition or a list of them"],
    ['    if: {value: "${vars.x}"}\n', "missing-key", "has no operator"],
    ["    if: {path: $.json.id, exists: true}\n", "unknown-key", 'Unknown key "path"'],
    [
      '    if: {value: "${steps.t.capture.x}", equals: 1}\n',
      "later-step",
      'step "t" runs after it',
    ],
    ['    if: {value: "${steps.s.capture.x}", gt: "many"}\n', "wrong-type", '"gt" to be a number'],
  ];
  for (const [yaml, code, message] of cases) {
    const later = code === "later-step"
      ? `  - name: t\n    request: {url: "http://x.test"}\n    capture: {x: $.json.x}\n`
      : "";
    const vars = yaml.includes("vars.x") ? "vars: {x: 1}\n" : "";
    const { problems } = loadFlow(`${vars}${base}${yaml}${later}`, "f.yaml");
    const relevant = problems.filter((p) => p.code === code);
    assert.equal(relevant.length, 1, `${yaml}: ${JSON.stringify(problems)}`);
    assert.ok(relevant[0].message.includes(message), relevant[0].message);
  }
});
