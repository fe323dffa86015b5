/**
 * Reports are never lost or stale, whatever happens around the run: a
 * console closed by its reader, flow files with problems, a filter that
 * selects nothing, signals at any moment (while loading, while running,
 * while writing reports), and an artifact that cannot be written. Each test
 * asserts the exit code, one plain message without a stack trace, and that
 * every other requested artifact exists and parses.
 */
import assert from "node:assert/strict";
import { XMLValidator } from "fast-xml-parser";
import { runCli, spawnCli } from "../support/cli.ts";

const decoder = new TextDecoder();

/** A local API; each request waits `delayMs` so runs last long enough to interrupt. */
function api(delayMs = 0) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async () => {
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
    return Response.json({ ok: true, padding: "x".repeat(200) });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

async function writeFlows(dir: string, count: number, url: string): Promise<void> {
  await Deno.mkdir(`${dir}/flows`, { recursive: true });
  for (let i = 0; i < count; i++) {
    await Deno.writeTextFile(
      `${dir}/flows/f${String(i).padStart(4, "0")}.yaml`,
      `name: flow ${i}\nsteps:\n  - name: one\n    request: {url: "${url}/a"}\n    assert: {status: 200}\n  - name: two\n    request: {url: "${url}/b"}\n    assert: {status: 200}\n`,
    );
  }
}

/**
 * Every artifact of an --out-dir exists and parses, and with `har` the
 * `--report-har` written beside them; returns the JSON report.
 */
async function assertArtifacts(out: string, har = false): Promise<Record<string, unknown>> {
  const junit = await Deno.readTextFile(`${out}/junit.xml`);
  assert.equal(XMLValidator.validate(junit), true, "junit.xml is well-formed");
  const report = JSON.parse(await Deno.readTextFile(`${out}/report.json`));
  const manifest = JSON.parse(await Deno.readTextFile(`${out}/manifest.json`));
  assert.equal(typeof manifest.exit_code, "number");
  const html = await Deno.readTextFile(`${out}/report.html`);
  assert.ok(html.trimEnd().endsWith("</html>"), "report.html is complete");
  const log = (await Deno.readTextFile(`${out}/run.log.ndjson`)).trimEnd().split("\n");
  for (const line of log) JSON.parse(line);
  assert.equal(JSON.parse(log[0]).event, "run_start");
  assert.equal(JSON.parse(log.at(-1)!).event, "run_end");
  if (har) {
    const { log } = JSON.parse(await Deno.readTextFile(`${out}/run.har`));
    assert.ok(Array.isArray(log.entries) && Array.isArray(log.pages), "run.har is complete");
  }
  return report;
}

function assertNoStack(stderr: string): void {
  assert.doesNotMatch(stderr, /internal error|^\s+at /m, stderr);
}

Deno.test("a console closed by its reader does not stop the run or its artifacts", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-robust-" });
  const server = api();
  try {
    await writeFlows(dir, 60, server.url);
    const child = spawnCli([
      "run",
      `${dir}/flows`,
      "--jobs",
      "1",
      "--verbose",
      "--out-dir",
      `${dir}/out`,
    ]);
    // Like `| head -1`: read one chunk, then close the pipe.
    const reader = child.stdout.getReader();
    await reader.read();
    await reader.cancel();
    const stderr = decoder.decode(await new Response(child.stderr).arrayBuffer());
    const { code } = await child.status;
    assert.equal(code, 0, stderr);
    assertNoStack(stderr);
    const report = await assertArtifacts(`${dir}/out`);
    assert.equal((report.totals as { flows: { passed: number } }).flows.passed, 60);

    // validate, too.
    const validate = spawnCli(["validate", `${dir}/flows`]);
    await validate.stdout.cancel();
    const checked = await validate.output();
    assert.equal(checked.code, 0);
    assertNoStack(decoder.decode(checked.stderr));
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("flow files with problems: exit 2, and every report says so instead of going stale", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-robust-" });
  try {
    await Deno.mkdir(`${dir}/out`);
    // Yesterday's green reports.
    await Deno.writeTextFile(`${dir}/out/junit.xml`, '<testsuites failures="0"/>');
    await Deno.writeTextFile(`${dir}/out/report.json`, '{"status":"passed"}');
    await Deno.mkdir(`${dir}/flows`);
    await Deno.writeTextFile(
      `${dir}/flows/good.yaml`,
      `name: good\nsteps:\n  - name: a\n    request: {url: "http://127.0.0.1:9/x"}\n`,
    );
    await Deno.writeTextFile(
      `${dir}/flows/bad.yaml`,
      `name: bad\nsteps:\n  - name: a\n    requests: {url: "http://127.0.0.1:9/x"}\n`,
    );
    const run = await runCli(["run", `${dir}/flows`, "--out-dir", `${dir}/out`]);
    assert.equal(run.code, 2, run.stderr);
    assertNoStack(run.stderr);
    const report = await assertArtifacts(`${dir}/out`) as {
      status: string;
      problems: { file: string; line: number; column: number; code: string }[];
      flows: { file: string; status: string; steps: { failure_kind: string; message: string }[] }[];
    };
    assert.equal(report.status, "failed");
    // "requests" is the missing "request": one problem, whose hint names the fix.
    assert.deepEqual(report.problems.map((p) => `${p.line}:${p.column} ${p.code}`), [
      "4:5 unknown-key",
    ]);
    const bad = report.flows.find((f) => f.file.endsWith("bad.yaml"))!;
    assert.equal(bad.status, "error");
    assert.deepEqual(bad.steps.map((s) => s.failure_kind), ["invalid"]);
    assert.equal(report.flows.find((f) => f.file.endsWith("good.yaml"))!.status, "skipped");
    const junit = await Deno.readTextFile(`${dir}/out/junit.xml`);
    assert.match(junit, /failures="0"|errors="[1-9]/);
    assert.match(junit, /bad\.yaml:4:5 Unknown key &quot;requests&quot;/);
    assert.match(await Deno.readTextFile(`${dir}/out/report.html`), /unknown-key/);
    assert.equal(JSON.parse(await Deno.readTextFile(`${dir}/out/manifest.json`)).exit_code, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a filter that selects nothing is an error with its own message, not a green run", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-robust-" });
  try {
    await writeFlows(dir, 3, "http://127.0.0.1:9");
    const run = await runCli([
      "run",
      `${dir}/flows`,
      "--filter",
      "flow 9*",
      "--out-dir",
      `${dir}/out`,
    ]);
    assert.equal(run.code, 2);
    assert.match(
      run.stderr,
      /^error\[no-match\]: --filter "flow 9\*" matched none of the 3 flow files/,
    );
    assertNoStack(run.stderr);
    const report = await assertArtifacts(`${dir}/out`) as { problems: { code: string }[] };
    assert.deepEqual(report.problems.map((p) => p.code), ["no-match"]);
    // An empty shard is not an error: more shards than files is a normal CI matrix.
    const shard = await runCli(["run", `${dir}/flows`, "--shard", "5/5"]);
    assert.equal(shard.code, 0, shard.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a misspelt --tag is an error with a did-you-mean, even when setup and teardown would run", async () => {
  // Seen: --tag smok ran only the setup and teardown flows, printed "2 flows: 2 passed", exit 0.
  const dir = await Deno.makeTempDir({ prefix: "flowrun-robust-" });
  const server = api();
  try {
    await writeFlows(dir, 2, server.url);
    const tagged = (name: string) =>
      `name: ${name}\ntags: [smoke, api]\nsteps:\n  - name: s\n    request: {url: "${server.url}"}\n`;
    await Deno.writeTextFile(`${dir}/flows/tagged.yaml`, tagged("tagged"));
    await Deno.writeTextFile(`${dir}/setup.yaml`, tagged("setup"));
    await Deno.writeTextFile(`${dir}/teardown.yaml`, tagged("teardown"));
    const special = ["--setup", `${dir}/setup.yaml`, "--teardown", `${dir}/teardown.yaml`];
    for (const command of ["run", "validate"]) {
      const run = await runCli([command, `${dir}/flows`, "--tag", "smok", ...special]);
      assert.equal(run.code, 2, `${command}: ${run.stdout}${run.stderr}`);
      const out = run.stdout + run.stderr;
      assert.match(out, /^error\[no-match\]: --tag "smok" matched none of the 3 flow files/m);
      assert.match(out, /hint: Did you mean "smoke" for "smok"\?/);
    }
    // The tag that exists runs its flow with the setup and teardown.
    const ok = await runCli(["run", `${dir}/flows`, "--tag", "smoke", ...special]);
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    // Without paths, the setup and teardown flows are the run, as before.
    const alone = await runCli(["run", ...special, "--tag", "smok"]);
    assert.equal(alone.code, 0, alone.stdout + alone.stderr);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--timeout beyond what a timer can wait is refused, not turned into 1 ms", async () => {
  for (const value of ["2147483648", "1e300", "9007199254740993", "1.5", "0x10"]) {
    const run = await runCli(["run", "examples/flows", "--timeout", value]);
    assert.equal(run.code, 2, value);
    assert.match(run.stderr, /^error\[bad-timeout\]/, value);
  }
});

Deno.test("a signal while flows load still writes every artifact and exits 130", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-robust-" });
  const server = api();
  try {
    await writeFlows(dir, 1500, server.url);
    const child = spawnCli([
      "run",
      `${dir}/flows`,
      "--out-dir",
      `${dir}/out`,
      "--report-har",
      `${dir}/out/run.har`,
    ], {
      env: {},
      stdout: "null",
    });
    // The output directory appears just before loading starts, after signals are handled.
    for (let i = 0; i < 400; i++) {
      if (await Deno.stat(`${dir}/out`).then(() => true, () => false)) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    child.kill("SIGINT");
    const { code, stderr } = await child.output();
    assert.equal(code, 130, decoder.decode(stderr));
    const report = await assertArtifacts(`${dir}/out`, true) as {
      interrupted: string;
      totals: { flows: { total: number; skipped: number } };
    };
    assert.equal(report.interrupted, "SIGINT");
    assert.equal(report.totals.flows.total, 1500);
    assert.ok(report.totals.flows.skipped > 1400, "almost nothing ran");
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("signals at random moments always leave every artifact, and the signal's exit code", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-robust-" });
  const server = api(15);
  let seed = 7;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  try {
    await writeFlows(dir, 30, server.url);
    for (let round = 0; round < 6; round++) {
      const signal = round % 2 === 0 ? "SIGINT" : "SIGTERM";
      const out = `${dir}/out${round}`;
      const child = spawnCli([
        "run",
        `${dir}/flows`,
        "--jobs",
        "2",
        "--out-dir",
        out,
        "--report-har",
        `${out}/run.har`,
      ], {
        env: {},
        stdout: "null",
      });
      for (let i = 0; i < 400; i++) {
        if (await Deno.stat(out).then(() => true, () => false)) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      // Anywhere from loading to the last report (the run takes about half a second).
      await new Promise((r) => setTimeout(r, random() * 700));
      try {
        child.kill(signal);
      } catch {
        // It already ended: the run finished before the signal.
      }
      const { code, stderr } = await child.output();
      const text = decoder.decode(stderr);
      assertNoStack(text);
      // A signal after the exit code was settled (the manifest written) only bounds the last
      // writes: the process exits with the code the manifest records (cli/signals.ts).
      const interrupted = text.includes(`${signal} received; finishing the run`);
      assert.equal(
        code,
        interrupted ? (signal === "SIGINT" ? 130 : 143) : 0,
        `round ${round}: ${text}`,
      );
      const report = await assertArtifacts(out, true) as { interrupted?: string };
      const manifest = JSON.parse(await Deno.readTextFile(`${out}/manifest.json`));
      assert.equal(manifest.exit_code, code, `round ${round}: the manifest has the exit code`);
      if (report.interrupted) assert.equal(report.interrupted, signal);
    }
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

const isRoot = Deno.uid?.() === 0;

Deno.test({
  name: `a full disk for the log: one sentence, the other artifacts written, exit 4${
    isRoot ? "" : " (ignored: mounting a tiny tmpfs needs root)"
  }`,
  ignore: !isRoot,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-robust-" });
    const tiny = `${dir}/tiny`;
    const server = api();
    await Deno.mkdir(tiny);
    const mount = await new Deno.Command("mount", {
      args: ["-t", "tmpfs", "-o", "size=16k", "tmpfs", tiny],
      stderr: "piped",
    }).output();
    assert.ok(mount.success, decoder.decode(mount.stderr));
    try {
      await writeFlows(dir, 40, server.url);
      const run = await runCli([
        "run",
        `${dir}/flows`,
        "--out-dir",
        `${dir}/out`,
        "--log-file",
        `${tiny}/run.log.ndjson`,
      ]);
      assert.equal(run.code, 4, run.stderr);
      assertNoStack(run.stderr);
      assert.match(
        run.stderr,
        /^flowrun: could not write the log "[^"]*tiny\/run\.log\.ndjson": No space left on device\.$/m,
      );
      assert.equal(run.stderr.trim().split("\n").length, 1, "one sentence");
      const report = JSON.parse(await Deno.readTextFile(`${dir}/out/report.json`));
      assert.equal(report.totals.flows.passed, 40, "the run went on");
      assert.equal(XMLValidator.validate(await Deno.readTextFile(`${dir}/out/junit.xml`)), true);
      const manifest = JSON.parse(await Deno.readTextFile(`${dir}/out/manifest.json`));
      assert.equal(manifest.exit_code, 4);
      assert.ok(!manifest.artifacts.some((a: { kind: string }) => a.kind === "log"));
    } finally {
      await new Deno.Command("umount", { args: [tiny] }).output();
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("a report path that is one of the flow files is refused before anything is sent", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-robust-" });
  try {
    await writeFlows(dir, 2, "http://127.0.0.1:9");
    const flow = `${dir}/flows/f0000.yaml`;
    const before = await Deno.readTextFile(flow);
    await Deno.symlink(flow, `${dir}/alias.json`);
    for (const target of [flow, `${dir}/flows/../flows/f0000.yaml`, `${dir}/alias.json`]) {
      const run = await runCli(["run", `${dir}/flows`, "--report-json", target]);
      assert.equal(run.code, 2, target);
      assert.match(
        run.stderr,
        /^error\[unwritable\]: Cannot write a report to ".*": it is the flow file/,
      );
      assert.equal(await Deno.readTextFile(flow), before, "the flow file is untouched");
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--max-body caps what a response may send: the step fails in plain words, the run goes on", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-robust-" });
  const big = "y".repeat(8 * 1024);
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (request) =>
      new URL(request.url).pathname === "/big" ? new Response(big) : Response.json({ ok: true }),
  );
  const url = `http://127.0.0.1:${server.addr.port}`;
  try {
    await Deno.mkdir(`${dir}/flows`);
    await Deno.writeTextFile(
      `${dir}/flows/a.yaml`,
      `name: a\nsteps:\n  - name: big\n    request: {url: "${url}/big"}\n`,
    );
    await Deno.writeTextFile(
      `${dir}/flows/b.yaml`,
      `name: b\nsteps:\n  - name: small\n    request: {url: "${url}/small"}\n`,
    );
    const run = await runCli([
      "run",
      `${dir}/flows`,
      "--max-body",
      "4KiB",
      "--report-json",
      `${dir}/r.json`,
    ]);
    assert.equal(run.code, 1, run.stderr);
    assertNoStack(run.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    assert.deepEqual(report.flows.map((f: { status: string }) => f.status), ["error", "passed"]);
    assert.match(report.flows[0].steps[0].message, /larger than/);
    assert.match(run.stdout, /--max-body 4KiB/, "the reproduce command keeps the cap");
    assert.equal((await runCli(["run", `${dir}/flows`, "--max-body", "8KiB"])).code, 0);
    for (const bad of ["10 megs", "12", "5GiB", "-1KiB"]) {
      const refused = await runCli(["run", `${dir}/flows`, `--max-body=${bad}`]);
      assert.equal(refused.code, 2, bad);
      assert.match(refused.stderr, /^error\[bad-max-body\]/, bad);
    }
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("one malformed long line or a thousand bad files give a short, positioned report", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-robust-" });
  try {
    for (const size of [10_000, 20_000, 60_000]) {
      const line = `  - {${"a: ], ".repeat(size / 6)}\n`;
      await Deno.writeTextFile(`${dir}/long.yaml`, `name: x\nsteps:\n${line}`);
      for (const command of ["validate", "run"]) {
        const run = await runCli([command, `${dir}/long.yaml`]);
        const output = run.stdout + run.stderr;
        assert.equal(run.code, 2, `${command} ${size}`);
        assertNoStack(output);
        assert.ok(output.length < 4000, `${command} ${size}: ${output.length} characters`);
        assert.match(output, /long\.yaml:3:\d+ error\[yaml-syntax\]/);
        assert.match(output, /\(\d+ more on this line, caused by it\)/);
        assert.match(output, /^1 problem in 1 file/m);
        // The caret still points under the column it names, inside the shown window.
        const [, column] = /long\.yaml:3:(\d+) /.exec(output)!;
        const [source, caret] = output.split("\n").filter((l) => /^\s*3? \|/.test(l)).slice(0, 2);
        const shown = source.slice(source.indexOf("|") + 2);
        const at = caret.indexOf("^") - caret.indexOf("|") - 2;
        assert.equal(shown[at], line[Number(column) - 1], `the caret is on column ${column}`);
      }
    }
    await Deno.mkdir(`${dir}/many`);
    for (let i = 0; i < 300; i++) {
      await Deno.writeTextFile(`${dir}/many/f${i}.yaml`, "name: x\nstep: []\n");
    }
    const many = await runCli(["validate", `${dir}/many`]);
    assert.equal(many.code, 2);
    assert.match(many.stdout, /… and 200 more problems \(the first 100 are shown/);
    assert.match(many.stdout, /300 problems in 300 files/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("devices, pipes and symlinks as report paths are written through, never replaced", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-robust-" });
  const server = api();
  try {
    await writeFlows(dir, 2, server.url);
    // A symlink to a report keeps being a symlink; its target gets the report.
    await Deno.writeTextFile(`${dir}/real.json`, "old");
    await Deno.symlink(`${dir}/real.json`, `${dir}/link.json`);
    await new Deno.Command("mkfifo", { args: [`${dir}/fifo`] }).output();
    const reader = new Deno.Command("cat", { args: [`${dir}/fifo`], stdout: "piped" }).spawn();
    const run = await runCli([
      "run",
      `${dir}/flows`,
      "--report-json",
      `${dir}/link.json`,
      "--report-junit",
      "/dev/null",
      "--log-file",
      "/dev/stdout",
      "--report-html",
      `${dir}/fifo`,
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.ok((await Deno.lstat(`${dir}/link.json`)).isSymlink, "the link is still a link");
    assert.equal(JSON.parse(await Deno.readTextFile(`${dir}/real.json`)).status, "passed");
    assert.ok((await Deno.lstat("/dev/null")).isCharDevice, "/dev/null is still a device");
    assert.ok((await Deno.lstat(`${dir}/fifo`)).isFifo, "the pipe is still a pipe");
    const html = new TextDecoder().decode((await reader.output()).stdout);
    assert.ok(html.trimEnd().endsWith("</html>"), "the HTML went through the pipe");
    const events = run.stdout.split("\n").filter((l) => l.startsWith('{"event"'));
    assert.equal(JSON.parse(events.at(-1)!).event, "run_end", "the log went to stdout");
    assert.equal(
      (await Array.fromAsync(Deno.readDir(dir))).filter((e) => /\.tmp$/.test(e.name)).length,
      0,
    );
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("two runs into one --out-dir: each manifest hashes the bytes that run wrote", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-robust-" });
  const server = api(5);
  try {
    await writeFlows(dir, 8, server.url);
    const [a, b] = await Promise.all(
      ["A", "B"].map((id) =>
        runCli([
          "run",
          `${dir}/flows`,
          "--out-dir",
          `${dir}/out`,
          "--run-id",
          id,
          "--manifest",
          `${dir}/m${id}.json`,
        ])
      ),
    );
    assert.equal(a.code, 0, a.stderr);
    assert.equal(b.code, 0, b.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/out/report.json`));
    const last = report.run_id as string;
    const { sha256Hex } = await import("../../lib/report/manifest.ts");
    for (const id of ["A", "B"]) {
      const manifest = JSON.parse(await Deno.readTextFile(`${dir}/m${id}.json`));
      const json = manifest.artifacts.find((x: { kind: string }) => x.kind === "json");
      const now = await sha256Hex(await Deno.readFile(`${dir}/out/report.json`));
      // The file on disk is whichever run renamed it last; only that run's manifest matches it.
      assert.equal(json.sha256 === now, id === last, `manifest ${id}`);
      assert.equal(manifest.run_id, id);
    }
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
