/**
 * Variables from files: dotenv and vars-file parsing with positioned
 * errors, and the precedence among flow vars, --vars-file, --var, the
 * environment and --env-file, through the CLI against a real server; secret
 * values from an env file are masked.
 */
import assert from "node:assert/strict";
import { UsageError } from "../../lib/model/errors.ts";
import { parseEnvFile, parseVarsFile } from "../../lib/load/var_files.ts";
import { runCli } from "../support/cli.ts";
import "../support/engines.ts";

Deno.test("dotenv: export, comments, both quotes, escapes, multi-line double quotes", () => {
  const env = parseEnvFile(
    [
      "# comment",
      "",
      "export A=1",
      "B = spaced value # trailing comment",
      "C='single # kept'",
      'D="tab\\there \\"q\\""',
      'E="line one',
      'line two"',
      "F=",
      "G=a=b=c",
    ].join("\n"),
    ".env",
  );
  assert.deepEqual(Object.fromEntries(env), {
    A: "1",
    B: "spaced value",
    C: "single # kept",
    D: 'tab\there "q"',
    E: "line one\nline two",
    F: "",
    G: "a=b=c",
  });
});

Deno.test("dotenv and vars-file mistakes name the file and line with the fix", () => {
  const cases: [() => unknown, string, string][] = [
    [
      () => parseEnvFile("A=1\nBASE URL=x\n", ".env"),
      "bad-env-file",
      '.env:2: expected NAME=value, got "BASE URL=***"',
    ],
    [
      () => parseEnvFile('A="open\n', ".env"),
      "bad-env-file",
      ".env:1: the value of A opens a double quote",
    ],
    [
      () => parseEnvFile("A='x' y\n", ".env"),
      "bad-env-file",
      "unexpected text after the quoted value of A (not shown",
    ],
    [() => parseVarsFile("- a\n- b\n", "v.yaml"), "bad-vars-file", "v.yaml must hold a map"],
    [
      () => parseVarsFile("users: [a, b]\n", "v.yaml"),
      "bad-vars-file",
      'the value of "users" is a list',
    ],
    [
      () => parseVarsFile("RUN_ID: x\n", "v.yaml"),
      "bad-vars-file",
      '"RUN_ID" cannot be a var name',
    ],
    [() => parseVarsFile("a: [\n", "v.yaml"), "bad-vars-file", "v.yaml is not YAML or JSON"],
  ];
  for (const [fn, code, message] of cases) {
    assert.throws(fn, (e: unknown) => {
      assert.ok(e instanceof UsageError, String(e));
      assert.equal(e.code, code);
      assert.ok(e.message.includes(message), e.message);
      assert.ok(e.hint, "a fix");
      return true;
    });
  }
  assert.deepEqual(
    Object.fromEntries(parseVarsFile('{"n": 3, "ok": true, "none": null}', "v.json")),
    {
      n: "3",
      ok: "true",
      none: "",
    },
  );
});

Deno.test("precedence: flow var < vars-file < later vars-file < --var; environment > env-file", async () => {
  const seen: Record<string, string>[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push(Object.fromEntries(new URL(req.url).searchParams));
    return Response.json({ ok: true });
  });
  const dir = await Deno.makeTempDir({ prefix: "flowrun-varfiles-" });
  try {
    await Deno.writeTextFile(
      `${dir}/f.yaml`,
      `name: f
vars: {a: flow, b: flow, c: flow, d: flow}
steps:
  - name: s
    request:
      url: "http://127.0.0.1:${server.addr.port}/?a=\${vars.a}&b=\${vars.b}&c=\${vars.c}&d=\${vars.d}&e=\${ENV.FR_E}&f=\${ENV.FR_F}"
      headers: {authorization: "Bearer \${ENV.FR_API_TOKEN}"}
    assert: {status: 500}
`,
    );
    await Deno.writeTextFile(`${dir}/one.yaml`, "b: one\nc: one\nd: one\n");
    await Deno.writeTextFile(`${dir}/two.json`, '{"c": "two", "d": "two"}');
    await Deno.writeTextFile(
      `${dir}/.env`,
      "FR_E=from-file\nFR_F=from-file\nFR_API_TOKEN=tok-9f8e7d6c5b4a3210\n",
    );
    const run = await runCli(
      [
        "run",
        `${dir}/f.yaml`,
        "--vars-file",
        `${dir}/one.yaml`,
        "--vars-file",
        `${dir}/two.json`,
        "--var",
        "d=cli",
        "--env-file",
        `${dir}/.env`,
        "--report-json",
        `${dir}/r.json`,
      ],
      { env: { FR_F: "from-env" } },
    );
    // The step fails on purpose (status 500 expected), so the request is in the report.
    assert.equal(run.code, 1, run.stderr);
    assert.deepEqual(seen[0], {
      a: "flow",
      b: "one",
      c: "two",
      d: "cli",
      e: "from-file",
      f: "from-env",
    });
    const report = await Deno.readTextFile(`${dir}/r.json`);
    assert.ok(!report.includes("tok-9f8e7d6c5b4a3210"), "a secret from an env file is masked");
    assert.ok(!(run.stdout + run.stderr).includes("tok-9f8e7d6c5b4a3210"));
    assert.doesNotMatch(run.stderr, /unused-var/, "vars-file names are not warned about");
    // The reproduce line repeats the files, not their contents.
    assert.match(
      run.stdout,
      /--vars-file \S*one\.yaml --vars-file \S*two\.json --env-file \S*\.env/,
    );
    const missing = await runCli(["run", `${dir}/f.yaml`, "--env-file", `${dir}/nope.env`]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^error\[file-read\]: --env-file \S*nope\.env: /m);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
