/**
 * The documented ways to use a pinned flowrun without a release binary:
 * as a member of a Deno workspace (the library, before the JSR release), and
 * `deno install` of the CLI from a checkout. Both run against this checkout
 * in a temporary folder, with a local server.
 */
import assert from "node:assert/strict";
import { root } from "../support/cli.ts";
import "../support/engines.ts";

const NAME = JSON.parse(await Deno.readTextFile(`${root}deno.json`)).name as string;

Deno.test("the library is imported by its package name from a workspace member", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json({ ok: true }),
  );
  const dir = await Deno.makeTempDir({ prefix: "flowrun-consumer-" });
  try {
    await Deno.symlink(root.replace(/\/$/, ""), `${dir}/flowrun`);
    await Deno.writeTextFile(`${dir}/deno.json`, JSON.stringify({ workspace: ["./flowrun"] }));
    await Deno.writeTextFile(
      `${dir}/main.ts`,
      `import { loadFlow, runFlows } from "${NAME}";
const { flow } = loadFlow(
  'name: f\\nsteps:\\n  - name: ok\\n    request: {url: "http://127.0.0.1:${server.addr.port}/"}\\n    assert:\\n      json: [{path: $.json.ok, equals: true}]\\n',
  "f.yaml",
);
const result = await runFlows([flow!]);
console.log(result.status);
`,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-lock", "--allow-net", "--allow-read", "--allow-env", "main.ts"],
      cwd: dir,
      env: { DENO_NO_UPDATE_CHECK: "1" },
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, text);
    assert.equal(new TextDecoder().decode(out.stdout), "passed\n");
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno install from a checkout gives a flowrun command with the runner's permissions", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-install-" });
  try {
    const install = await new Deno.Command(Deno.execPath(), {
      args: [
        "install",
        "-g",
        "-f",
        "-n",
        "flowrun",
        "--root",
        dir,
        "--config",
        "deno.json",
        "--allow-net",
        "--allow-read",
        "--allow-write",
        "--allow-env",
        "cli.ts",
      ],
      cwd: root,
      env: { DENO_NO_UPDATE_CHECK: "1" },
    }).output();
    assert.equal(install.code, 0, new TextDecoder().decode(install.stderr));
    const launcher = await Deno.readTextFile(`${dir}/bin/flowrun`).catch(() =>
      Deno.readTextFile(`${dir}/flowrun`)
    );
    for (const permission of ["--allow-net", "--allow-read", "--allow-write", "--allow-env"]) {
      assert.ok(launcher.includes(permission), `${permission} in ${launcher}`);
    }
    assert.doesNotMatch(launcher, /--allow-all|\s-A\s|--allow-run|--allow-sys/);
    const bin = await Deno.stat(`${dir}/bin/flowrun`).then(
      () => `${dir}/bin/flowrun`,
      () => `${dir}/flowrun`,
    );
    const version = await new Deno.Command(bin, {
      args: ["--version"],
      env: { DENO_NO_UPDATE_CHECK: "1" },
    }).output();
    assert.equal(version.code, 0);
    assert.match(new TextDecoder().decode(version.stdout), /^flowrun \d+\.\d+\.\d+ \(deno /);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
