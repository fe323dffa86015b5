/**
 * The CLI as a user meets it: run as a subprocess, its exit code, output and
 * report files asserted. Golden console output lives in cases_test.ts.
 */
import assert from "node:assert/strict";
import { XMLParser } from "fast-xml-parser";
import { startDemoApi } from "../../examples/demo_api.ts";
import { root, runCli } from "../support/cli.ts";
import { ignoreXsd, validateJUnitFile } from "../support/xmllint.ts";

const config = JSON.parse(await Deno.readTextFile(`${root}deno.json`));

async function tempDir(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "flowrun-cli-" });
}

Deno.test("--help lists commands, options and exit codes", async () => {
  const run = await runCli(["--help"]);
  assert.equal(run.code, 0);
  for (
    const text of [
      "flowrun run <path>...",
      "--report-junit FILE",
      "--report-json FILE",
      "--var NAME=VALUE",
      "--run-id ID",
      "--timeout DURATION",
      "--verbose",
      "--no-color",
    ]
  ) {
    assert.ok(run.stdout.includes(text), `help mentions ${text}`);
  }
  assert.match(run.stdout, /0 +every flow passed/);
  assert.match(run.stdout, /1 +at least one flow failed/);
  assert.match(run.stdout, /2 +usage or flow-file error; no request was sent/);
  assert.match(run.stdout, /3 +internal error/);
  assert.match((await runCli(["run", "--help"])).stdout, /^Usage: flowrun run <path>/);
});

Deno.test("--version prints the version from deno.json, the Deno version and the target", async () => {
  const run = await runCli(["--version"]);
  assert.equal(run.code, 0);
  assert.equal(
    run.stdout,
    `flowrun ${config.version} (deno ${Deno.version.deno}, ${Deno.build.target})\n`,
  );
});

Deno.test("usage errors exit 2 with a hint and no stack trace", async () => {
  const cases: [string[], string, string][] = [
    [
      ["rnu", "x"],
      'error[bad-command]: Unknown command "rnu".',
      'hint: Did you mean "flowrun run"?',
    ],
    [
      ["run", "examples", "--verbsoe"],
      'error[bad-option]: Unknown option "--verbsoe".',
      'hint: Did you mean "--verbose"?',
    ],
    [["run"], "error[no-paths]: No flow files given.", "hint: Usage: flowrun run <path>..."],
    [
      ["run", "nope/"],
      'error[no-such-path]: No file or directory "nope/".',
      "hint: Check the path",
    ],
    [
      ["run", "examples", "--var", "novalue"],
      'error[bad-var]: Expected --var NAME=VALUE, got "novalue".',
      "hint: For example",
    ],
    [
      ["run", "examples", "--timeout", "soon"],
      'error[bad-timeout]: Expected --timeout to be a positive duration, got "soon".',
      "",
    ],
  ];
  for (const [args, message, hint] of cases) {
    const run = await runCli(args);
    assert.equal(run.code, 2, args.join(" "));
    assert.ok(run.stderr.startsWith(message), `${args.join(" ")}: ${run.stderr}`);
    assert.ok(run.stderr.includes(hint), run.stderr);
    assert.doesNotMatch(run.stderr, /\n\s+at /, "no stack trace");
  }
});

Deno.test("problems in a flow set are all reported together, and nothing is sent", async () => {
  const dir = await tempDir();
  let requests = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    requests++;
    return new Response("ok");
  });
  const url = `http://127.0.0.1:${server.addr.port}`;
  try {
    await Deno.writeTextFile(
      `${dir}/a_good.yaml`,
      `name: good\nsteps:\n  - name: s\n    request: {url: "${url}"}\n`,
    );
    await Deno.writeTextFile(
      `${dir}/b_bad.yaml`,
      `name: bad\nsteps:\n  - name: s\n    request: {url: "${url}"}\n    captures: {}\n`,
    );
    await Deno.writeTextFile(
      `${dir}/c_bad.yml`,
      `name: worse\nsteps:\n  - name: s\n    request: {url: "\${ENV.FLOWRUN_TEST_UNSET}"}\n`,
    );
    const run = await runCli(["run", dir, "--report-json", `${dir}/out/report.json`]);
    assert.equal(run.code, 2);
    assert.equal(run.stdout, "");
    assert.equal(requests, 0, "no request may be sent when a flow file has problems");
    assert.match(
      run.stderr,
      /b_bad\.yaml:5:5 error\[unknown-key\]: Unknown key "captures" in step "s"\./,
    );
    assert.match(
      run.stderr,
      /5 \| {5}captures: \{\}\n {2}\| {5}\^{8}\n {2}hint: Did you mean "capture"\?/,
    );
    assert.match(
      run.stderr,
      /c_bad\.yml:4:21 error\[unset-env\]: Environment variable "FLOWRUN_TEST_UNSET" is not set/,
    );
    assert.match(run.stderr, /2 problems in 2 files; nothing was sent\.\n$/);
    // The report says what happened, so CI never reads an earlier run's green one.
    const report = JSON.parse(await Deno.readTextFile(`${dir}/out/report.json`));
    assert.equal(report.status, "failed");
    assert.deepEqual(
      report.problems.map((p: { file: string; line: number; code: string }) =>
        `${p.file.replace(/.*\//, "")}:${p.line} ${p.code}`
      ),
      ["b_bad.yaml:5 unknown-key", "c_bad.yml:4 unset-env"],
    );
    assert.equal(report.totals.steps.passed, 0);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("reports are written, parse back and agree with the console, also when flows fail", async () => {
  const dir = await tempDir();
  const api = await startDemoApi();
  try {
    const junit = `${dir}/reports/junit.xml`;
    const json = `${dir}/reports/report.json`;
    const run = await runCli(
      [
        "run",
        "tests/cases/ok/polling.yaml",
        "tests/cases/failed/assertions.yaml",
        "--report-junit",
        junit,
        "--report-json",
        json,
        "--run-id",
        "cli-1",
      ],
      { env: { BASE_URL: api.url } },
    );
    assert.equal(run.code, 1);
    assert.match(
      run.stdout,
      /2 flows: 1 passed, 1 failed · 5 steps: 3 passed, 1 failed, 1 skipped · /,
    );

    const report = JSON.parse(await Deno.readTextFile(json));
    assert.equal(report.schema_version, 1);
    assert.equal(report.run_id, "cli-1");
    assert.equal(report.runner_version, config.version);
    assert.equal(report.status, "failed");
    assert.deepEqual(report.totals.flows, { total: 2, passed: 1, failed: 1, error: 0, skipped: 0 });
    assert.deepEqual(report.flows.map((f: { file: string }) => f.file), [
      "tests/cases/failed/assertions.yaml",
      "tests/cases/ok/polling.yaml",
    ]);
    const [failed, passed] = report.flows;
    assert.equal(failed.name, "Failing assertions");
    assert.deepEqual(failed.steps.map((s: { status: string }) => s.status), ["failed", "skipped"]);
    const step = failed.steps[0];
    assert.deepEqual(step.request, {
      method: "GET",
      url: `${api.url}/me`,
      headers: {},
      curl: `curl '${api.url}/me'`,
    });
    assert.equal(step.response.status, 401);
    assert.deepEqual(
      step.assertions.map((
        a: { path: string; operator: string; passed: boolean; line: number },
      ) => [a.path, a.operator, a.passed, a.line]),
      [["status", "equals", false, 8], ["$.json.error", "exists", true, 10], [
        "$.json.username",
        "equals",
        false,
        11,
      ], ["$.headers.www-authenticate", "equals", true, 12]],
    );
    assert.equal(step.assertions[2].message, "$.json.username: nothing matched");
    assert.equal(passed.steps[2].attempts, 3);

    if (!ignoreXsd) await validateJUnitFile(junit);
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(
      await Deno.readTextFile(junit),
    );
    const suites = [xml.testsuites.testsuite].flat();
    assert.deepEqual(suites.map((s: { name: string }) => s.name), [
      "Failing assertions",
      "Polling until ready",
    ]);
    assert.equal(suites[0].tests, "2");
    assert.equal(suites[0].failures, "1");
    assert.equal(suites[0].skipped, "1");
    const cases = [suites[0].testcase].flat();
    // Jenkins splits a class name at its last dot: the extension is left out.
    assert.equal(cases[0].classname, "tests/cases/failed/assertions");
    assert.equal(cases[0].name, "me_without_token");
    assert.match(cases[0].failure.message, /status: expected 200, got 401/);
    assert.ok("skipped" in cases[1]);
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--var sets run parameters that flows read as ${NAME} and ${vars.NAME}", async () => {
  const dir = await tempDir();
  const api = await startDemoApi();
  try {
    await Deno.writeTextFile(
      `${dir}/params.yaml`,
      `name: params\nvars:\n  who: flow\nsteps:\n  - name: echo\n    request: {url: "\${base}/echo/\${vars.who}/\${who}"}\n    assert: {json: [{path: $.json.path, equals: /echo/cli/cli}]}\n`,
    );
    const run = await runCli([
      "run",
      `${dir}/params.yaml`,
      "--var",
      `base=${api.url}`,
      "--var",
      "who=cli",
    ]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--verbose lists every assertion and the captured names of passing steps", async () => {
  const api = await startDemoApi();
  try {
    const run = await runCli(["run", "tests/cases/ok/spelling_b.yaml", "--verbose"], {
      env: { BASE_URL: api.url },
    });
    assert.equal(run.code, 0);
    // -v: each exchange (headers both ways, the body sent), every check, the captured names.
    assert.match(
      run.stdout,
      /✔ login +\d+ ms\n {8}POST http:\/\/127\.0\.0\.1:\d+\/login → 200\n {8}> content-type: application\/json\n {8}request body:\n {10}\{"username":"demo","password":"\*\*\*"\}\n(?: {8}< [^\n]+\n)+ {8}✔ status 200\n {8}captured: token\n/,
    );
    assert.match(run.stdout, /✔ \$\.kind: anyOf \["export","report"\] holds\n/);
    const quiet = await runCli(["run", "tests/cases/ok/spelling_b.yaml"], {
      env: { BASE_URL: api.url },
    });
    assert.doesNotMatch(quiet.stdout, /holds|captured:/);
  } finally {
    await api.close();
  }
});

Deno.test("deno task demo runs the example flows against the bundled demo API", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["task", "demo"],
    cwd: root,
    env: { NO_COLOR: "1" },
    stdin: "null",
  }).output();
  const stdout = new TextDecoder().decode(output.stdout);
  assert.equal(output.code, 0, stdout + new TextDecoder().decode(output.stderr));
  assert.match(stdout, /^demo API listening on http:\/\/127\.0\.0\.1:\d+/);
  assert.match(stdout, /\d+ flows: \d+ passed · /);
  assert.doesNotMatch(stdout, /failed/);
});
