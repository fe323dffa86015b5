/**
 * Loading `auth:` (flow, step, include step, `--auth-file`): every mistake is
 * one positioned problem with its fix, a literal credential is refused, and
 * `validate` gives exactly the problems `run` gives, before anything is sent.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { loadAuthFile } from "../../lib/load/auth_file.ts";
import { runCli } from "../support/cli.ts";

const step = '  - name: s\n    request: {url: "http://x.test"}\n';

function problems(text: string) {
  return loadFlow(text, "f.yaml", { env: (n) => (n === "SET" ? "v" : undefined) }).problems.map((
    p,
  ) => `${p.line}:${p.column} ${p.code} ${p.message} | ${p.hint}`);
}

Deno.test("a literal credential is one problem at its value, saying to read it from ENV", () => {
  const cases: [string, string, string][] = [
    ["basic: {username: ann, password: hunter2}", "password", "3:36"],
    ["bearer: {token: abc.def}", "token", "3:19"],
    ["api_key: {name: x-api-key, value: k-1}", "value", "3:37"],
    [
      "oauth2: {grant_type: client_credentials, token_url: https://i.test/t, client_id: app, client_secret: s}",
      "client_secret",
      "3:104",
    ],
    ["digest: {username: ann, password: pw}", "password", "3:37"],
    [
      'aws_sigv4: {region: eu-west-1, service: s3, access_key_id: AKIA1, secret_access_key: "${ENV.SET}"}',
      "access_key_id",
      "3:62",
    ],
  ];
  for (const [block, key, at] of cases) {
    const found = problems(`name: f\nauth:\n  ${block}\nsteps:\n${step}`);
    assert.equal(found.length, 1, found.join("\n"));
    const literal = new RegExp(`${key}: ([^,}]+)`).exec(block)![1];
    const column = `  ${block}`.indexOf(`${key}: ${literal}`) + key.length + 3;
    assert.equal(at, `3:${column}`);
    assert.ok(found[0].startsWith(`${at} literal-credential The value of "${key}"`), found[0]);
    assert.ok(found[0].includes(`${key}: "\${ENV.${key.toUpperCase()}}"`), found[0]);
  }
  // Identifiers are not secrets: a written username, client id or region is fine.
  assert.deepEqual(
    problems(`name: f\nauth:\n  basic: {username: ann, password: "\${ENV.SET}"}\nsteps:\n${step}`),
    [],
  );
});

Deno.test("a wrong block is one problem with the fix", () => {
  const cases: [string, RegExp][] = [
    [
      'auth: {bearer: {token: "${ENV.SET}"}, basic: {username: a, password: "${ENV.SET}"}}',
      /wrong-type Expected "auth" of the flow to name one kind, got bearer and basic/,
    ],
    [
      'auth: {beare: {token: "${ENV.SET}"}}',
      /unknown-key Unknown key "beare" in "auth" of the flow\. \| Did you mean "bearer"\?/,
    ],
    [
      'auth: {bearer: {tokn: "${ENV.SET}"}}',
      /unknown-key Unknown key "tokn".*Did you mean "token"\?/,
    ],
    [
      'auth: {api_key: {name: k, value: "${ENV.SET}", in: body}}',
      /Expected "in" of "api_key" of the flow to be one of header, query, cookie/,
    ],
    [
      "auth: {oauth2: {grant_type: implicit, token_url: https://i.test/t, client_id: app}}",
      /Expected "grant_type".*client_credentials, password, refresh_token/,
    ],
    [
      "auth: {oauth2: {grant_type: password, token_url: https://i.test/t, client_id: app}}",
      /missing-key Missing key "username".*the password grant sends it/,
    ],
    [
      "auth: {oauth2: {grant_type: client_credentials, token_url: ftp://i.test/t, client_id: app}}",
      /bad-url Expected "token_url".*http or https URL, got "ftp:\/\/i.test\/t"/,
    ],
    ["auth: nothing", /wrong-type Expected "auth" of the flow to be a map/],
  ];
  for (const [block, expected] of cases) {
    const found = problems(`name: f\n${block}\nsteps:\n${step}`);
    assert.ok(found.length >= 1 && expected.test(found[0]), `${block}\n${found.join("\n")}`);
  }
  const onStep = problems(
    `name: f\nsteps:\n  - name: s\n    auth: {bearer: {token: x}}\n    request: {url: "http://x.test"}\n`,
  );
  assert.match(onStep[0], /^4:28 literal-credential The value of "token" of "bearer" of step "s"/);
});

Deno.test("an auth file: one block, no step capture, no unset variable", () => {
  assert.equal(
    loadAuthFile('auth:\n  bearer: {token: "${api_token}"}\n', "a.yaml").auth?.kind,
    "bearer",
  );
  const capture = loadAuthFile(
    'auth:\n  bearer: {token: "${steps.login.capture.token}"}\n',
    "a.yaml",
  );
  assert.equal(capture.problems[0].code, "step-in-auth-file");
  assert.equal(capture.problems[0].column, 20);
  const unset = loadAuthFile('auth:\n  bearer: {token: "${ENV.NOPE_X}"}\n', "a.yaml", {
    env: () => undefined,
  });
  assert.equal(unset.problems[0].code, "unset-env");
  const literal = loadAuthFile("auth:\n  bearer: {token: abc}\n", "a.yaml");
  assert.equal(literal.problems[0].code, "literal-credential");
  const notAuth = loadAuthFile("name: x\n", "a.yaml");
  assert.deepEqual(notAuth.problems.map((p) => p.code), ["unknown-key", "missing-key"]);
});

Deno.test("validate gives the problems run gives, for a flow and for --auth-file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-auth-load-" });
  try {
    await Deno.writeTextFile(
      `${dir}/f.yaml`,
      `name: f\nsteps:\n  - name: s\n    auth: {basic: {username: ann, password: hunter2}}\n    request: {url: "http://127.0.0.1:9"}\n`,
    );
    await Deno.writeTextFile(`${dir}/auth.yaml`, "auth:\n  bearer: {token: t0k3n}\n");
    const args = [`${dir}/f.yaml`, "--auth-file", `${dir}/auth.yaml`];
    const validate = await runCli(["validate", ...args]);
    const run = await runCli([
      "run",
      ...args,
      "--report-json",
      `${dir}/r.json`,
      "--report-junit",
      `${dir}/r.xml`,
    ]);
    assert.equal(validate.code, 2, validate.stdout + validate.stderr);
    assert.equal(run.code, 2);
    const lines = (text: string) => text.split("\n").filter((l) => /error\[/.test(l));
    assert.deepEqual(lines(validate.stdout + validate.stderr), lines(run.stdout + run.stderr));
    const found = lines(run.stderr + run.stdout);
    assert.equal(found.length, 2, found.join("\n"));
    assert.ok(
      found.some((l) => l.includes("auth.yaml:2:19 error[literal-credential]")),
      found.join("\n"),
    );
    assert.ok(
      found.some((l) => l.includes("f.yaml:4:45 error[literal-credential]")),
      found.join("\n"),
    );
    // The message that refuses a credential must not print it again (issue 53, item 9).
    const reports = [
      await Deno.readTextFile(`${dir}/r.json`),
      await Deno.readTextFile(`${dir}/r.xml`),
    ];
    for (const text of [run.stdout, run.stderr, validate.stdout, validate.stderr, ...reports]) {
      assert.ok(!text.includes("hunter2") && !text.includes("t0k3n"), text);
    }
    assert.ok((validate.stdout + validate.stderr).includes("password: ***}}"), validate.stdout);
    assert.ok(
      (validate.stdout + validate.stderr).includes("bearer: {token: ***}"),
      validate.stdout,
    );
    const missing = await runCli(["run", `${dir}/f.yaml`, "--auth-file", `${dir}/none.yaml`]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--auth-file .*none\.yaml/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
