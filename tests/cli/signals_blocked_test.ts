/**
 * A signal ends a run within a second or two whatever it waits on: an
 * artifact written to a FIFO nobody reads (the JUnit or JSON report, the
 * log, the manifest, `$GITHUB_STEP_SUMMARY`) is given up a second after the
 * signal, named on stderr, and every other artifact is still written and
 * valid. Real FIFOs (`mkfifo`), the CLI as a subprocess, real signals; every
 * child is killed after a bound, so a hang fails the test, not the suite.
 */
import assert from "node:assert/strict";
import { HANG_MS } from "../support/timing.ts";
import { XMLValidator } from "fast-xml-parser";
import { spawnCli } from "../support/cli.ts";

/**
 * Whether a thread of `pid` waits on a FIFO: to open it (`wait_for_partner`)
 * or to write into it (`pipe_write`, `pipe_wait`). Linux, like `mkfifo`.
 */
async function waitsOnFifo(pid: number): Promise<boolean> {
  try {
    for await (const task of Deno.readDir(`/proc/${pid}/task`)) {
      const wchan = await Deno.readTextFile(`/proc/${pid}/task/${task.name}/wchan`).catch(() => "");
      if (/^(wait_for_partner|pipe_write|pipe_wait)$/.test(wchan.trim())) return true;
    }
  } catch {
    // The process is gone.
  }
  return false;
}

async function sleep(ms: number): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
}

/** Waits, at most `ms`, until `ready` holds. */
async function waitFor(ready: () => Promise<boolean> | boolean, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!(await ready())) {
    if (Date.now() > until) throw new Error("timed out waiting");
    await sleep(25);
  }
}

/** A local API whose every response waits `delayMs`. */
function api(delayMs: number) {
  let seen = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async () => {
    seen++;
    await sleep(delayMs);
    return Response.json({ ok: true });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    seen: () => seen,
    close: () => server.shutdown(),
  };
}

async function mkfifo(path: string): Promise<void> {
  const made = await new Deno.Command("mkfifo", { args: [path] }).output();
  assert.equal(made.code, 0, "mkfifo works here");
}

/** Spawns the CLI, sends SIGTERM once `ready`, and returns how long it took to exit after it. */
async function signalled(
  args: string[],
  // Deno's runtime catches SIGTERM from its start (SigCgt says nothing about the run's own
  // handler), so readiness is something the run did.
  options: { env?: Record<string, string>; ready: (pid: number) => Promise<boolean> | boolean },
) {
  const child = spawnCli(args, { env: options.env });
  // A hang guard: killed, the run would exit 137, never the code the tests expect.
  const killer = setTimeout(() => child.kill("SIGKILL"), HANG_MS);
  try {
    await waitFor(() => options.ready(child.pid), HANG_MS);
    const sent = performance.now();
    child.kill("SIGTERM");
    const output = await child.output();
    const ms = performance.now() - sent;
    const decoder = new TextDecoder();
    return {
      code: output.code,
      signal: output.signal,
      stdout: decoder.decode(output.stdout),
      stderr: decoder.decode(output.stderr),
      ms,
    };
  } finally {
    clearTimeout(killer);
  }
}

async function flowsIn(dir: string, url: string): Promise<string> {
  await Deno.mkdir(`${dir}/flows`);
  for (let i = 0; i < 3; i++) {
    await Deno.writeTextFile(
      `${dir}/flows/f${i}.yaml`,
      `name: flow ${i}\nsteps:\n  - name: one\n    request: {url: "${url}/a"}\n    assert: {status: 200}\n`,
    );
  }
  return `${dir}/flows`;
}

Deno.test("SIGTERM ends a run whose reports, log and job summary are FIFOs nobody reads, writing the rest", async () => {
  const server = api(400);
  const dir = await Deno.makeTempDir({ prefix: "flowrun-fifo-" });
  try {
    const flows = await flowsIn(dir, server.url);
    for (const name of ["junit", "log", "summary"]) await mkfifo(`${dir}/${name}.fifo`);
    const run = await signalled([
      "run",
      flows,
      "--out-dir",
      `${dir}/out`,
      "--report-junit",
      `${dir}/junit.fifo`,
      "--log-file",
      `${dir}/log.fifo`,
    ], {
      env: { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: `${dir}/summary.fifo` },
      // Opening the log waits for a reader, long after the run started listening for signals.
      ready: (pid) => waitsOnFifo(pid),
    });
    // Each FIFO's bounded wait is proven by its sentence below, not by a clock (issue 54).
    assert.equal(run.code, 143, run.stderr);
    assert.doesNotMatch(run.stderr, /internal error|\n\s+at /);
    assert.match(run.stderr, /JUnit report ".*junit\.fifo": Nothing took the bytes within 1 s/);
    assert.match(run.stderr, /log ".*log\.fifo": Nothing took the bytes within 1 s/);
    assert.match(run.stderr, /GITHUB_STEP_SUMMARY ".*summary\.fifo": Nothing took the bytes/);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/out/report.json`));
    assert.equal(report.interrupted, "SIGTERM");
    const html = await Deno.readTextFile(`${dir}/out/report.html`);
    assert.match(html, /<\/html>\s*$/);
    const manifest = JSON.parse(await Deno.readTextFile(`${dir}/out/manifest.json`));
    assert.equal(manifest.exit_code, 143);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("SIGTERM while the manifest waits for a FIFO's reader ends the run; the reports stay written", async () => {
  const server = api(0);
  const dir = await Deno.makeTempDir({ prefix: "flowrun-fifo-" });
  try {
    const flows = await flowsIn(dir, server.url);
    await mkfifo(`${dir}/manifest.fifo`);
    const run = await signalled([
      "run",
      flows,
      "--report-junit",
      `${dir}/junit.xml`,
      "--report-json",
      `${dir}/report.json`,
      "--manifest",
      `${dir}/manifest.fifo`,
    ], {
      // The reports are written just before the manifest, which then waits for a reader: a
      // handshake on the thread's wait, not 300 ms after the report appeared.
      ready: async (pid) => {
        try {
          await Deno.stat(`${dir}/report.json`);
          return await waitsOnFifo(pid);
        } catch {
          return false;
        }
      },
    });
    assert.doesNotMatch(run.stderr, /internal error|\n\s+at /);
    // The code was settled before the signal: the manifest, not written, makes it 4.
    assert.equal(run.code, 4, run.stderr);
    assert.match(run.stderr, /manifest ".*manifest\.fifo": Nothing took the bytes within 1 s/);
    assert.equal(JSON.parse(await Deno.readTextFile(`${dir}/report.json`)).status, "passed");
    assert.equal(XMLValidator.validate(await Deno.readTextFile(`${dir}/junit.xml`)), true);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
