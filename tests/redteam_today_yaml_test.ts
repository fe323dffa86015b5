/**
 * Issue 53, fourth pass, against the YAML error messages that quote lines
 * and suggest edits (`lib/load/yaml_slips.ts`, `yaml_indent.ts`,
 * `yaml_block_hints.ts`): a credential written in a secret place of a line
 * with a YAML slip is masked in the message, the quoted line and the hint, as
 * a credential a loaded flow writes is (`literal-credential`), in `validate`,
 * in `run` and in the JUnit report of the flows that could not load.
 */
import assert from "node:assert/strict";
import { runCli } from "./support/cli.ts";

/** A slip on a line that holds a credential: the file, and the credential it must not echo. */
type Case = { name: string; yaml: string; secret: string; kept: string };

const STEP = `name: slip
steps:
  - name: s
    request:
      url: "http://127.0.0.1:9/echo"
`;

const CASES: Case[] = [
  {
    name: "a colon in a Bearer header",
    yaml: `${STEP}      headers:\n        authorization: Bearer litTok_Zq81Lk3Vb7Xn: x\n`,
    secret: "litTok_Zq81Lk3Vb7Xn",
    kept: 'Quote it: authorization: "Bearer ***: x"',
  },
  {
    name: "a quote never closed",
    yaml:
      `${STEP}      headers:\n        authorization: "Bearer litTok2_Zq81Lk3Vb7Xn\n        x-a: b\n`,
    secret: "litTok2_Zq81Lk3Vb7Xn",
    kept: 'authorization: "Bearer ***"',
  },
  {
    name: "a tab before a flow map with an API key",
    yaml: `${STEP}\t  headers: {x-api-key: litKey4_Mq81Zn7Kw2}\n`,
    secret: "litKey4_Mq81Zn7Kw2",
    kept: "indented with a tab",
  },
  {
    name: "a password key given twice",
    yaml: `${STEP}      body:\n        password: litPw5_Hq82Lz\n        password: litPw6_Jq83Mz\n`,
    secret: "litPw6_Jq83Mz",
    kept: '"password" is given twice',
  },
  {
    name: "a cookie with a colon in a flow map",
    yaml: `${STEP}      headers: {cookie: sid=litSid7_Nq84Pz: 1}\n`,
    secret: "litSid7_Nq84Pz",
    kept: "yaml-syntax",
  },
  {
    name: "a misindented key under a password",
    yaml: `${STEP}      body:\n        client_secret: litCs8_Rq85Sz\n         user: ann\n`,
    secret: "litCs8_Rq85Sz",
    kept: 'Indent "user" 8 spaces',
  },
];

Deno.test("a YAML slip does not echo a credential of its line, in validate, run and JUnit", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-redteam-yaml-" });
  try {
    // One file per case, checked by one validate and one run (each case's problem is its file's).
    for (const [i, c] of CASES.entries()) await Deno.writeTextFile(`${dir}/slip${i}.yaml`, c.yaml);
    const validate = await runCli(["validate", dir]);
    const run = await runCli(["run", dir, "--report-junit", `${dir}/junit.xml`]);
    assert.equal(validate.code, 2, validate.stdout + validate.stderr);
    assert.equal(run.code, 2, run.stdout + run.stderr);
    const shown: [string, string][] = [
      ["validate", validate.stdout + validate.stderr],
      ["run", run.stdout + run.stderr],
      ["junit", await Deno.readTextFile(`${dir}/junit.xml`)],
    ];
    for (const [i, c] of CASES.entries()) {
      for (const [what, text] of shown) {
        assert.ok(!text.includes(c.secret), `${c.name}: ${what} echoes ${c.secret}:\n${text}`);
        assert.ok(!text.includes(c.secret.slice(2, -2)), `${c.name}: ${what} echoes a part of it`);
      }
      // The message still says what to fix, under the file's own name.
      const problem = shown[0][1].split(/\n(?=\S+slip\d\.yaml:)/).find((p) =>
        p.includes(`slip${i}.yaml:`)
      );
      assert.ok(problem?.includes(c.kept) && problem.includes("error[yaml-syntax]"), problem);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a YAML slip still quotes what is no credential: expressions, capture sources, maps, cookie names", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-redteam-yaml-" });
  try {
    const lines = [
      `      headers: {authorization: "Bearer \${ENV.TOKEN}", cookie: "sid=\${ENV.SID}", x: a: b}`,
      `    capture: {session: {header: set-cookie}, token: "$.json.token", note: a: b}`,
    ];
    for (const [i, line] of lines.entries()) {
      await Deno.writeTextFile(`${dir}/kept${i}.yaml`, `${STEP}${line}\n`);
    }
    const { stdout, stderr } = await runCli(["validate", dir]);
    for (const line of lines) assert.ok(stdout.includes(line.trim()), stdout + stderr);
    assert.ok(!stdout.includes("***"), stdout);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
