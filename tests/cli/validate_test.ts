/** `flowrun validate`: every check run does, nothing sent, exit 0 or 2, text or JSON. */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

async function brokenSet(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-validate-" });
  await Deno.writeTextFile(
    `${dir}/a.yaml`,
    `name: a\nsteps:\n  - name: s\n    request: {url: "\${ENV.FLOWRUN_TEST_HOST}/x"}\n    captures: {id: $.json.id}\n  - name: t\n    request: {url: "\${ENV.FLOWRUN_TEST_HOST}/\${steps.s.capture.id}"}\n`,
  );
  await Deno.writeTextFile(
    `${dir}/b.yml`,
    `name: b\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n    assert: {status: 2000}\n`,
  );
  await Deno.writeTextFile(
    `${dir}/c.yaml`,
    `name: c\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n`,
  );
  return dir;
}

Deno.test("validate reports every problem of a flow set at once, grouped by file, and exits 2", async () => {
  const dir = await brokenSet();
  try {
    const run = await runCli(["validate", dir]);
    assert.equal(run.code, 2);
    const heads = run.stdout.split("\n").filter((l) => l.includes(" error[")).map((l) =>
      l.replace(dir + "/", "")
    );
    assert.deepEqual(heads, [
      'a.yaml:4:21 error[unset-env]: Environment variable "FLOWRUN_TEST_HOST" is not set (used in "${ENV.FLOWRUN_TEST_HOST}"); also used on line 7.',
      'a.yaml:5:5 error[unknown-key]: Unknown key "captures" in step "s".',
      'a.yaml:7:46 error[unknown-capture]: Step "s" captures no value "id" (in "${steps.s.capture.id}").',
      'b.yml:5:22 error[wrong-type]: Expected "status" to be a status code from 100 to 599 or {anyOf: [...]}, got the number 2000.',
    ]);
    assert.match(run.stdout, /4 problems in 2 files; 3 files checked\.\n$/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("validate --format json gives file, line, column, code and message for editors and CI", async () => {
  const dir = await brokenSet();
  try {
    const run = await runCli(["validate", dir, "--format", "json", "--no-env"]);
    assert.equal(run.code, 2);
    const problems = JSON.parse(run.stdout);
    assert.deepEqual(problems.map((p: { code: string }) => p.code), [
      "unknown-key",
      "unknown-capture",
      "wrong-type",
    ], "--no-env skips unset variables");
    assert.deepEqual(Object.keys(problems[0]), [
      "file",
      "line",
      "column",
      "code",
      "message",
      "hint",
    ]);
    assert.equal(problems[0].line, 5);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("validate exits 0 for a clean set, and every example validates", async () => {
  // examples/tls reads certificates that are made at test time (tls_proxy_test runs it with them).
  // examples/suite reads its setup's outputs: it is validated as it runs (README), with them.
  // examples/run_auth holds an --auth-file beside its flows: validated with it, below.
  const examples = [...Deno.readDirSync("examples")].filter((e) =>
    e.isDirectory && e.name !== "tls" && e.name !== "suite" && e.name !== "run_auth"
  )
    .map((e) => `examples/${e.name}`);
  const run = await runCli(["validate", ...examples, "tests/cases/ok", "--no-env"]);
  assert.equal(run.code, 0, run.stdout);
  assert.match(run.stdout, /^\d+ flow files checked: no problems\.\n$/);
  const suite = await runCli([
    "validate",
    "examples/suite/flows",
    "--setup",
    "examples/suite/shared/login.yaml",
    "--teardown",
    "examples/suite/shared/sweep.yaml",
    "--no-env",
  ]);
  assert.equal(suite.code, 0, suite.stdout);
  const runAuth = await runCli([
    "validate",
    "examples/run_auth/flows",
    "--auth-file",
    "examples/run_auth/bearer_token.yaml",
    "--no-env",
  ]);
  assert.equal(runAuth.code, 0, runAuth.stdout);
  const withEnv = await runCli(["validate", "tests/cases/ok"], {
    env: { BASE_URL: "http://127.0.0.1:1" },
  });
  assert.equal(withEnv.code, 0, withEnv.stdout);
});
