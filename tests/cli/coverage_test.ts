/**
 * OpenAPI coverage through the CLI: a run against a server the test starts
 * reports which operations and documented responses of the document it
 * exercised, in the console, the JSON report (parsed back field by field)
 * and the HTML report; `--coverage-min` gates the exit code after every
 * report is written; the documents of `openapi:` checks count; shards merge;
 * unserved paths are masked; bad options and documents stop the run before
 * anything is sent.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const DOCUMENT = {
  openapi: "3.1.0",
  info: { title: "items", version: "1" },
  servers: [{ url: "https://api.example.test/v1" }],
  paths: {
    "/items": {
      get: {
        responses: {
          "200": {
            description: "list",
            content: { "application/json": { schema: { type: "array" } } },
          },
        },
      },
      post: { responses: { "201": { description: "made" }, "422": { description: "bad" } } },
    },
    "/items/{id}": {
      get: { responses: { "200": { description: "one" }, "404": { description: "none" } } },
      delete: { responses: { "204": { description: "gone" } } },
    },
    "/items/{id}/history": { get: { responses: { "200": { description: "log" } } } },
    "/reports/{name}.json": { get: { responses: { "2XX": { description: "a report" } } } },
  },
};

const TOKEN = "tok-9f8e7d6c5b4a";

/** The API the document describes, plus what it does not describe. */
function serve() {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const { pathname } = new URL(req.url);
    seen.push(`${req.method} ${pathname}`);
    const json = (status: number, body: unknown = {}) => Response.json(body, { status });
    if (pathname === "/v1/items") return json(req.method === "POST" ? 201 : 200, []);
    if (pathname === "/v1/items/1" && req.method === "GET") return json(200, { id: 1 });
    if (pathname === "/v1/items/2" && req.method === "GET") return json(404);
    if (pathname === "/v1/items/boom") return json(500);
    if (pathname === "/v1/old") {
      return new Response(null, { status: 301, headers: { location: "/v1/items" } });
    }
    if (pathname === "/v1/reports/daily.json") return json(200);
    return json(200, { ok: true });
  });
  const { port } = server.addr as Deno.NetAddr;
  return { base: `http://127.0.0.1:${port}`, seen, close: () => server.shutdown() };
}

function flow(name: string, steps: string[]): string {
  return `name: ${name}\nsteps:\n${steps.join("")}`;
}

function step(name: string, method: string, path: string, extra = ""): string {
  return `  - name: ${name}\n    request: { method: ${method}, url: "\${ENV.BASE}${path}" }\n${extra}`;
}

async function workspace(files: Record<string, string>): Promise<string> {
  const dir = await Deno.makeTempDir();
  for (const [path, text] of Object.entries(files)) {
    const full = `${dir}/${path}`;
    await Deno.mkdir(full.replace(/\/[^/]*$/, ""), { recursive: true });
    await Deno.writeTextFile(full, text);
  }
  return dir;
}

const ITEMS = flow("items", [
  step("list", "GET", "/v1/items"),
  step("create", "POST", "/v1/items"),
  step("one", "GET", "/v1/items/1"),
  step("missing", "GET", "/v1/items/2", "    assert: { status: 404 }\n"),
  step("boom", "DELETE", "/v1/items/boom", "    assert: { status: 500 }\n"),
  step("moved", "GET", "/v1/old", "    options: { follow_redirects: true }\n"),
  step("report", "GET", "/v1/reports/daily.json"),
  step("health", "GET", "/v1/health"),
  step("reset", "GET", "/v1/reset/${ENV.RESET_TOKEN}"),
  step("elsewhere", "GET", "/auth/token"),
]);

Deno.test("a run reports its coverage in the console, the JSON and the HTML report", async () => {
  const api = serve();
  const dir = await workspace({ "api.json": JSON.stringify(DOCUMENT), "flows/items.yaml": ITEMS });
  try {
    const run = await runCli(
      [
        "run",
        "flows",
        "--openapi",
        "api.json",
        "--report-json",
        "out/report.json",
        "--report-html",
        "out/report.html",
      ],
      { cwd: dir, env: { BASE: api.base, RESET_TOKEN: TOKEN } },
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(
      run.stdout,
      /OpenAPI coverage of api\.json: 5 of 6 operations \(83\.3 %\), 5 of 8 documented responses \(62\.5 %\)\n/,
    );
    assert.match(run.stdout, / {2}not exercised: GET \/items\/\{id\}\/history\n/);
    assert.match(run.stdout, / {2}undocumented statuses: DELETE \/items\/\{id\} 500\n/);
    assert.match(
      run.stdout,
      / {2}no operation serves: GET \/v1\/health, GET \/v1\/old, GET \/v1\/reset\/\*\*\*\n/,
    );
    const report = JSON.parse(await Deno.readTextFile(`${dir}/out/report.json`));
    const [coverage] = report.openapi_coverage;
    assert.deepEqual(Object.keys(report).slice(-2), ["openapi_coverage", "flows"]);
    assert.equal(coverage.document, "api.json");
    assert.deepEqual(coverage.operations, { total: 6, exercised: 5, percent: 83.3 });
    assert.deepEqual(coverage.responses, { total: 8, exercised: 5, percent: 62.5 });
    assert.deepEqual(
      coverage.items.map((i: { method: string; path: string; exercised: boolean }) =>
        `${i.method} ${i.path} ${i.exercised}`
      ),
      [
        "GET /items true",
        "POST /items true",
        "GET /items/{id} true",
        "DELETE /items/{id} true",
        "GET /items/{id}/history false",
        "GET /reports/{name}.json true",
      ],
    );
    assert.deepEqual(coverage.items[1].responses, [
      { status: "201", exercised: true },
      { status: "422", exercised: false },
    ]);
    assert.deepEqual(coverage.items[3].undocumented, [500]);
    // A followed redirect counts each hop: GET /old (301, no operation), then GET /items.
    // A request outside the base path (/auth/token) is not the document's gap.
    assert.deepEqual(coverage.unmatched, [
      { method: "GET", path: "/v1/health", count: 1 },
      { method: "GET", path: "/v1/old", count: 1 },
      { method: "GET", path: "/v1/reset/***", count: 1 },
    ]);
    const html = await Deno.readTextFile(`${dir}/out/report.html`);
    assert.match(html, /<h2 id="coverage-title">OpenAPI coverage<\/h2>/);
    assert.match(html, /<td class="mono">GET \/items\/\{id\}\/history<\/td><td>○ no<\/td>/);
    for (
      const text of [
        run.stdout,
        run.stderr,
        await Deno.readTextFile(`${dir}/out/report.json`),
        html,
      ]
    ) {
      assert.ok(!text.includes(TOKEN), "the secret path stays masked");
    }
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--coverage-min fails a run below it with exit 1, after every report is written", async () => {
  const api = serve();
  const dir = await workspace({ "api.json": JSON.stringify(DOCUMENT), "flows/items.yaml": ITEMS });
  const env = { BASE: api.base, RESET_TOKEN: TOKEN };
  try {
    const args = ["run", "flows", "--openapi", "api.json", "--report-json", "r.json"];
    const below = await runCli([...args, "--coverage-min", "90"], { cwd: dir, env });
    assert.equal(below.code, 1, below.stdout + below.stderr);
    assert.match(below.stdout, /✘ below --coverage-min 90: 83\.3 % of operations\n/);
    assert.match(below.stdout, /1 flow: 1 passed/);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    assert.equal(report.openapi_coverage[0].min, 90);
    assert.equal(report.status, "passed", "the flows passed; the gate is the coverage's");
    const met = await runCli([...args, "--coverage-min", "83.3"], { cwd: dir, env });
    assert.equal(met.code, 0, met.stdout + met.stderr);
    assert.match(met.stdout, /✔ --coverage-min 83\.3 met\n/);
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--coverage counts the documents of openapi: checks, one document once", async () => {
  const api = serve();
  const checked = flow("checked", [
    step("list", "GET", "/v1/items", "    assert: { openapi: ../../api.json }\n"),
  ]);
  const dir = await workspace({
    "api.json": JSON.stringify(DOCUMENT),
    "flows/a/checked.yaml": checked,
    "flows/b/checked.yaml": checked,
  });
  try {
    // The document given by its absolute path is the one the checks name, too.
    const absolute = ["--openapi", `${dir}/api.json`, "--coverage"];
    for (const extra of [["--coverage"], ["--openapi", "./api.json"], absolute]) {
      const run = await runCli(["run", "flows", ...extra, "--report-json", "r.json"], {
        cwd: dir,
        env: { BASE: api.base },
      });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
      assert.deepEqual(
        report.openapi_coverage.map((c: { document: string }) => c.document),
        ["api.json"],
        extra.join(" "),
      );
      assert.deepEqual(report.openapi_coverage[0].operations, {
        total: 6,
        exercised: 1,
        percent: 16.6,
      });
    }
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a bad --openapi document or --coverage-min stops the run before anything is sent", async () => {
  const api = serve();
  const dir = await workspace({
    "flows/items.yaml": ITEMS,
    "users.json": JSON.stringify({ users: [] }),
    "broken.yaml": "openapi: [",
  });
  const env = { BASE: api.base, RESET_TOKEN: TOKEN };
  try {
    const cases: [string[], RegExp][] = [
      [
        ["--openapi", "users.json"],
        /error\[bad-openapi\]: Could not use --openapi "users\.json": it has no "paths", so it is not an OpenAPI document\./,
      ],
      [
        ["--openapi", "broken.yaml"],
        /error\[bad-openapi\]: Could not use --openapi "broken\.yaml": it is not YAML or JSON/,
      ],
      [["--openapi", "missing.yaml"], /Could not read --openapi "missing\.yaml"/],
      [["--openapi", "flows"], /error\[not-a-regular-file\]: Could not read --openapi "flows"/],
      [
        ["--coverage-min", "80%"],
        /error\[bad-coverage-min\]: --coverage-min "80%" is not a percent from 0 to 100\./,
      ],
      [["--coverage-min", "101"], /error\[bad-coverage-min\]/],
    ];
    for (const [extra, message] of cases) {
      const run = await runCli(["run", "flows", ...extra], { cwd: dir, env });
      assert.equal(run.code, 2, `${extra.join(" ")}: ${run.stdout}${run.stderr}`);
      assert.match(run.stderr, message);
      assert.ok(!run.stderr.includes("    at "), "no stack trace");
    }
    assert.deepEqual(api.seen, []);
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("merge adds up the shards' coverage and gates it", async () => {
  const api = serve();
  const dir = await workspace({
    "api.json": JSON.stringify(DOCUMENT),
    "flows/a.yaml": flow("a", [step("list", "GET", "/v1/items"), step("x", "GET", "/v1/x")]),
    "flows/b.yaml": flow("b", [step("create", "POST", "/v1/items"), step("x", "GET", "/v1/x")]),
  });
  const env = { BASE: api.base };
  try {
    for (const shard of ["1/2", "2/2"]) {
      const run = await runCli([
        "run",
        "flows",
        "--shard",
        shard,
        "--openapi",
        "api.json",
        "--coverage-min",
        "30",
        "--report-json",
        `shard-${shard[0]}.json`,
      ], { cwd: dir, env });
      assert.equal(run.code, 1, "each shard alone is below 30 %: " + run.stdout + run.stderr);
    }
    const merged = await runCli(
      ["merge", "shard-1.json", "shard-2.json", "--report-json", "all.json"],
      { cwd: dir },
    );
    assert.equal(merged.code, 0, merged.stdout + merged.stderr);
    assert.match(merged.stdout, /OpenAPI coverage of api\.json: 2 of 6 operations \(33\.3 %\)/);
    const [coverage] = JSON.parse(await Deno.readTextFile(`${dir}/all.json`)).openapi_coverage;
    assert.deepEqual(coverage.operations, { total: 6, exercised: 2, percent: 33.3 });
    assert.deepEqual(coverage.unmatched, [{ method: "GET", path: "/v1/x", count: 2 }]);
    assert.equal(coverage.min, 30);
    // Gated where the whole is known: shards with --coverage and no minimum, merge with one.
    for (const shard of ["1/2", "2/2"]) {
      const run = await runCli(
        ["run", "flows", "--shard", shard, "--coverage", "--openapi", "api.json"].concat(
          ["--report-json", `open-${shard[0]}.json`],
        ),
        { cwd: dir, env },
      );
      assert.equal(run.code, 0, "no minimum, no gate: " + run.stdout + run.stderr);
    }
    const gate = (min: string, ...reports: string[]) =>
      runCli(["merge", ...reports, "--coverage-min", min, "--report-json", "gated.json"], {
        cwd: dir,
      });
    const above = await gate("30", "open-1.json", "open-2.json");
    assert.equal(above.code, 0, above.stdout + above.stderr);
    assert.equal(
      JSON.parse(await Deno.readTextFile(`${dir}/gated.json`)).openapi_coverage[0].min,
      30,
    );
    // merge's minimum replaces the shards' own (30 there, 50 here).
    const below = await gate("50", "shard-1.json", "shard-2.json");
    assert.equal(below.code, 1, below.stdout + below.stderr);
    assert.match(below.stdout, /33\.3 %/);
    assert.equal(
      JSON.parse(await Deno.readTextFile(`${dir}/gated.json`)).openapi_coverage[0].min,
      50,
    );
    const wrong = await gate("50%", "open-1.json");
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /error\[bad-coverage-min\]: --coverage-min "50%" is not a percent/);
    // A crafted coverage is a clear bad-report, not a crash.
    const shard = JSON.parse(await Deno.readTextFile(`${dir}/shard-1.json`));
    shard.openapi_coverage[0].items = "all of them";
    await Deno.writeTextFile(`${dir}/bad.json`, JSON.stringify(shard));
    const bad = await runCli(["merge", "bad.json"], { cwd: dir });
    assert.equal(bad.code, 2, bad.stdout + bad.stderr);
    assert.match(
      bad.stderr,
      /error\[bad-report\]: "bad\.json" is not a flowrun JSON report: openapi_coverage\[0\]\.items must be an array/,
    );
    // A minimum for reports without coverage is one clear sentence.
    delete shard.openapi_coverage;
    await Deno.writeTextFile(`${dir}/plain.json`, JSON.stringify(shard));
    const none = await gate("80", "plain.json");
    assert.equal(none.code, 2, none.stdout + none.stderr);
    assert.match(
      none.stderr,
      /error\[no-coverage\]: --coverage-min 80: none of the reports has OpenAPI coverage\./,
    );
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});
