/**
 * `runCommand` with real programs (Deno itself, `deno eval`): what it
 * prints, its exit code, the stdout cap, the end of stderr kept, a timeout
 * that kills (also when a grandchild holds the pipes open), a program that
 * does not exist, and the arguments given as they are, never to a shell.
 */
import assert from "node:assert/strict";
import { TIMING } from "../support/timing.ts";
import { CommandError, runCommand, type RunCommandOptions } from "../../lib/io/run_command.ts";

const DENO = Deno.execPath();
const OPTIONS = { timeoutMs: 20_000, maxStdoutBytes: 1024, maxStderrBytes: 64 };

function script(code: string): string[] {
  return [DENO, "eval", code];
}

async function failure(
  argv: string[],
  options: RunCommandOptions = OPTIONS,
): Promise<CommandError> {
  try {
    await runCommand(argv, options);
  } catch (error) {
    if (error instanceof CommandError) return error;
    throw error;
  }
  throw new Error("expected a CommandError");
}

Deno.test("stdout, the exit code and the end of stderr", async () => {
  const r = await runCommand(
    script("console.log('tok'); console.error('a'.repeat(100) + '\\nlast line'); Deno.exit(4)"),
    OPTIONS,
  );
  assert.equal(r.code, 4);
  assert.equal(r.stdout, "tok\n");
  assert.equal(r.stderr.length, 64);
  assert.ok(r.stderr.endsWith("a\nlast line\n"), r.stderr);
});

Deno.test("arguments reach the program as they are: no shell reads them", async () => {
  const tricky = "$(touch /tmp/flowrun-pwned) `id` ; | & > x 'q' \"d\"";
  const r = await runCommand(
    script("console.log(JSON.stringify(Deno.args))").concat(tricky),
    OPTIONS,
  );
  assert.deepEqual(JSON.parse(r.stdout), [tricky]);
});

Deno.test("more stdout than the cap kills the program", async () => {
  const e = await failure(
    script("console.log('x'.repeat(5000)); await new Promise((r) => setTimeout(r, 30000))"),
  );
  assert.equal(e.code, "command-output");
  assert.match(e.message, /printed more than 1 KiB and was killed/);
});

Deno.test(`past the deadline the program is killed, also when a grandchild keeps the pipes ${TIMING}`, async () => {
  const started = performance.now();
  const e = await failure(script("await new Promise((r) => setTimeout(r, 30000))"), {
    ...OPTIONS,
    timeoutMs: 300,
  });
  assert.equal(e.code, "command-timeout");
  assert.match(e.message, /ran longer than 300 ms and was killed/);
  // A grandchild that inherits stdout and outlives its parent: the read must still end.
  const orphan =
    `new Deno.Command(Deno.execPath(), { args: ["eval", "await new Promise((r) => setTimeout(r, 8000))"], stdout: "inherit", stderr: "inherit" }).spawn(); console.error("spawned"); await new Promise((r) => setTimeout(r, 30000));`;
  const g = await failure(script(orphan), { ...OPTIONS, timeoutMs: 1500 });
  assert.equal(g.code, "command-timeout");
  assert.ok(performance.now() - started < 7000, "the reads ended with the kill");
});

Deno.test("an interrupt kills the program", async () => {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 200);
  const e = await failure(script("await new Promise((r) => setTimeout(r, 30000))"), {
    ...OPTIONS,
    signal: controller.signal,
  });
  assert.equal(e.code, "command-interrupted");
});

Deno.test("a program that does not exist", async () => {
  const e = await failure(["flowrun-surely-no-such-program"]);
  assert.equal(e.code, "command-not-found");
  assert.equal(
    e.message,
    'The program "flowrun-surely-no-such-program" was not found (not on PATH, nor a file at that path).',
  );
});

/** Resolves once `path` exists (at most 3,000 looks, 10 ms apart). */
async function waitForFile(path: string): Promise<void> {
  for (let look = 0; look < 3000; look++) {
    if (await Deno.stat(path).then(() => true, () => false)) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`${path} never appeared`);
}

/** Whether a process is still running (a zombie waiting to be reaped is not). */
async function running(pid: number): Promise<boolean> {
  try {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
    return !/^\d+ \(.*\) [ZX]/.test(stat);
  } catch {
    return false;
  }
}

Deno.test({
  name:
    "the program's whole process group ends with it: a child it left behind does not outlive it",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    // Seen: a token command `sh -c "…; sleep …"` left its sleep running after flowrun ended.
    const dir = await Deno.makeTempDir();
    try {
      // The interrupt comes once the background child exists (a handshake on its pid file, not
      // a delay a busy machine may outrun); the deadline leaves it seconds to start.
      const interrupt = new AbortController();
      const cases: [string, RunCommandOptions, string | undefined][] = [
        ["echo tok", OPTIONS, undefined],
        ["sleep 300", { ...OPTIONS, timeoutMs: 3000 }, "command-timeout"],
        ["sleep 300", { ...OPTIONS, signal: interrupt.signal }, "command-interrupted"],
      ];
      for (const [i, [tail, options, code]] of cases.entries()) {
        const pidFile = `${dir}/pid${i}`;
        const argv = [
          "sh",
          "-c",
          `sleep 300 & echo $! > ${pidFile}.tmp; mv ${pidFile}.tmp ${pidFile}; ${tail}`,
        ];
        const started = options.signal
          ? waitForFile(pidFile).then(() => interrupt.abort())
          : undefined;
        if (code === undefined) assert.equal((await runCommand(argv, options)).stdout, "tok\n");
        else assert.equal((await failure(argv, options)).code, code);
        await started;
        const pid = Number(await Deno.readTextFile(pidFile));
        let alive = true;
        // Killed at once; its reaping by init may take a moment: up to 1,000 looks.
        for (let look = 0; look < 1000 && alive; look++) {
          alive = await running(pid);
          if (alive) await new Promise((r) => setTimeout(r, 10));
        }
        assert.ok(!alive, `${tail}: the background sleep ${pid} still runs`);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
