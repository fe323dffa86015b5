/**
 * An `--env-file` holds the run's secrets, and one that cannot be read teaches the run none of
 * them: its error quoted the line (`expected NAME=value, got "PASSWORD: Zq7#x!"`) or the text after
 * a quoted value (`API_TOKEN="tok_…"9xQ` quoted `9xQ`, a piece of the token), so a mistake in the
 * file printed a secret on the console of a CI job. A line that cannot be read shows its name and
 * separators, never what stands where a value goes, whatever the names (a pasted token alone on a
 * line is no name); the line number says where it is.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const PASSWORD = "Zq7#x!";
const TOKEN = "tok_9fK2mQ7rX4vB8nL3pW6s";

/** Each file's one slip and what the error shows of it. */
const SLIPS: [string, string][] = [
  [
    `BASE_URL=http://127.0.0.1:9\nPASSWORD: ${PASSWORD}\n`,
    '.env:2: expected NAME=value, got "PASSWORD: ***".',
  ],
  [`export API_TOKEN ${TOKEN}\n`, '.env:1: expected NAME=value, got "export API_TOKEN ***".'],
  [`${TOKEN}\n`, '.env:1: expected NAME=value, got "***".'],
  [`API KEY=${TOKEN}\n`, '.env:1: expected NAME=value, got "API KEY=***".'],
  [`NOTE=a\n2FA_CODE=${PASSWORD}\n`, '.env:2: expected NAME=value, got "***=***".'],
  [`BASE_URL\n`, '.env:1: expected NAME=value, got "BASE_URL".'],
  [
    `API_TOKEN="${TOKEN.slice(0, 12)}"${TOKEN.slice(12)}\n`,
    ".env:1: unexpected text after the quoted value of API_TOKEN (not shown: it may be part of " +
    "the value).",
  ],
  [
    `PASSWORD='${PASSWORD.slice(0, 2)}'${PASSWORD.slice(2)} x\n`,
    ".env:1: unexpected text after the quoted value of PASSWORD (not shown: it may be part of " +
    "the value).",
  ],
];

Deno.test("an env file's line that cannot be read is told without the value it holds", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-env-file-" });
  try {
    await Deno.writeTextFile(
      `${dir}/f.yaml`,
      'name: f\nsteps:\n  - name: s\n    request: {url: "${ENV.BASE_URL:-http://127.0.0.1:9}/x"}\n',
    );
    for (const [text, said] of SLIPS) {
      await Deno.writeTextFile(`${dir}/.env`, text);
      const cli = await runCli(["run", "f.yaml", "--env-file", ".env", "--out-dir", "out"], {
        cwd: dir,
      });
      const output = cli.stdout + cli.stderr;
      assert.equal(cli.code, 2, output);
      assert.ok(output.includes(said), `${said}\n${output}`);
      for (const leak of [PASSWORD, TOKEN.slice(0, 8), TOKEN.slice(12), PASSWORD.slice(2)]) {
        assert.ok(!output.includes(leak), `${leak} in ${output}`);
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a --var that is not NAME=VALUE is told without the value it holds", async () => {
  const cases: [string, string][] = [
    [`api_key:${TOKEN}`, 'Expected --var NAME=VALUE, got "api_key:***".'],
    [`password ${PASSWORD}`, 'Expected --var NAME=VALUE, got "password ***".'],
    ["base_url", 'Expected --var NAME=VALUE, got "base_url".'],
  ];
  for (const [given, said] of cases) {
    const cli = await runCli(["run", "f.yaml", "--var", given]);
    const output = cli.stdout + cli.stderr;
    assert.equal(cli.code, 2, output);
    assert.ok(output.includes(said), `${said}\n${output}`);
    for (const leak of [PASSWORD, TOKEN.slice(0, 8)]) {
      assert.ok(!output.includes(leak), `${leak} in ${output}`);
    }
  }
});

Deno.test("a --vars-file YAML cannot read is told without the secret values the parser quotes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-vars-file-" });
  try {
    // A password or token written unquoted that starts as YAML's alias, tag or anchor does.
    const files: [string, string][] = [
      [
        `base: x\napi_key: *${TOKEN}\n`,
        "Unresolved alias (the anchor must be set before the alias): ***",
      ],
      [`password: !${PASSWORD} a\n`, "The *** tag has no suffix"],
    ];
    for (const [text, said] of files) {
      await Deno.writeTextFile(`${dir}/vars.yaml`, text);
      const cli = await runCli(["run", "f.yaml", "--vars-file", `${dir}/vars.yaml`]);
      const output = cli.stdout + cli.stderr;
      assert.equal(cli.code, 2, output);
      assert.ok(output.includes(said), `${said}\n${output}`);
      for (const leak of [PASSWORD, TOKEN.slice(0, 8), TOKEN.slice(12)]) {
        assert.ok(!output.includes(leak), `${leak} in ${output}`);
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
