/**
 * The documented ways to use a pinned flowrun (docs/versioning.md,
 * "Installing an exact version"): as a member of a Deno workspace (the
 * library, before the JSR release), `deno install` of a clone at a pinned
 * commit, and the same without `deno` on PATH through npm's pinned Deno. The
 * install blocks are read from the docs and run as written, against a clone
 * of this repository in a temporary home, with a local server.
 */
import assert from "node:assert/strict";
import { currentBundle } from "../../cli/current_bundle.ts";
import { RUNNER_V8_FLAGS } from "../../scripts/permissions.ts";
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

/** The shell block of docs/versioning.md under `heading`. */
async function documented(heading: string): Promise<string> {
  const doc = await Deno.readTextFile(`${root}docs/versioning.md`);
  const section = doc.slice(doc.indexOf(`\n${heading}\n`));
  assert.ok(section.length > heading.length, `docs/versioning.md has "${heading}"`);
  const start = section.indexOf("```sh\n") + 6;
  return section.slice(start, section.indexOf("\n```", start));
}

/** Runs a documented block with `sh -e`, its placeholders replaced, in `home`. */
async function runBlock(block: string, home: string, env: Record<string, string> = {}) {
  const head = new TextDecoder().decode(
    (await new Deno.Command("git", { args: ["-C", root, "rev-parse", "HEAD"] }).output()).stdout,
  ).trim();
  const script = block.replaceAll("<repository>", `file://${root}`)
    .replaceAll("<commit>", head)
    .replaceAll("~/.flowrun", `${home}/.flowrun`);
  assert.doesNotMatch(script, /<[a-z]+>/, "every placeholder is replaced");
  const out = await new Deno.Command("sh", {
    args: ["-e", "-c", script],
    cwd: home,
    env: { HOME: home, DENO_NO_UPDATE_CHECK: "1", ...env },
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, `${script}\n${text}`);
  return text;
}

/** A flow against a local server, run by an installed launcher with `path` as PATH. */
async function runsAFlow(launcher: string, path: string, dir: string): Promise<void> {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json({ ok: true }),
  );
  try {
    await Deno.writeTextFile(
      `${dir}/ok.yaml`,
      `name: ok\nsteps:\n  - name: get\n    request: {url: "http://127.0.0.1:${server.addr.port}/"}\n    assert:\n      status: 200\n`,
    );
    const run = await new Deno.Command(launcher, {
      args: ["run", `${dir}/ok.yaml`, "--no-color"],
      env: { PATH: path, DENO_NO_UPDATE_CHECK: "1" },
      clearEnv: true,
    }).output();
    const text = new TextDecoder().decode(run.stdout) + new TextDecoder().decode(run.stderr);
    assert.equal(run.code, 0, text);
    assert.match(text, /1 passed/);
  } finally {
    await server.shutdown();
  }
}

const hasGit = await Deno.stat(`${root}.git`).then(() => true, () => false);
const DENO_VERSION = (await Deno.readTextFile(`${root}.deno-version`)).trim();

Deno.test({
  name:
    "the documented deno install of a pinned commit gives a flowrun command with the runner's permissions",
  ignore: !hasGit,
  async fn() {
    const home = await Deno.makeTempDir({ prefix: "flowrun-install-" });
    try {
      const bin = `${home}/.deno/bin`;
      const denoDir = Deno.execPath().slice(0, Deno.execPath().lastIndexOf("/"));
      const path = `${bin}:${denoDir}:/usr/local/bin:/usr/bin:/bin`;
      const text = await runBlock(await documented("### With Deno on PATH"), home, {
        PATH: path,
        DENO_INSTALL_ROOT: `${home}/.deno`,
      });
      assert.match(text, /^flowrun \d+\.\d+\.\d+ \(deno /m);
      const launcher = await Deno.readTextFile(`${bin}/flowrun`);
      for (const permission of ["--allow-net", "--allow-read", "--allow-write", "--allow-env"]) {
        assert.ok(launcher.includes(permission), `${permission} in ${launcher}`);
      }
      assert.doesNotMatch(launcher, /--allow-all|\s-A\s|--allow-run|--allow-sys/);
      // The heap sizing is read when the process starts: the launcher must pass it.
      assert.ok(launcher.includes(RUNNER_V8_FLAGS[0]), `${RUNNER_V8_FLAGS[0]} in ${launcher}`);
      assert.ok(launcher.includes(`${home}/.flowrun/src/cli.ts`), launcher);
      // The block bundled the clone, and the bundle is the one cli.ts will run.
      assert.ok(
        await currentBundle(new URL(`file://${home}/.flowrun/src/`)),
        "the clone's bundle is current",
      );
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  },
});

Deno.test({
  name: "without deno on PATH, the documented npm install of a pinned Deno gives a working flowrun",
  ignore: !hasGit,
  async fn() {
    const home = await Deno.makeTempDir({ prefix: "flowrun-npm-install-" });
    try {
      const block = await documented("### Without Deno on PATH");
      assert.ok(
        new RegExp(`deno@${DENO_VERSION}$`, "m").test(block),
        `the block pins .deno-version's Deno`,
      );
      const text = await runBlock(block, home, { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" });
      assert.match(text, new RegExp(`^flowrun \\d+\\.\\d+\\.\\d+ \\(deno ${DENO_VERSION}, `, "m"));
      const launcher = `${home}/.flowrun/bin/flowrun`;
      const script = await Deno.readTextFile(launcher);
      assert.match(script, new RegExp(`^exec "${home}/\\.flowrun/deno/`, "m"), script);
      assert.doesNotMatch(script, /--allow-all|\s-A\s|--allow-run|--allow-sys/);
      assert.ok(
        await currentBundle(new URL(`file://${home}/.flowrun/src/`)),
        "the clone's bundle is current",
      );
      // A folder with neither deno nor node in it is the whole PATH.
      const empty = await Deno.makeTempDir({ dir: home });
      await runsAFlow(launcher, empty, home);
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  },
});
