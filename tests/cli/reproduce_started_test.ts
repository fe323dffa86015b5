/**
 * The `reproduce:` line starts flowrun as the run was started (issue 54,
 * item 7): from source it is `deno run` with the runner's permissions and V8
 * flags and `cli.ts` relative to the working directory; through a launcher on
 * PATH that starts this cli.ts (what `deno install` writes) it is `flowrun`.
 * The console, the JUnit report, the GitHub job summary and the manifest say
 * the same, and the printed line, pasted into `sh`, reruns just that flow.
 */
import assert from "node:assert/strict";
import { dirname } from "node:path";
import { RUNNER_PERMISSIONS, RUNNER_V8_FLAGS } from "../../scripts/permissions.ts";
import { startedAs, type StartFacts } from "../../cli/run/started_as.ts";
import { shellWord } from "../../lib/http/curl.ts";
import { root } from "../support/cli.ts";
import { pasteInShell, reproduceLines } from "../support/reproduce.ts";

const DENO_DIR = dirname(Deno.execPath());

/** Runs `line` with `sh -c` in `cwd`, PATH holding `bin` (if given) and this Deno. */
function sh(line: string, cwd: string, bin?: string, env: Record<string, string> = {}) {
  const path = [bin, DENO_DIR, "/usr/bin", "/bin"].filter(Boolean).join(":");
  return pasteInShell(line, cwd, { env, path, clearEnv: true });
}

/** A folder whose name a shell must have quoted (space, quote, `$`), two flows (one fails), and a server they call. */
async function scene() {
  const srv = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const status = new URL(req.url).pathname === "/bad" ? 500 : 200;
    return new Response("x", { status });
  });
  const dir = await Deno.makeTempDir({ prefix: "flowrun it's $HOME " });
  const base = `http://127.0.0.1:${srv.addr.port}`;
  const flow = (name: string, path: string) =>
    `name: ${name}\nsteps:\n  - name: call\n    request: {url: "${base}${path}"}\n    assert: {status: 200}\n`;
  await Deno.writeTextFile(`${dir}/my flow.yaml`, flow("fails", "/bad"));
  await Deno.writeTextFile(`${dir}/ok.yaml`, flow("passes", "/ok"));
  return {
    dir,
    async close() {
      await srv.shutdown();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/**
 * Runs `start run <flows> <reports>` with `sh` from `cwd` (GitHub Actions on),
 * and checks the console, JUnit, job summary and manifest all name `start`
 * and rerun the failed flow alone. Gives the printed line.
 */
async function agreeAndRerun(start: string, cwd: string, dir: string, bin?: string) {
  const flows = `${shellWord(`${dir}/my flow.yaml`)} ${shellWord(`${dir}/ok.yaml`)}`;
  const out = `${dir}/out`;
  const summary = `${dir}/summary.md`;
  await Deno.writeTextFile(summary, "");
  const first = await sh(
    `${start} run ${flows} --run-id R1 --out-dir ${shellWord(out)} --manifest ${
      shellWord(`${out}/manifest.json`)
    }`,
    cwd,
    bin,
    { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary },
  );
  assert.equal(first.code, 1, first.stdout + first.stderr);
  const lines = reproduceLines(first);
  assert.equal(lines.length, 1, first.stdout);
  const line = lines[0];
  // The flow file too is named relative to the working directory where it is inside it.
  const file = shellWord(cwd === dir ? "my flow.yaml" : `${dir}/my flow.yaml`);
  assert.ok(line.startsWith(`${start} run ${file} --run-id R1`), line);
  const junit = await Deno.readTextFile(`${out}/junit.xml`);
  assert.ok(
    junit.includes(`reproduce: ${line.replaceAll("&", "&amp;").replaceAll("'", "&apos;")}`) ||
      junit.includes(`reproduce: ${line}`),
    junit,
  );
  assert.ok(
    (await Deno.readTextFile(summary)).includes(`\n${line}\n`),
    "the job summary's command",
  );
  const manifest = JSON.parse(await Deno.readTextFile(`${out}/manifest.json`));
  assert.equal(
    manifest.command.map(shellWord).join(" "),
    `${start} run ${flows} --run-id R1 --out-dir ${shellWord(out)} --manifest ${
      shellWord(`${out}/manifest.json`)
    }`,
    "the manifest's command starts flowrun as the line does",
  );
  // Pasted into a shell from the same folder: just that flow runs again, and fails again.
  const again = await sh(line, cwd, bin);
  assert.equal(again.code, 1, `${line}\n${again.stdout}${again.stderr}`);
  assert.match(again.stdout, /✘ .*my flow\.yaml · fails/);
  assert.doesNotMatch(again.stdout, /passes/);
  assert.deepEqual(reproduceLines(again), [line]);
  return line;
}

Deno.test("from source: deno run with the runner's flags, cli.ts relative to the working directory", async () => {
  const s = await scene();
  try {
    const start = ["deno", "run", ...RUNNER_V8_FLAGS, ...RUNNER_PERMISSIONS, "cli.ts"]
      .map(shellWord).join(" ");
    await agreeAndRerun(start, root, s.dir);
  } finally {
    await s.close();
  }
});

Deno.test("through a launcher on PATH that starts this cli.ts: flowrun", async () => {
  const s = await scene();
  try {
    // The launcher the docs' "Without Deno on PATH" way writes: Deno by its path, cli.ts by its.
    const bin = `${s.dir}/bin`;
    await Deno.mkdir(bin);
    await Deno.writeTextFile(
      `${bin}/flowrun`,
      `#!/bin/sh\nexec "${Deno.execPath()}" run ${
        [...RUNNER_PERMISSIONS, ...RUNNER_V8_FLAGS].join(" ")
      } "${root}cli.ts" "$@"\n`,
      { mode: 0o755 },
    );
    await agreeAndRerun("flowrun", s.dir, s.dir, bin);
  } finally {
    await s.close();
  }
});

/** Facts of a process started from source in /w/flowrun, deno and nothing else on PATH. */
const SOURCE: StartFacts = {
  standalone: false,
  execPath: "/opt/deno/bin/deno",
  mainModule: "file:///w/flowrun/cli.ts",
  cwd: "/w/flowrun",
  allowRun: false,
  which: (name) => name === "deno" ? { path: "/opt/deno/bin/deno", text: "" } : undefined,
};

Deno.test("the installed binary is named as a shell finds it", () => {
  const binary = {
    ...SOURCE,
    standalone: true,
    mainModule: "file:///tmp/deno-compile-flowrun/cli.ts",
  };
  const on = (path: string) => (name: string) =>
    name === "flowrun" ? { path, text: "\x7fELF" } : undefined;
  assert.deepEqual(
    startedAs({
      ...binary,
      execPath: "/usr/local/bin/flowrun",
      which: on("/usr/local/bin/flowrun"),
    }),
    ["flowrun"],
  );
  // Not the one PATH finds: its path, relative where it is inside the working directory.
  const built = "/w/flowrun/dist/flowrun-0.1.0-x86_64-unknown-linux-gnu";
  assert.deepEqual(
    startedAs({ ...binary, execPath: built, which: on("/usr/local/bin/flowrun") }),
    ["dist/flowrun-0.1.0-x86_64-unknown-linux-gnu"],
  );
  assert.deepEqual(startedAs({ ...binary, execPath: "/w/flowrun/fr", cwd: "/w/flowrun" }), [
    "./fr",
  ]);
  assert.deepEqual(startedAs({ ...binary, execPath: "/opt/x/fr", cwd: "/w" }), ["/opt/x/fr"]);
  assert.deepEqual(
    startedAs({
      ...binary,
      execPath: "C:\\tools\\flowrun.exe",
      cwd: "C:\\w",
      which: on("C:\\tools\\flowrun.exe"),
    }),
    ["flowrun"],
  );
});

Deno.test("from source: relative, quoted by the caller, --allow-run when granted, Deno by path when not on PATH", () => {
  const flags = [...RUNNER_V8_FLAGS, ...RUNNER_PERMISSIONS];
  assert.deepEqual(startedAs(SOURCE), ["deno", "run", ...flags, "cli.ts"]);
  assert.deepEqual(
    startedAs({ ...SOURCE, mainModule: "file:///w/my%20dir/cli.ts", cwd: "/w" }),
    ["deno", "run", ...flags, "my dir/cli.ts"],
  );
  assert.deepEqual(startedAs({ ...SOURCE, cwd: "/elsewhere" }).at(-1), "/w/flowrun/cli.ts");
  assert.deepEqual(startedAs({ ...SOURCE, allowRun: true }).slice(3, 8), [
    ...RUNNER_PERMISSIONS,
    "--allow-run",
  ]);
  // Another program running flowrun's code: only flowrun itself reruns a flow.
  assert.deepEqual(startedAs({ ...SOURCE, mainModule: "file:///w/flowrun/tests/a_test.ts" }), [
    "flowrun",
  ]);
  assert.equal(startedAs({ ...SOURCE, which: () => undefined })[0], "/opt/deno/bin/deno");
  // A flowrun on PATH that starts another checkout is not this one.
  const other = (name: string) =>
    name === "flowrun"
      ? { path: "/usr/bin/flowrun", text: "exec deno run 'file:///other/cli.ts' \"$@\"" }
      : SOURCE.which(name);
  assert.equal(startedAs({ ...SOURCE, which: other })[0], "deno");
  const ours = (name: string) =>
    name === "flowrun"
      ? { path: "/usr/bin/flowrun", text: "exec deno run 'file:///w/flowrun/cli.ts' \"$@\"" }
      : SOURCE.which(name);
  assert.deepEqual(startedAs({ ...SOURCE, which: ours }), ["flowrun"]);
});
