/**
 * Data-driven flows: `data` rows (inline, CSV, JSON) run the flow once per
 * row, each a result of its own named by the row in every report, in
 * parallel under --jobs; mistakes in rows and files are load problems.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { loadFlows } from "../../lib/load/suite.ts";
import { runFlows } from "../../lib/run/flows.ts";
import { runCli } from "../support/cli.ts";
import "../support/engines.ts";

function serve(delayMs = 0) {
  const seen: string[] = [];
  let inFlight = 0;
  let most = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    inFlight++;
    most = Math.max(most, inFlight);
    await new Promise((r) => setTimeout(r, delayMs));
    inFlight--;
    const url = new URL(req.url);
    seen.push(url.search);
    const role = url.searchParams.get("role");
    return Response.json({ role, admin: role === "admin" });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    seen,
    most: () => most,
    close: () => server.shutdown(),
  };
}

const flowText = (url: string, data: string, vars = "") =>
  `name: roles
${vars}data: ${data}
steps:
  - name: who
    request: {url: "${url}/?user=\${vars.name}&role=\${role}&greeting=\${vars.greeting}"}
    assert:
      json: [{path: $.json.role, equals: "\${vars.role}"}]
`;

Deno.test("inline rows: one result per row, named by the row, vars from the row", async () => {
  const api = serve();
  try {
    const { flow, problems } = loadFlow(
      flowText(
        api.url,
        "[{name: ann, role: admin}, {name: bo, role: viewer}]",
        'vars: {greeting: "hi ${vars.name}", role: none}\n',
      ),
      "f.yaml",
    );
    assert.deepEqual(problems, []);
    const result = await runFlows([flow!], { runId: "r" });
    assert.equal(result.status, "passed");
    assert.deepEqual(result.flows.map((f) => f.name), ["roles [ann]", "roles [bo]"]);
    assert.deepEqual(
      api.seen.sort(),
      [
        "?user=ann&role=admin&greeting=hi%20ann",
        "?user=bo&role=viewer&greeting=hi%20bo",
      ],
    );
  } finally {
    await api.close();
  }
});

Deno.test("rows from CSV and JSON files run in parallel and appear in every report", async () => {
  const api = serve(150);
  const dir = await Deno.makeTempDir({ prefix: "flowrun-data-" });
  try {
    await Deno.mkdir(`${dir}/flows/data`, { recursive: true });
    await Deno.writeTextFile(
      `${dir}/flows/data/users.csv`,
      'name,role\nann,admin\n"bo, jr",viewer\ncy,editor\n',
    );
    await Deno.writeTextFile(
      `${dir}/flows/data/users.json`,
      '[{"name": "dee", "role": "admin"}, {"role": "viewer"}]',
    );
    const vars = 'vars: {name: "", role: "", greeting: hello}\n';
    await Deno.writeTextFile(
      `${dir}/flows/csv.yaml`,
      flowText(api.url, "{file: data/users.csv}", vars),
    );
    await Deno.writeTextFile(
      `${dir}/flows/json.yaml`,
      flowText(api.url, "{file: data/users.json}", vars),
    );
    const run = await runCli([
      "run",
      `${dir}/flows`,
      "--jobs",
      "5",
      "--report-json",
      `${dir}/r.json`,
      "--report-junit",
      `${dir}/r.xml`,
    ]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    assert.deepEqual(report.flows.map((f: { name: string }) => f.name), [
      "roles [ann]",
      "roles [bo, jr]",
      "roles [cy]",
      "roles [dee]",
      "roles [row 2]",
    ]);
    assert.ok(api.most() >= 3, `rows ran in parallel (at most ${api.most()} at once)`);
    const junit = await Deno.readTextFile(`${dir}/r.xml`);
    assert.ok(junit.includes('name="roles [bo, jr]"'), junit);
    // The merge of one report with rows of one file is not a duplicate.
    const merged = await runCli(["merge", `${dir}/r.json`, "--report-json", `${dir}/m.json`]);
    assert.equal(merged.code, 0, merged.stderr);
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("mistakes in rows and data files are problems with positions and fixes", async () => {
  const inline: [string, string, string][] = [
    [
      "[{name: a, role: x}, {name: b}]",
      'Row 2 of "data" has other names than row 1: no role',
      "same names",
    ],
    ["[]", 'Expected "data" to be a non-empty list of rows', "data: {file: users.csv}"],
    [
      `[{name: a, role: ${"[".repeat(70)}${"]".repeat(70)}}]`,
      'The value of "role" in row 1 of "data" is nested more than 64 levels deep',
      "",
    ],
    ["{path: x.csv}", 'Unknown key "path"', ""],
  ];
  for (const [data, message, hint] of inline) {
    const { problems } = loadFlow(
      flowText("http://x.test", data, "vars: {greeting: x}\n"),
      "f.yaml",
    );
    assert.ok(problems.length >= 1, data);
    assert.ok(problems[0].message.includes(message), `${data}: ${problems[0].message}`);
    assert.ok((problems[0].hint ?? "").includes(hint), `${data}: ${problems[0].hint}`);
  }
  const dir = await Deno.makeTempDir({ prefix: "flowrun-data-" });
  try {
    const cases: [string, string, string][] = [
      [
        "a.csv",
        "name,role,extra\nann,admin,1\n",
        'has column "extra" that the flow does not declare',
      ],
      ["b.csv", 'name,role\n"ann,admin\n', "a quoted field is never closed"],
      ["c.csv", "name,role\nann\n", "row 1 has 1 fields, the header 2"],
      ["d.json", '{"name": "ann"}', "non-empty list of objects"],
      ["missing.csv", "", "Could not read the data file"],
    ];
    for (const [file, content, message] of cases) {
      if (content !== "") await Deno.writeTextFile(`${dir}/${file}`, content);
      await Deno.writeTextFile(
        `${dir}/f.yaml`,
        flowText("http://x.test", `{file: ${file}}`, 'vars: {name: "", role: "", greeting: x}\n'),
      );
      const { problems, flows } = await loadFlows([`${dir}/f.yaml`]);
      assert.equal(flows.length, 0, file);
      assert.equal(problems.length, 1, `${file}: ${JSON.stringify(problems)}`);
      assert.ok(problems[0].message.includes(message), `${file}: ${problems[0].message}`);
      assert.equal(problems[0].line, 3, file);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
