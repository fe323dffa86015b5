/**
 * The files a flow names (an include, a check file, a body or multipart file, a data file) must
 * lie inside the run's file roots: the working directory for flows inside it, else the folder
 * above the flows' own folder, or `--file-root DIR`. Seen: `include: ../../home/.aws/credentials`
 * in a pull request's flow printed the secret key's line into the CI log.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const SECRET = "outside-SECRET-6e1f";

/** A project folder (with flows/ and common/) inside a folder that also holds private files. */
async function layout() {
  const top = await Deno.realPath(await Deno.makeTempDir({ prefix: "flowrun-roots-" }));
  const project = `${top}/project`;
  for (const dir of ["project/flows", "project/common", "private"]) {
    await Deno.mkdir(`${top}/${dir}`, { recursive: true });
  }
  const login = 'name: login\nsteps:\n  - name: p\n    request: {url: "http://127.0.0.1:9"}\n';
  await Deno.writeTextFile(`${top}/private/login.yaml`, login);
  await Deno.writeTextFile(`${top}/private/secret.bin`, SECRET);
  await Deno.writeTextFile(`${top}/private/rows.csv`, `user\n${SECRET}\n`);
  await Deno.writeTextFile(`${top}/private/checks.yaml`, "- {path: $.a, exists: true}\n");
  await Deno.writeTextFile(`${project}/common/login.yaml`, login);
  await Deno.writeTextFile(`${project}/common/body.bin`, "ok");
  await Deno.symlink(`${top}/private`, `${project}/common/link`);
  return { top, project };
}

function flow(name: string, lines: string): string {
  return `name: ${name}\nsteps:\n${lines}`;
}

const REACHES: Record<string, string> = {
  include: "  - name: i\n    include: ../../private/login.yaml\n",
  body_file:
    '  - name: b\n    request: {url: "http://127.0.0.1:9", method: POST, body_file: ../../private/secret.bin}\n',
  multipart:
    '  - name: m\n    request: {url: "http://127.0.0.1:9", method: POST, multipart: {f: {file: ../../private/secret.bin}}}\n',
  check_file:
    '  - name: c\n    request: {url: "http://127.0.0.1:9"}\n    assert:\n      json:\n        - {at: $.json, checks: ../../private/checks.yaml}\n',
  link: "  - name: l\n    include: ../common/link/login.yaml\n",
};

Deno.test("a flow inside the working directory reads nothing outside it", async () => {
  const { top, project } = await layout();
  try {
    for (const [kind, step] of Object.entries(REACHES)) {
      await Deno.writeTextFile(`${project}/flows/${kind}.yaml`, flow(kind, step));
    }
    await Deno.writeTextFile(
      `${project}/flows/data.yaml`,
      flow("data", '  - name: s\n    request: {url: "http://127.0.0.1:9/${vars.user}"}\n') +
        "vars: {user: x}\ndata: {file: ../../private/rows.csv}\n",
    );
    await Deno.writeTextFile(
      `${project}/flows/ok.yaml`,
      flow("ok", "  - name: i\n    include: ../common/login.yaml\n") +
        '  - name: b\n    request: {url: "http://127.0.0.1:9", method: POST, body_file: ../common/body.bin}\n',
    );
    for (const command of ["validate", "run"]) {
      const cli = await runCli([command, "flows/"], { cwd: project });
      assert.equal(cli.code, 2, cli.stdout + cli.stderr);
      const out = cli.stdout + cli.stderr;
      assert.ok(!out.includes(SECRET), out);
      const refused = out.split("\n").filter((l) => /error\[outside-file-root\]/.test(l));
      assert.deepEqual(
        refused.map((l) => l.split(":")[0]).sort(),
        [...Object.keys(REACHES), "data"].map((k) => `flows/${k}.yaml`).sort(),
        out,
      );
      assert.match(out, /is outside the folders this run's flows may read \(.*\/project\); /);
      assert.ok(!/flows\/ok\.yaml:\d+:\d+ error/.test(out), out);
    }
    // --file-root names a wider folder: the same flows load.
    const wide = await runCli(["validate", "flows/", "--file-root", top], { cwd: project });
    assert.ok(!/outside-file-root/.test(wide.stdout + wide.stderr), wide.stdout + wide.stderr);
  } finally {
    await Deno.remove(top, { recursive: true });
  }
});

Deno.test("flows outside the working directory read the folder above their own, no further", async () => {
  const { top, project } = await layout();
  try {
    await Deno.writeTextFile(
      `${project}/flows/ok.yaml`,
      flow("ok", "  - name: i\n    include: ../common/login.yaml\n"),
    );
    await Deno.writeTextFile(`${project}/flows/out.yaml`, flow("out", REACHES.include));
    const cli = await runCli(["validate", `${project}/flows`]);
    assert.equal(cli.code, 2);
    const errors = (cli.stdout + cli.stderr).split("\n").filter((l) => / error\[/.test(l));
    assert.equal(errors.length, 1, errors.join("\n"));
    assert.ok(
      errors[0].startsWith(`${project}/flows/out.yaml:4:14 error[outside-file-root]`),
      errors[0],
    );
    const file = await runCli(["validate", `${project}/flows/ok.yaml`]);
    assert.equal(file.code, 0, file.stdout + file.stderr);
  } finally {
    await Deno.remove(top, { recursive: true });
  }
});

Deno.test("a document the user names with --openapi may be read by the flows' openapi: checks wherever it lies", async () => {
  const { top, project } = await layout();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json({}),
  );
  try {
    await Deno.writeTextFile(
      `${top}/private/api.yaml`,
      "openapi: 3.0.0\ninfo: {title: t, version: '1'}\npaths:\n  /a: {get: {responses: {'200': " +
        "{description: ok, content: {application/json: {schema: {type: object}}}}}}}\n",
    );
    await Deno.writeTextFile(
      `${project}/flows/a.yaml`,
      `name: a\nsteps:\n  - name: s\n    request: {url: "http://127.0.0.1:${server.addr.port}/a"}\n` +
        "    assert: {openapi: ../../private/api.yaml}\n",
    );
    const refused = await runCli(["run", "flows/"], { cwd: project });
    assert.equal(refused.code, 2, refused.stdout + refused.stderr);
    assert.match(refused.stdout + refused.stderr, /error\[outside-file-root\]/);
    const named = await runCli(["run", "flows/", "--openapi", "../private/api.yaml"], {
      cwd: project,
    });
    assert.equal(named.code, 0, named.stdout + named.stderr);
  } finally {
    await server.shutdown();
    await Deno.remove(top, { recursive: true });
  }
});
