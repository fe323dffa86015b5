/**
 * Reusable, named checks: aliased lists merge into check lists, a check's
 * `name` leads its message in the console, JUnit and JSON, `each` applies an
 * operator to every selected value and names the one that failed, and an
 * empty selection is an empty list.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { runCli } from "../support/cli.ts";
import "../support/engines.ts";

function serve(items: unknown[]) {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) =>
      Response.json(new URL(req.url).pathname === "/one" ? { id: 7, items: [] } : { id: 8, items }),
  );
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

const suite = (url: string) =>
  `name: shared checks
x-common: &common
  - {path: $.json.id, type: integer, name: "the id is an integer"}
  - {path: "$.json.items[*]", type: array}
steps:
  - name: empty
    request: {url: "${url}/one"}
    assert:
      json:
        - *common
        - {path: "$.json.items[*].created", length: 0, name: "no items yet"}
        - {path: "$.json.items[*].created", each: true, matches: "^\\\\d{4}-", name: "every item has an ISO date"}
  - name: list
    request: {url: "${url}/list"}
    assert:
      json: [*common, {path: "$.json.items[*].created", each: true, matches: "^\\\\d{4}-", name: "every item has an ISO date"}]
`;

Deno.test("aliased check lists merge; each names the failing value; names reach every report", async () => {
  const api = serve([{ created: "2026-11-01" }, { created: "yesterday" }, {
    created: "2026-11-03",
  }]);
  const dir = await Deno.makeTempDir({ prefix: "flowrun-checks-" });
  try {
    await Deno.writeTextFile(`${dir}/f.yaml`, suite(api.url));
    const run = await runCli([
      "run",
      `${dir}/f.yaml`,
      "--report-json",
      `${dir}/r.json`,
      "--report-junit",
      `${dir}/r.xml`,
    ]);
    assert.equal(run.code, 1, run.stderr);
    const expected =
      'every item has an ISO date: $.json.items[*].created: value 2 of 3: "yesterday" does not match /^\\d{4}-/';
    assert.ok(run.stdout.includes(expected), run.stdout);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const [empty, list] = report.flows[0].steps;
    // The first step: the 2 aliased checks, then its own 2, all passing on an empty list.
    assert.equal(empty.status, "passed");
    assert.deepEqual(empty.assertions.map((a: { name?: string }) => a.name), [
      "the id is an integer",
      undefined,
      "no items yet",
      "every item has an ISO date",
    ]);
    assert.equal(
      empty.assertions[3].message,
      'every item has an ISO date: $.json.items[*].created: matches "^\\\\d{4}-" holds for each of 0',
    );
    const failed = list.assertions.find((a: { passed: boolean }) => !a.passed);
    assert.equal(failed.name, "every item has an ISO date");
    assert.equal(failed.message, expected);
    assert.equal(failed.actual, "yesterday");
    const junit = await Deno.readTextFile(`${dir}/r.xml`);
    assert.ok(
      junit.includes("every item has an ISO date: $.json.items[*].created: value 2 of 3"),
      junit,
    );
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("each and name are checked at load time", () => {
  const base =
    `name: f\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n    assert:\n      json:\n`;
  const cases: [string, string, string][] = [
    ["- {path: $.json.id, each: true, type: number}", "selects one", '"$.json.id"'],
    ['- {path: "$.json.a[*]", each: yes, type: number}', "true or false", "each: true"],
    ['- {path: $.json.id, name: "", type: number}', "non-empty string", ""],
  ];
  for (const [check, message, hint] of cases) {
    const { problems } = loadFlow(`${base}        ${check}\n`, "f.yaml");
    assert.equal(problems.length, 1, JSON.stringify(problems));
    assert.ok(problems[0].message.includes(message), problems[0].message);
    assert.ok((problems[0].hint ?? "").includes(hint), problems[0].hint);
    assert.equal(problems[0].line, 7);
  }
});
