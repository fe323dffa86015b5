/**
 * Check groups: a shared list of checks applied at a base path (`at`), to
 * every element of a wildcard, under a condition on the response or on a
 * value (`if`, with `else`), named; the branch not taken is one skipped
 * result that names the condition. Misuses are positioned problems.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { runFlow } from "../../lib/run/flows.ts";
import type { AssertionResult } from "../../lib/model/result.ts";
import { runCli } from "../support/cli.ts";
import "../support/engines.ts";

const BODIES: Record<string, unknown> = {
  "/list": {
    articles: [
      { title: "a", createdAt: "2024-01-01T00:00:00Z", author: { username: "x" } },
      { title: "b", createdAt: "yesterday", author: { username: "y" } },
    ],
    articlesCount: 2,
  },
  "/one": { article: { title: "c", createdAt: "2024-02-01T00:00:00Z", author: { username: 5 } } },
  "/empty": { articles: [], articlesCount: 0 },
};

function serve() {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) => Response.json(BODIES[new URL(req.url).pathname] ?? {}),
  );
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

const ARTICLE = `x-article: &article
  - {path: $.title, type: string, name: title}
  - {path: $.createdAt, matches: '^\\d{4}-\\d\\d-\\d\\dT', name: iso date}
  - {path: $.author.username, type: string}
`;

async function run(steps: string) {
  const { flow, problems } = loadFlow(`name: g\n${ARTICLE}steps:\n${steps}`, "g.yaml");
  assert.deepEqual(problems, []);
  const result = await runFlow(flow!, { runId: "r" });
  const lines = (a: AssertionResult[]) =>
    a.map((x) => `${x.skipped ? "○" : x.passed ? "✔" : "✘"} ${x.message}`);
  return { result, lines: result.steps.map((s) => lines(s.assertions)) };
}

Deno.test("one group of checks at several base paths, and over every element", async () => {
  const api = serve();
  try {
    const { result, lines } = await run(
      `  - name: list
    request: {url: "${api.url}/list"}
    assert:
      json:
        - {name: first, at: "$.json.articles[0]", checks: *article}
        - {name: every, at: "$.json.articles[*]", checks: *article}
  - name: one
    always: true
    request: {url: "${api.url}/one"}
    assert:
      jsonpath:
        - {at: $.article, checks: *article}
        - {at: $.missing, checks: [{path: $.x, exists: true}]}
`,
    );
    assert.deepEqual(lines[0], [
      '✔ first › title: $.json.articles[0] › $.title: type "string" holds',
      '✔ first › iso date: $.json.articles[0] › $.createdAt: matches "^\\\\d{4}-\\\\d\\\\d-\\\\d\\\\dT" holds',
      '✔ first: $.json.articles[0] › $.author.username: type "string" holds',
      '✔ every › title: $.json.articles[*] › $.title: type "string" holds for each of 2',
      '✘ every › iso date: $.json.articles[*] value 2 of 2 › $.createdAt: "yesterday" does not match /^\\d{4}-\\d\\d-\\d\\dT/',
      '✔ every: $.json.articles[*] › $.author.username: type "string" holds for each of 2',
    ]);
    assert.deepEqual(lines[1], [
      '✔ title: $.article › $.title: type "string" holds',
      '✔ iso date: $.article › $.createdAt: matches "^\\\\d{4}-\\\\d\\\\d-\\\\d\\\\dT" holds',
      "✘ $.article › $.author.username: expected type string, got number 5",
      "✘ $.missing › $.x: $.missing matched nothing",
    ]);
    const failing = result.steps[0].assertions[4];
    assert.equal(failing.path, "$.json.articles[*] › $.createdAt");
    assert.equal(failing.actual, "yesterday");
    assert.equal(failing.name, "every › iso date");
    // The check is written once, in the anchor: that is where it points.
    assert.deepEqual([failing.line, failing.column], [4, 25]);
  } finally {
    await api.close();
  }
});

Deno.test("a conditional group: checks when it holds, else checks when not, one skipped result", async () => {
  const api = serve();
  try {
    const group = `        - name: listing
          if: {path: $.json.articles, notEquals: []}
          checks:
            - {at: "$.json.articles[*]", checks: [{path: $.title, type: string}]}
            - {path: $.json.articlesCount, gt: 0}
          else:
            - {path: $.json.articlesCount, equals: 0}
`;
    const { result, lines } = await run(
      `  - name: full
    request: {url: "${api.url}/list"}
    capture: {n: $.json.articlesCount}
    assert:
      json:
${group}  - name: empty
    request: {url: "${api.url}/empty"}
    assert:
      json:
${group}        - if: {value: "\${steps.full.n}", gt: 5}
          checks: [{path: $.json.never, exists: true}]
`,
    );
    assert.equal(result.status, "passed");
    assert.deepEqual(lines[0], [
      '✔ listing: $.json.articles[*] › $.title: type "string" holds for each of 2',
      "✔ listing: $.json.articlesCount: gt 0 holds",
      '○ listing: skipped 1 "else" check: its condition $.json.articles notEquals [] holds',
    ]);
    assert.deepEqual(lines[1], [
      "○ listing: skipped 2 checks: its condition $.json.articles notEquals [] does not hold (expected anything but [], got it)",
      "✔ listing: $.json.articlesCount: equals 0 holds",
      "○ skipped 1 check: its condition ${steps.full.n} gt 5 does not hold (expected a number > 5, got 2)",
    ]);
    const skipped = result.steps[1].assertions[0];
    assert.equal(skipped.passed, true);
    assert.equal(skipped.skipped, true);
    assert.deepEqual(skipped.actual, []);
    assert.equal(skipped.path, "$.json.articles");
  } finally {
    await api.close();
  }
});

Deno.test("group names reach the console, JUnit and JSON reports", async () => {
  const api = serve();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-groups-" });
  try {
    await Deno.writeTextFile(
      `${dir}/g.yaml`,
      `name: g\n${ARTICLE}steps:\n  - name: list\n    request: {url: "${api.url}/list"}\n    assert:\n      json:\n        - {name: every article, at: "$.json.articles[*]", checks: *article}\n`,
    );
    const run = await runCli([
      "run",
      `${dir}/g.yaml`,
      "--report-junit",
      `${dir}/j.xml`,
      "--report-json",
      `${dir}/r.json`,
    ]);
    assert.equal(run.code, 1);
    const message = "every article › iso date: $.json.articles[*] value 2 of 2 › $.createdAt: " +
      '"yesterday" does not match /^\\d{4}-\\d\\d-\\d\\dT/';
    assert.ok(run.stdout.includes(`✘ ${message}`), run.stdout);
    const junit = await Deno.readTextFile(`${dir}/j.xml`);
    assert.ok(junit.includes(message.replaceAll('"', "&quot;")), junit);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const names = report.flows[0].steps[0].assertions.map((a: { name?: string }) => a.name);
    assert.deepEqual(names, ["every article › title", "every article › iso date", "every article"]);
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("misused groups are positioned problems with the fix", () => {
  const step = (json: string) =>
    `name: g\nsteps:\n  - name: s\n    request: {url: http://x.test}\n    assert:\n      json:\n${json}`;
  const cases: [string, string][] = [
    [
      "        - checks: [{path: $.json.n, gt: 0}]\n          else: [{path: $.json.n, equals: 0}]\n",
      '8:11 missing-key: The "else" checks of a check group in "assert" of step "s" need an "if" to depend on.',
    ],
    [
      "        - at: $.json.a\n          checks: {path: $.t, exists: true}\n",
      '8:19 wrong-type: Expected "checks" of a check group in "assert" of step "s" to be a list of checks, got a map.',
    ],
    [
      "        - at: $.json.a\n          then: [{path: $.t, exists: true}]\n",
      '8:11 unknown-key: Unknown key "then" in a check group in "assert" of step "s".',
    ],
    [
      "        - at: $.json.a\n          checks: [{path: $.t, exists: true}]\n          then: []\n",
      '9:11 unknown-key: Unknown key "then" in a check group in "assert" of step "s".',
    ],
    [
      "        - if: {path: $.json.a}\n          checks: [{path: $.json.t, exists: true}]\n",
      '7:15 missing-key: The condition on "$.json.a" has no operator.',
    ],
  ];
  for (const [json, expected] of cases) {
    const { problems } = loadFlow(step(json), "g.yaml");
    assert.deepEqual(
      problems.map((p) => `${p.line}:${p.column} ${p.code}: ${p.message}`),
      [expected],
      json,
    );
  }
  const [then] = loadFlow(step(cases[3][0]), "g.yaml").problems;
  assert.match(then.hint ?? "", /The checks of a group go under "checks"/);
});
