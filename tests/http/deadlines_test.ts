import assert from "node:assert/strict";
import { Deadlines, requestDeadline } from "../../lib/http/deadlines.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { runFlows } from "../../lib/run/flows.ts";
import { HANG_MS } from "../support/timing.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test("deadlines expire in order, each once, and never after release or close", async () => {
  const deadlines = new Deadlines();
  const expired: string[] = [];
  const releaseLong = deadlines.watch(60_000, () => expired.push("long"));
  deadlines.watch(80, () => expired.push("second"));
  deadlines.watch(20, () => expired.push("first"));
  const released = deadlines.watch(40, () => expired.push("released"));
  released();
  await sleep(150);
  assert.deepEqual(expired, ["first", "second"]);
  releaseLong();
  deadlines.watch(30, () => expired.push("after close"));
  deadlines.close();
  await sleep(60);
  assert.deepEqual(expired, ["first", "second"]);
});

Deno.test("requests one after the other with the same timeout arm the timer once", () => {
  const original = AbortSignal.timeout;
  let armed = 0;
  AbortSignal.timeout = (ms: number) => {
    armed++;
    return original(ms);
  };
  const deadlines = new Deadlines();
  try {
    for (let i = 0; i < 1000; i++) deadlines.watch(30_000, () => {})();
    // A shorter deadline than the armed one re-arms.
    deadlines.watch(5_000, () => {})();
  } finally {
    AbortSignal.timeout = original;
    deadlines.close();
  }
  assert.equal(armed, 2);
});

Deno.test("an interrupt aborts every request in flight through one listener, none once released", () => {
  const run = new AbortController();
  const heard: string[] = [];
  const add = run.signal.addEventListener.bind(run.signal);
  const remove = run.signal.removeEventListener.bind(run.signal);
  run.signal.addEventListener = (...args: Parameters<typeof add>) => {
    heard.push("add");
    add(...args);
  };
  run.signal.removeEventListener = (...args: Parameters<typeof remove>) => {
    heard.push("remove");
    remove(...args);
  };
  const deadlines = new Deadlines();
  const requests = [1, 2, 3].map(() => requestDeadline(60_000, run.signal, deadlines));
  requests[2].release();
  run.abort("SIGINT");
  assert.deepEqual(requests.map((r) => r.signal.aborted), [true, true, false]);
  assert.equal(requests[0].signal.reason, "SIGINT");
  assert.ok(requests.every((r) => !r.timedOut()));
  // A request made after the interrupt starts aborted.
  const late = requestDeadline(60_000, run.signal, deadlines);
  assert.ok(late.signal.aborted && !late.timedOut());
  requests.forEach((r) => r.release());
  late.release();
  deadlines.close();
  assert.deepEqual(heard, ["add", "remove"]);
});

Deno.test("a closed run's timer keeps no process alive", async () => {
  // In a fresh process: arm for ten minutes, release, close; the process must end at once, far
  // inside the minute that tells a hang from a busy machine.
  const code = `import { Deadlines } from ${
    JSON.stringify(new URL("../../lib/http/deadlines.ts", import.meta.url).href)
  };
    const d = new Deadlines(); const release = d.watch(600_000, () => {}); d.watch(500_000, () => {});
    release(); d.close();`;
  const started = performance.now();
  const run = await new Deno.Command(Deno.execPath(), {
    args: ["eval", code],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(run.code, 0, new TextDecoder().decode(run.stderr));
  assert.ok(performance.now() - started < HANG_MS, "the process waited for the timer");
});

Deno.test("a run's requests still time out, and the run leaves no timer behind", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (request) => {
      if (new URL(request.url).pathname === "/slow") await sleep(2_000);
      return new Response("ok");
    },
  );
  const base = `http://127.0.0.1:${server.addr.port}`;
  try {
    const { flow } = loadFlow(
      `name: t\nsteps:\n  - name: fast\n    request: {url: "${base}/fast"}\n` +
        `  - name: slow\n    request: {url: "${base}/slow"}\n    options: {timeout: 150ms}\n`,
      "t.yaml",
    );
    const result = await runFlows([flow!], { runId: "r", timeoutMs: 10_000 });
    const [fast, slow] = result.flows[0].steps;
    assert.equal(fast.status, "passed");
    assert.equal(slow.status, "error");
    // The short deadline fired, not the run's: its own message says which, whatever the clock.
    assert.match(slow.message ?? "", /No complete response within 150 ms/);
  } finally {
    await server.shutdown();
  }
});
