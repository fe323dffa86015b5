/**
 * The release build (scripts/compile.ts) and the workflows that run it:
 *
 * - the exact `deno compile` arguments for every target: the runner's
 *   permissions and nothing broader, the target, the output name;
 * - SHA256SUMS in the format `sha256sum -c` checks;
 * - `deno task compile --dry-run`, and the one-sentence failure when no
 *   runtime (denort) can be had;
 * - a smoke test of a real binary, run only where a runtime is available:
 *   it is reported as ignored, with the reason, everywhere else;
 * - the GitHub workflows run the same checks and publish what was built.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import config from "../../deno.json" with { type: "json" };
import {
  binaryName,
  compileArgs,
  executableTarget,
  sha256sums,
  type Target,
  TARGETS,
} from "../../scripts/compile.ts";
import { RUNNER_PERMISSIONS, RUNNER_V8_FLAGS } from "../../scripts/permissions.ts";
import { root } from "../support/cli.ts";

const VERSION = config.version;

/** The parts of a GitHub workflow these tests read. */
interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, string>;
}
interface Workflow {
  // deno-lint-ignore no-explicit-any
  on: Record<string, any>;
  permissions?: Record<string, string>;
  jobs: Record<string, { permissions?: Record<string, string>; steps: Step[] }>;
}

async function workflow(name: string): Promise<Workflow> {
  return parse(await Deno.readTextFile(`${root}.github/workflows/${name}`)) as Workflow;
}
const decoder = new TextDecoder();

/** The `compile` task's own command line, so the tests run exactly what `deno task compile` runs. */
function taskCommand(): string[] {
  const [deno, ...args] = config.tasks.compile.split(" ");
  assert.equal(deno, "deno");
  return args;
}

/** The environment without DENORT_BIN (or with the given one). */
function envWith(denort?: string): Record<string, string> {
  const env = Deno.env.toObject();
  delete env.DENORT_BIN;
  if (denort !== undefined) env.DENORT_BIN = denort;
  return { ...env, NO_COLOR: "1" };
}

interface ScriptRun {
  code: number;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Runs scripts/compile.ts as the task does, bounded so a hanging download cannot stall the suite. */
async function runScript(args: string[], env: Record<string, string>): Promise<ScriptRun> {
  const signal = AbortSignal.timeout(20_000);
  try {
    const output = await new Deno.Command(Deno.execPath(), {
      args: [...taskCommand(), ...args],
      cwd: root,
      env,
      clearEnv: true,
      stdin: "null",
      signal,
    }).output();
    return {
      code: output.code,
      stdout: decoder.decode(output.stdout),
      stderr: decoder.decode(output.stderr),
      timedOut: signal.aborted,
    };
  } catch (error) {
    if (signal.aborted) return { code: -1, stdout: "", stderr: "", timedOut: true };
    throw error;
  }
}

Deno.test("compileArgs: the exact deno compile arguments for every target", () => {
  assert.deepEqual([...TARGETS], [
    "x86_64-unknown-linux-gnu",
    "aarch64-unknown-linux-gnu",
    "x86_64-apple-darwin",
    "aarch64-apple-darwin",
    "x86_64-pc-windows-msvc",
  ]);
  for (const target of TARGETS) {
    const exe = target === "x86_64-pc-windows-msvc" ? ".exe" : "";
    assert.deepEqual(compileArgs(target, VERSION), [
      "compile",
      "--allow-net",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      "--v8-flags=--max-semi-space-size=4,--min-semi-space-size=4,--heap-growing-percent=30,--no-lazy",
      "--no-prompt",
      "--config",
      "deno.json",
      "--frozen",
      "--include",
      "cli/run/mod.ts",
      "--include",
      "cli/merge.ts",
      "--include",
      "cli/convert.ts",
      "--include",
      "cli/validate.ts",
      "--include",
      "cli/report.ts",
      "--include",
      "cli/send.ts",
      "--include",
      "cli/export.ts",
      "--include",
      "lib/run/workers/worker_main.ts",
      "--target",
      target,
      "--output",
      `dist/flowrun-${VERSION}-${target}${exe}`,
      "cli.ts",
    ]);
    assert.equal(binaryName(VERSION, target), `flowrun-${VERSION}-${target}${exe}`);
  }
  assert.deepEqual(
    compileArgs("aarch64-apple-darwin", "9.8.7", { outDir: "/tmp/out/", entry: "x.ts" }).slice(-2),
    ["/tmp/out/flowrun-9.8.7-aarch64-apple-darwin", "x.ts"],
  );
});

Deno.test("compileArgs: exactly the runner's permissions, nothing broader", () => {
  assert.deepEqual([...RUNNER_PERMISSIONS], [
    "--allow-net",
    "--allow-read",
    "--allow-write",
    "--allow-env",
  ]);
  for (const target of TARGETS) {
    const args = compileArgs(target, VERSION);
    const permissions = args.filter((arg) => /^-(A|-allow|-deny|-permission|P)/.test(arg));
    assert.deepEqual(permissions, [...RUNNER_PERMISSIONS], target);
    for (const broad of ["-A", "--allow-all", "--allow-run", "--allow-ffi", "--allow-sys"]) {
      assert.ok(!args.some((arg) => arg.startsWith(broad)), `${target}: no ${broad}`);
    }
    // Unscoped grants: a scoped one (--allow-read=/x) would break reading flows anywhere.
    assert.ok(!args.some((arg) => arg.startsWith("--allow-") && arg.includes("=")));
  }
});

Deno.test("the binaries take their version from deno.json", async () => {
  const text = JSON.parse(await Deno.readTextFile(`${root}deno.json`));
  assert.equal(VERSION, text.version);
  assert.match(VERSION, /^\d+\.\d+\.\d+(-[\w.]+)?$/);
  assert.ok(
    compileArgs("x86_64-unknown-linux-gnu", VERSION).includes(
      `dist/flowrun-${text.version}-x86_64-unknown-linux-gnu`,
    ),
  );
});

Deno.test("executableTarget reads the target of ELF, Mach-O and PE headers", () => {
  const elf = (machine: number) => {
    const bytes = new Uint8Array(64);
    bytes.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]);
    new DataView(bytes.buffer).setUint16(18, machine, true);
    return bytes;
  };
  const macho = (cpu: number) => {
    const bytes = new Uint8Array(32);
    new DataView(bytes.buffer).setUint32(0, 0xfeedfacf, true);
    new DataView(bytes.buffer).setUint32(4, cpu, true);
    return bytes;
  };
  const pe = (machine: number) => {
    const bytes = new Uint8Array(256);
    const view = new DataView(bytes.buffer);
    bytes.set([0x4d, 0x5a]);
    view.setUint32(0x3c, 0x80, true);
    bytes.set([0x50, 0x45, 0, 0], 0x80);
    view.setUint16(0x84, machine, true);
    return bytes;
  };
  const cases: [Uint8Array, Target | undefined][] = [
    [elf(0x3e), "x86_64-unknown-linux-gnu"],
    [elf(0xb7), "aarch64-unknown-linux-gnu"],
    [elf(0x28), undefined], // 32-bit ARM: not a target
    [macho(0x01000007), "x86_64-apple-darwin"],
    [macho(0x0100000c), "aarch64-apple-darwin"],
    [pe(0x8664), "x86_64-pc-windows-msvc"],
    [pe(0x014c), undefined], // i386
    [new TextEncoder().encode("#!/bin/sh\n"), undefined],
    [new Uint8Array(0), undefined],
  ];
  for (const [bytes, target] of cases) assert.equal(executableTarget(bytes), target);
});

Deno.test("executableTarget knows the deno running this test", async () => {
  using file = await Deno.open(Deno.execPath());
  const header = new Uint8Array(4096);
  const read = await file.read(header) ?? 0;
  const host = (TARGETS as readonly string[]).includes(Deno.build.target)
    ? Deno.build.target
    : undefined;
  assert.equal(executableTarget(header.subarray(0, read)), host);
});

Deno.test("sha256sums: known digests, sorted, in sha256sum's format", async () => {
  const encode = (text: string) => new TextEncoder().encode(text);
  const files = [
    { name: "flowrun-b", bytes: encode("abc") },
    { name: "flowrun-a.exe", bytes: encode("") },
  ];
  const text = sha256sums(files);
  assert.equal(
    text,
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  flowrun-a.exe\n" +
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  flowrun-b\n",
  );
  assert.equal(sha256sums([]), "");
  for (const line of text.trimEnd().split("\n")) assert.match(line, /^[0-9a-f]{64} {2}\S+$/);

  // Prove the format with the real tool where it exists (CI has coreutils).
  const dir = await Deno.makeTempDir({ prefix: "flowrun-sums-" });
  try {
    for (const file of files) await Deno.writeFile(`${dir}/${file.name}`, file.bytes);
    await Deno.writeTextFile(`${dir}/SHA256SUMS`, text);
    let output: Deno.CommandOutput | undefined;
    try {
      output = await new Deno.Command("sha256sum", { args: ["-c", "SHA256SUMS"], cwd: dir })
        .output();
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    if (output) {
      assert.equal(output.code, 0, decoder.decode(output.stderr));
      assert.equal(decoder.decode(output.stdout), "flowrun-a.exe: OK\nflowrun-b: OK\n");
      // And it notices a changed file.
      await Deno.writeTextFile(`${dir}/flowrun-b`, "abd");
      const bad = await new Deno.Command("sha256sum", { args: ["-c", "SHA256SUMS"], cwd: dir })
        .output();
      assert.equal(bad.code, 1);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task compile --dry-run prints one deno compile command per target", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["task", "compile", "--dry-run"],
    cwd: root,
    env: envWith(),
    clearEnv: true,
    stdin: "null",
  }).output();
  const stdout = decoder.decode(output.stdout);
  assert.equal(output.code, 0, decoder.decode(output.stderr));
  assert.deepEqual(
    stdout.trimEnd().split("\n"),
    TARGETS.map((target) => ["deno", ...compileArgs(target, VERSION)].join(" ")),
  );
});

Deno.test("compile: --target selects targets and wrong arguments fail in one sentence", async () => {
  const outDir = `${await Deno.makeTempDir({ prefix: "flowrun-dry-" })}/dist`;
  const one = await runScript(
    ["--dry-run", "--target", "aarch64-apple-darwin", "--target=x86_64-pc-windows-msvc"]
      .concat(["--out-dir", outDir]),
    envWith(),
  );
  assert.equal(one.code, 0, one.stderr);
  assert.deepEqual(one.stdout.trimEnd().split("\n"), [
    ["deno", ...compileArgs("aarch64-apple-darwin", VERSION, { outDir })].join(" "),
    ["deno", ...compileArgs("x86_64-pc-windows-msvc", VERSION, { outDir })].join(" "),
  ]);
  assert.ok(!(await exists(outDir)), "a dry run builds nothing");
  await Deno.remove(outDir.slice(0, -"/dist".length), { recursive: true });
  for (const args of [["--target", "sparc-sun-solaris"], ["--target"], ["--bogus"]]) {
    const run = await runScript(["--dry-run", ...args], envWith());
    assert.equal(run.code, 2, args.join(" "));
    assert.equal(run.stderr.split("\n").length, 2, run.stderr);
    assert.doesNotMatch(run.stderr, /\n\s+at /);
  }
});

Deno.test("compile: one DENORT_BIN builds only its own target", async () => {
  // The deno running the tests stands in for a denort here: only its header is read.
  const host = Deno.build.target as Target;
  const alone = await runScript(["--dry-run"], envWith(Deno.execPath()));
  assert.equal(alone.code, 0, alone.stderr);
  assert.deepEqual(alone.stdout.trimEnd().split("\n"), [
    ["deno", ...compileArgs(host, VERSION)].join(" "),
  ]);
  const other = TARGETS.find((target) => target !== host)!;
  const wrong = await runScript(["--dry-run", "--target", other], envWith(Deno.execPath()));
  assert.equal(wrong.code, 2);
  assert.match(wrong.stderr, /^DENORT_BIN is the runtime of one target .*--target .*\.\n$/);
  const missing = await runScript(["--dry-run"], envWith(`${root}no-such-denort`));
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /^DENORT_BIN is set to ".*no-such-denort", which cannot be read/);
});

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

/**
 * Whether a runtime is available, found out once by building the host binary
 * without DENORT_BIN: offline this fails in about two seconds.
 */
const hostTarget = (TARGETS as readonly string[]).includes(Deno.build.target)
  ? Deno.build.target as Target
  : undefined;
const probeDir = await Deno.makeTempDir({ prefix: "flowrun-compile-" });
const probe = hostTarget
  ? await runScript(["--target", hostTarget, "--out-dir", probeDir], envWith())
  : undefined;
const builtHere = probe?.code === 0;
const denortBin = Deno.env.get("DENORT_BIN");
const denortGiven = denortBin !== undefined && await exists(denortBin);
if (!builtHere && !denortGiven) await Deno.remove(probeDir, { recursive: true });

Deno.test({
  name:
    "compile: a missing runtime fails in one sentence naming DENORT_BIN, without a stack trace" +
    (probe === undefined
      ? ` [ignored: ${Deno.build.target} is not a release target]`
      : builtHere
      ? " [ignored: this machine has a runtime]"
      : probe.timedOut
      ? " [ignored: the runtime download neither failed nor ended within 20 s]"
      : ""),
  // A download that hangs is "no runtime" too, but leaves no message to check.
  ignore: builtHere || probe === undefined || probe.timedOut,
  fn() {
    assert.ok(probe);
    assert.equal(probe.code, 1, probe.stderr);
    assert.equal(probe.stdout, `building ${binaryName(VERSION, hostTarget!)}\n`);
    assert.equal(
      probe.stderr,
      `deno compile could not get its runtime (denort) for ${hostTarget}: this machine cannot download it; set DENORT_BIN to a local denort binary for that target and run again.\n`,
    );
    assert.doesNotMatch(probe.stderr, /Stack backtrace|\n\s+at |Caused by/);
  },
});

const runtime = builtHere ? "the host compile succeeded" : denortGiven ? "DENORT_BIN" : undefined;

Deno.test({
  name: runtime
    ? `compile: the built binary reports its version and runs flows (runtime: ${runtime})`
    : "compile: the built binary reports its version and runs flows [ignored: no denort runtime: set DENORT_BIN]",
  ignore: runtime === undefined || hostTarget === undefined,
  async fn() {
    const target = hostTarget!;
    try {
      if (!builtHere) {
        const build = await runScript(
          ["--target", target, "--out-dir", probeDir],
          envWith(denortBin),
        );
        assert.equal(build.code, 0, build.stderr);
      }
      const bin = `${probeDir}/${binaryName(VERSION, target)}`;
      const sums = await Deno.readTextFile(`${probeDir}/SHA256SUMS`);
      assert.equal(
        sums,
        sha256sums([{ name: binaryName(VERSION, target), bytes: await Deno.readFile(bin) }]),
      );

      const run = async (args: string[]) => {
        const output = await new Deno.Command(bin, {
          args,
          cwd: probeDir,
          env: { NO_COLOR: "1" },
          stdin: "null",
          signal: AbortSignal.timeout(20_000),
        }).output();
        return {
          code: output.code,
          stdout: decoder.decode(output.stdout),
          stderr: decoder.decode(output.stderr),
        };
      };
      const version = await run(["--version"]);
      assert.equal(version.code, 0, version.stderr);
      assert.match(
        version.stdout,
        new RegExp(
          `^flowrun ${VERSION.replaceAll(".", "\\.")} \\(deno \\d+\\.\\d+\\.\\d+, ${target}\\)\\n$`,
        ),
      );

      await using server = Deno.serve(
        { hostname: "127.0.0.1", port: 0, onListen() {} },
        () => Response.json({ ok: true }),
      );
      const base = `http://127.0.0.1:${server.addr.port}`;
      const flow = (name: string, body: string) =>
        Deno.writeTextFile(`${probeDir}/${name}.yaml`, `name: ${name}\n${body}`);
      await flow(
        "passing",
        `steps:\n  - name: ping\n    request:\n      url: ${base}/ping\n    assert:\n      status: 200\n      json:\n        - { path: $.json.ok, equals: true }\n`,
      );
      await flow(
        "failing",
        `steps:\n  - name: ping\n    request:\n      url: ${base}/ping\n    assert:\n      json:\n        - { path: $.json.ok, equals: false }\n`,
      );
      await flow(
        "invalid",
        `steps:\n  - name: ping\n    request: { url: ${base}/ping }\n    captures: {}\n`,
      );

      const passed = await run(["run", "passing.yaml", "--out-dir", "out"]);
      assert.equal(passed.code, 0, passed.stdout + passed.stderr);
      const report = JSON.parse(await Deno.readTextFile(`${probeDir}/out/report.json`));
      assert.equal(report.runner_version, VERSION);
      assert.equal((await run(["run", "failing.yaml"])).code, 1);
      const invalid = await run(["run", "invalid.yaml"]);
      assert.equal(invalid.code, 2);
      assert.match(invalid.stdout + invalid.stderr, /unknown-key/);
    } finally {
      await Deno.remove(probeDir, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test("ci.yml runs .ci/run with the Deno version from .deno-version", async () => {
  const ci = await workflow("ci.yml");
  assert.ok(ci.on.push !== undefined && ci.on.pull_request !== undefined, "push and pull_request");
  const steps = Object.values(ci.jobs).flatMap((job) => job.steps);
  const setup = steps.find((step) => String(step.uses).startsWith("denoland/setup-deno@"));
  assert.ok(setup, "installs Deno with setup-deno");
  assert.equal(setup.uses, "denoland/setup-deno@v2");
  assert.equal(setup.with?.["deno-version-file"], ".deno-version");
  const run = steps.find((step) => /^bash \.ci\/run$/m.test(step.run ?? ""));
  assert.ok(run, "runs bash .ci/run");
  // Not root there: .ci/run installs its Debian packages through sudo, and uses the runner's Chrome.
  const script = await Deno.readTextFile(new URL("../../.ci/run", import.meta.url));
  assert.match(script, /sudo -n/, ".ci/run uses sudo when not root");
  assert.match(script, /apt_install libxml2-utils/, ".ci/run installs xmllint");
  assert.equal(
    (run as { env?: Record<string, string> }).env?.CHROMIUM_BIN,
    "/usr/bin/google-chrome",
  );
});

Deno.test("release.yml builds, checks and publishes a v* tag", async () => {
  const release = await workflow("release.yml");
  assert.deepEqual(release.on.push.tags, ["v*"]);
  const jobs = Object.values(release.jobs);
  const steps = jobs.flatMap((job) => job.steps);
  const runs = steps.map((step) => String(step.run ?? "")).join("\n");
  const setup = steps.find((step) => String(step.uses).startsWith("denoland/setup-deno@"));
  assert.equal(setup?.with?.["deno-version-file"], ".deno-version");
  assert.match(runs, /deno\.json/, "checks the tag against the deno.json version");
  assert.match(runs, /GITHUB_REF_NAME/);
  assert.match(runs, /^deno task compile$/m);
  assert.match(runs, /\.\/dist\/flowrun-\*-x86_64-unknown-linux-gnu --version/);
  assert.match(runs, /sha256sum -c SHA256SUMS/);
  assert.match(runs, /^deno publish\b/m);
  const publisher = steps.find((step) =>
    String(step.uses).startsWith("softprops/action-gh-release@")
  );
  assert.ok(publisher, "creates the GitHub release");
  const files = String(publisher.with?.files);
  assert.match(files, /dist\/SHA256SUMS/);
  assert.match(files, /dist\/flowrun-\*/);
  // OIDC for JSR and writing the release: granted where the job runs.
  const permissions = { ...release.permissions, ...jobs[0].permissions };
  assert.equal(permissions["id-token"], "write");
  assert.equal(permissions.contents, "write");
});

Deno.test("the heap flags ship everywhere the runner starts, and the pinned Deno knows them", async () => {
  for (const target of TARGETS) {
    const args = compileArgs(target, VERSION);
    assert.deepEqual(args.filter((arg) => arg.startsWith("--v8-flags")), [...RUNNER_V8_FLAGS]);
  }
  assert.ok(
    config.tasks.flowrun.split(" ").includes(RUNNER_V8_FLAGS[0]),
    "deno task flowrun starts the CLI as the binary does",
  );
  // V8 refuses a flag it does not know, so a Deno upgrade that drops one fails here.
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["eval", ...RUNNER_V8_FLAGS, "console.log('ok')"],
    env: { NO_COLOR: "1" },
  }).output();
  assert.equal(decoder.decode(output.stderr), "");
  assert.equal(decoder.decode(output.stdout), "ok\n");
  assert.equal(output.code, 0);
});

Deno.test("dynamic imports load lazily from source, and the binary still holds every module", async () => {
  // deno.json asks Deno not to prepare a literal import("…") with the module that holds it: a
  // one-request run then leaves the report writers and their packages unread.
  assert.deepEqual(config.unstable, ["lazy-dynamic-imports"]);
  // Deno skips those imports only in a graph it does not type-check: deno compile type-checks,
  // so its graph, and the binary, holds every module a dynamic import may need.
  for (const target of TARGETS) {
    const args = compileArgs(target, VERSION);
    assert.ok(
      !args.some((arg) => arg === "--no-check" || arg.startsWith("--no-check=")),
      args.join(" "),
    );
  }
  // The pinned Deno knows the setting: an unknown one is reported on stderr.
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--config", "deno.json", "-A", "cli.ts", "--version"],
    cwd: new URL("../../", import.meta.url),
    env: { NO_COLOR: "1" },
  }).output();
  assert.equal(decoder.decode(output.stderr), "");
  assert.equal(output.code, 0);
});
