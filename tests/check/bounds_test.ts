/**
 * Schema and XPath checks are bounded in depth and time (issue 37, items 6,
 * 7, 9, 10 and 19): a body nested deeper than the documented limit, a body
 * so wide that XPath takes seconds, a schema pattern that backtracks for
 * ever, a recursive schema over a deep body: each fails its own step with a
 * message, the other flows of the run keep their results, both reports are
 * written, and the run exits 1 (a failed check), never 3. A schema that
 * refers to itself without descending into the value is a load problem.
 *
 * Every CLI run here is killed after a bound, so a regression fails the test
 * instead of hanging it.
 */
import assert from "node:assert/strict";
import { root, runBounded, spawnCli } from "../support/cli.ts";
import { loadFlows } from "../../lib/load/suite.ts";
import { HANG_MS, TIMING } from "../support/timing.ts";

const TREE_SCHEMA = {
  $defs: {
    node: { type: "object", properties: { child: { $ref: "#/$defs/node" } } },
  },
  $ref: "#/$defs/node",
};

const OPENAPI = `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /tree:
    get:
      responses:
        "200":
          description: a tree
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Node"}
components:
  schemas:
    Node:
      type: object
      properties:
        child: {$ref: "#/components/schemas/Node"}
`;

function nested(depth: number): string {
  return `${'{"child":'.repeat(depth)}{}${"}".repeat(depth)}`;
}

const EVIL = `${"a".repeat(40)}!`;

/** The hostile bodies, by path. */
function bodies(): Map<string, { body: string; type: string }> {
  return new Map([
    ["/deep.xml", { body: `${"<a>".repeat(100_000)}${"</a>".repeat(100_000)}`, type: "text/xml" }],
    ["/deeper.xml", { body: `${"<a>".repeat(1_500)}${"</a>".repeat(1_500)}`, type: "text/xml" }],
    [
      "/deep.html",
      {
        body: `<html><body>${"<div>".repeat(10_000)}${"</div>".repeat(10_000)}`,
        type: "text/html",
      },
    ],
    ["/flat.xml", { body: `<r>${"<i>x</i>".repeat(300_000)}</r>`, type: "text/xml" }],
    ["/wide.html", {
      body: `<html><body><ul>${"<li>x</li>".repeat(300_000)}</ul></body></html>`,
      type: "text/html",
    }],
    ["/tree", { body: nested(10_000), type: "application/json" }],
    ["/evil", { body: JSON.stringify({ s: EVIL, [EVIL]: "x" }), type: "application/json" }],
    ["/ok.xml", { body: "<r><i>one</i></r>", type: "text/xml" }],
    ["/ok", { body: nested(3), type: "application/json" }],
  ]);
}

function serve(): {
  url: string;
  close: () => Promise<void>;
  requests: { seen: Promise<void>; count: number };
} {
  const all = bodies();
  const first = Promise.withResolvers<void>();
  const requests = { seen: first.promise, count: 0 };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    requests.count++;
    first.resolve();
    const found = all.get(new URL(request.url).pathname);
    return found
      ? new Response(found.body, { headers: { "content-type": found.type } })
      : new Response("no", { status: 404 });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown(), requests };
}

function flow(name: string, url: string, check: string): string {
  return `name: ${name}\nsteps:\n  - name: get\n    request: {url: "${url}"}\n    assert:\n      json:\n        - ${check}\n`;
}

/** A flow whose one step checks the body against a schema: `schema: …` or `openapi: …`. */
function schemaFlow(name: string, url: string, check: string): string {
  return `name: ${name}\nsteps:\n  - name: get\n    request: {url: "${url}"}\n    assert:\n      ${check}\n`;
}

interface Report {
  flows: {
    name: string;
    status: string;
    steps: { assertions: { passed: boolean; message: string }[] }[];
  }[];
}

/** Asserts each named flow's first failure message matches `pattern`. */
function assertFirstFailure(failed: Map<string, string[]>, names: string[], pattern: RegExp): void {
  for (const name of names) {
    assert.match(failed.get(name)![0], pattern, `${name}: ${failed.get(name)}`);
  }
}

/** Runs a directory of flows with both reports, and checks what every run must hold. */
async function runWithReports(dir: string, limitMs: number): Promise<Map<string, string[]>> {
  const run = await runBounded([
    "run",
    `${dir}/flows`,
    "--report-json",
    `${dir}/r.json`,
    "--report-junit",
    `${dir}/r.xml`,
  ], { ms: limitMs });
  assert.equal(run.code, 1, `exit 1 (a failed check), not 3:\n${run.stdout}\n${run.stderr}`);
  assert.doesNotMatch(run.stdout + run.stderr, /\n\s+at .*\.(ts|js):\d+:\d+/, "no stack trace");
  const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`)) as Report;
  const junit = await Deno.readTextFile(`${dir}/r.xml`);
  assert.match(junit, /^<\?xml[^]*<\/testsuites>\s*$/);
  const failed = new Map<string, string[]>();
  for (const f of report.flows) {
    assert.ok(junit.includes(`name="${f.name}`), `${f.name} is in the JUnit report`);
    if (f.status === "passed") continue;
    failed.set(
      f.name,
      f.steps.flatMap((s) => s.assertions.filter((a) => !a.passed).map((a) => a.message)),
    );
  }
  assert.ok(report.flows.some((f) => f.name === "fine" && f.status === "passed"), "fine passed");
  return failed;
}

Deno.test("XPath over a deep or a huge XML or HTML body fails its step; the run and its reports go on", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-bounds-" });
  const api = serve();
  try {
    await Deno.mkdir(`${dir}/flows`);
    const flows: [string, string, string][] = [
      ["deep-xml", "/deep.xml", '{xpath: "//a", exists: true}'],
      ["deeper-xml", "/deeper.xml", '{xpath: "//a", exists: true}'],
      ["deep-html", "/deep.html", '{xpath: "count(//div)", equals: 10000}'],
      ["flat-xml", "/flat.xml", '{xpath: "//i", exists: true}'],
      ["wide-html", "/wide.html", '{xpath: "//li[last()]", equals: "x"}'],
      ["fine", "/ok.xml", '{xpath: "//i", equals: one}'],
    ];
    for (const [name, path, check] of flows) {
      await Deno.writeTextFile(`${dir}/flows/${name}.yaml`, flow(name, api.url + path, check));
    }
    const failed = await runWithReports(dir, 60_000);
    assert.deepEqual([...failed.keys()].sort(), [
      "deep-html",
      "deep-xml",
      "deeper-xml",
      "flat-xml",
      "wide-html",
    ]);
    // 1,500 levels (14 KB) reach the depth limit on any machine; 100,000 (700 KB) reach it or,
    // on a busy one, the 1 s that reading them may take: both limits are the product's.
    assertFirstFailure(failed, ["deeper-xml"], /nested deeper than 1,000 levels/);
    assertFirstFailure(
      failed,
      ["deep-xml", "deep-html"],
      /nested deeper than 1,000 levels|did not finish within 1 s/,
    );
    assertFirstFailure(failed, ["flat-xml", "wide-html"], /did not finish within 1 s/);
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

// The two tests marked TIMING pass a schema through flowrun's own wall-clock limits (2 s to
// compile, 3 s of helper-thread waits between two turns of the event loop): at a load of 30 on
// two cores, a schema of two lines missed the first and the pattern check met the second.
Deno.test(`a schema check over a deep body or with a backtracking pattern fails its step; the run goes on ${TIMING}`, async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-bounds-" });
  const api = serve();
  try {
    await Deno.mkdir(`${dir}/flows`);
    await Deno.mkdir(`${dir}/schemas`);
    await Deno.writeTextFile(`${dir}/schemas/tree.json`, JSON.stringify(TREE_SCHEMA));
    await Deno.writeTextFile(`${dir}/schemas/api.yaml`, OPENAPI);
    const evil = (schema: unknown) => `schema: ${JSON.stringify(schema)}`;
    const flows: [string, string, string][] = [
      ["tree-file", "/tree", "schema: ../schemas/tree.json"],
      ["tree-openapi", "/tree", "openapi: ../schemas/api.yaml"],
      ["pattern", "/evil", evil({ properties: { s: { pattern: "^(a+)+$" } } })],
      ["pattern-properties", "/evil", evil({ patternProperties: { "^(a+)+$": true } })],
      ["property-names", "/evil", evil({ propertyNames: { pattern: "^(a+)+$|^s$" } })],
      ["fine", "/ok", "schema: ../schemas/tree.json"],
    ];
    for (const [name, path, check] of flows) {
      await Deno.writeTextFile(
        `${dir}/flows/${name}.yaml`,
        schemaFlow(name, api.url + path, check),
      );
    }
    const failed = await runWithReports(dir, 60_000);
    assert.deepEqual([...failed.keys()].sort(), [
      "pattern",
      "pattern-properties",
      "property-names",
      "tree-file",
      "tree-openapi",
    ]);
    assertFirstFailure(failed, ["tree-file", "tree-openapi"], /nested deeper than 1,000 levels/);
    assertFirstFailure(
      failed,
      ["pattern", "pattern-properties", "property-names"],
      /did not finish within 1 s/,
    );
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test(`a schema that refers to itself without descending is a load problem at its key ${TIMING}`, async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-bounds-" });
  try {
    const cyclic: [string, unknown][] = [
      ["self", { $ref: "#" }],
      ["all-of", {
        $defs: { a: { allOf: [{ $ref: "#/$defs/b" }] }, b: { anyOf: [{ $ref: "#/$defs/a" }] } },
        properties: { x: { $ref: "#/$defs/a" } },
      }],
      ["by-id", { $id: "https://x.test/s", not: { $ref: "https://x.test/s" } }],
      ["anchor", { $defs: { a: { $anchor: "here", if: { $ref: "#here" } } } }],
    ];
    for (const [name, schema] of cyclic) {
      await Deno.writeTextFile(`${dir}/${name}.json`, JSON.stringify(schema));
      await Deno.writeTextFile(
        `${dir}/${name}.yaml`,
        schemaFlow(name, "http://127.0.0.1:9/", `schema: ${name}.json`),
      );
    }
    await Deno.writeTextFile(
      `${dir}/api.json`,
      JSON.stringify({
        openapi: "3.1.0",
        paths: {},
        components: { schemas: { A: { oneOf: [{ $ref: "#/components/schemas/A" }] } } },
      }),
    );
    await Deno.writeTextFile(
      `${dir}/api.yaml`,
      schemaFlow("api", "http://127.0.0.1:9/", "openapi: api.json"),
    );
    await Deno.writeTextFile(`${dir}/tree.json`, JSON.stringify(TREE_SCHEMA));
    await Deno.writeTextFile(
      `${dir}/tree.yaml`,
      schemaFlow("tree", "http://127.0.0.1:9/", "schema: tree.json"),
    );
    const run = await runBounded(["validate", dir], { ms: 30_000 });
    assert.equal(run.code, 2, run.stdout + run.stderr);
    const output = run.stdout + run.stderr;
    for (const name of ["self", "all-of", "by-id", "anchor", "api"]) {
      assert.match(
        output,
        new RegExp(`${name}\\.yaml:6:7 error\\[bad-schema\\]: [^\\n]*refers to itself`),
        name,
      );
    }
    assert.doesNotMatch(output, /tree\.yaml/, "a recursive schema that descends is fine");
    const loaded = await loadFlows([`${dir}/tree.yaml`]);
    assert.deepEqual(loaded.problems, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the documented limits are in the Limits table", async () => {
  const limits = (await Deno.readTextFile(`${root}docs/flow-format.md`)).split("## Limits")[1];
  assert.match(limits, /XML or HTML body[^\n]*1,000 levels/);
  assert.match(limits, /JSON body[^\n]*schema[^\n]*1,000 levels/);
  assert.match(limits, /XPath or schema check[^\n]*1 s/);
});

Deno.test("SIGINT during a slow XPath or schema check ends the run at the flow it was in, reports written", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-bounds-" });
  const api = serve();
  try {
    await Deno.mkdir(`${dir}/flows`);
    for (let i = 0; i < 6; i++) {
      await Deno.writeTextFile(
        `${dir}/flows/x${i}.yaml`,
        i % 2 === 0
          ? flow(`x${i}`, `${api.url}/flat.xml`, '{xpath: "//i", exists: true}')
          : schemaFlow(
            `x${i}`,
            `${api.url}/evil`,
            'schema: {patternProperties: {"^(a+)+$": true}}',
          ),
      );
    }
    const child = spawnCli([
      "run",
      `${dir}/flows`,
      "--jobs",
      "1",
      "--report-json",
      `${dir}/r.json`,
    ]);
    const killer = setTimeout(() => child.kill("SIGKILL"), HANG_MS);
    // A handshake, not a delay a loaded machine outruns: once the first flow's body was asked
    // for, a guarded check (1 s at most) holds the main thread when the signal comes.
    await Promise.race([api.requests.seen, child.status]);
    child.kill("SIGINT");
    const out = await child.output();
    clearTimeout(killer);
    assert.equal(out.code, 130, new TextDecoder().decode(out.stderr));
    // Ignored until the end, all six flows would have asked for their bodies and been checked.
    assert.ok(api.requests.count <= 2, `${api.requests.count} flows ran after SIGINT`);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const notRun = report.flows.filter((flow: unknown) =>
      /the run was interrupted/.test(JSON.stringify(flow))
    );
    assert.ok(notRun.length >= 4, JSON.stringify(report).slice(0, 2000));
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});
