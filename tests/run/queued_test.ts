/**
 * The queued reporter: hooks run a turn later, in order, while the runner has
 * already sent the next request; errors and back-pressure reach the runner.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { queueReporter } from "../../lib/run/queued.ts";
import type { Reporter } from "../../lib/model/events.ts";
import type { FlowResult } from "../../lib/model/result.ts";
import { runFlows } from "../../lib/run/flows.ts";

const ref = (name: string) => ({ file: `${name}.yaml`, name });

/** Ends a first flow: until then a queued reporter hands events over directly. */
async function opened<T extends Reporter>(queued: T): Promise<T> {
  await queued.onFlowEnd?.({ name: "first" } as FlowResult);
  return queued;
}

Deno.test("queued hooks run later, in the order called, and drained waits for them", async () => {
  const seen: string[] = [];
  const queued = await opened(queueReporter({
    onFlowStart: (f) => void seen.push(`start ${f.name}`),
    async onStepEnd(f, s) {
      await Promise.resolve();
      seen.push(`step ${f.name}/${s.name}`);
    },
    onRunEnd: () => void seen.push("end"),
  }));
  assert.equal(queued.onRequest, undefined, "a hook the reporter lacks stays absent");
  for (const name of ["a", "b", "c"]) {
    assert.equal(queued.onFlowStart?.(ref(name)), undefined);
    queued.onStepEnd?.(ref(name), { name: "s" } as never);
  }
  assert.deepEqual(seen, []);
  await queued.onRunEnd?.({} as never);
  assert.deepEqual(seen, [
    "start a",
    "step a/s",
    "start b",
    "step b/s",
    "start c",
    "step c/s",
    "end",
  ]);
  await queued.drained();
});

Deno.test("the first flow's events are handed over directly, then the queue opens", async () => {
  const seen: string[] = [];
  const queued = queueReporter({ onFlowStart: (f) => void seen.push(f.name) });
  queued.onFlowStart?.(ref("a"));
  assert.deepEqual(seen, ["a"], "direct before a flow has ended");
  assert.equal(typeof queued.onFlowEnd, "function", "present to open the queue");
  await queued.onFlowEnd?.({ name: "a" } as FlowResult);
  queued.onFlowStart?.(ref("b"));
  assert.deepEqual(seen, ["a"], "queued after");
  await queued.drained();
  assert.deepEqual(seen, ["a", "b"]);
});

Deno.test("a full queue makes the caller wait until it is worked off", async () => {
  let handled = 0;
  const queued = await opened(queueReporter({ onFlowStart: () => void handled++ }, 3));
  assert.equal(queued.onFlowStart?.(ref("a")), undefined);
  assert.equal(queued.onFlowStart?.(ref("b")), undefined);
  const wait = queued.onFlowStart?.(ref("c"));
  assert.ok(wait instanceof Promise, "the third event waits");
  assert.equal(handled, 0);
  await wait;
  assert.equal(handled, 3);
  await queued.drained();
});

Deno.test("an error a hook throws reaches the next call, drained and onRunEnd; later events are dropped", async () => {
  const seen: string[] = [];
  const queued = await opened(queueReporter({
    onFlowStart(f) {
      if (f.name === "b") throw new Error("disk full");
      seen.push(f.name);
    },
    onRunEnd: () => void seen.push("end"),
  }));
  queued.onFlowStart?.(ref("a"));
  queued.onFlowStart?.(ref("b"));
  queued.onFlowStart?.(ref("c"));
  await assert.rejects(queued.drained(), /disk full/);
  assert.deepEqual(seen, ["a"]);
  await assert.rejects(Promise.resolve(queued.onFlowStart?.(ref("d"))), /disk full/);
  await assert.rejects(Promise.resolve(queued.onRunEnd?.({} as never)), /disk full/);
  assert.deepEqual(seen, ["a"]);
});

/**
 * Whether the reporter, handling the end of step 1, sees the server receive
 * step 2's request: only when the runner did not wait for it. Bounded: a
 * runner that waits is seen after 1 s, never hangs.
 */
async function overlapSeen(overlapReporter: boolean): Promise<{ overlapped: boolean[] }> {
  const arrived: (() => void)[] = [];
  const arrival = (n: number) => new Promise<void>((resolve) => (arrived[n] = resolve));
  const waits = [arrival(1), arrival(2), arrival(3)];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    arrived[Number(new URL(request.url).pathname.slice(1))]?.();
    return Response.json({ ok: true });
  });
  const url = `http://127.0.0.1:${server.addr.port}`;
  const steps = [1, 2, 3].map((n) => `  - name: s${n}\n    request: {url: "${url}/${n}"}\n`);
  const { flow } = loadFlow(`name: overlap\nsteps:\n${steps.join("")}`, "overlap.yaml");
  // A first flow opens the queue (the first flow's events are handed over directly).
  const first = loadFlow(
    `name: first\nsteps:\n  - name: s0\n    request: {url: "${url}/0"}\n`,
    "first.yaml",
  );
  const overlapped: boolean[] = [];
  const reporter: Reporter = {
    async onStepEnd(_flow, step) {
      const next = Number(step.name.slice(1));
      if (next === 0 || next >= 3) return;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const bound = new Promise<boolean>((resolve) => (timer = setTimeout(resolve, 1000, false)));
      overlapped.push(await Promise.race([waits[next].then(() => true), bound]));
      clearTimeout(timer);
    },
  };
  try {
    const result = await runFlows([first.flow!, flow!], { jobs: 1, reporter, overlapReporter });
    assert.equal(result.status, "passed");
  } finally {
    await server.shutdown();
  }
  return { overlapped };
}

Deno.test("with overlapReporter the next request is sent while the reporter handles a step", async () => {
  assert.deepEqual(await overlapSeen(true), { overlapped: [true, true] });
  // The same check fails when the runner waits for its reporter.
  assert.deepEqual(await overlapSeen(false), { overlapped: [false, false] });
});

Deno.test("with overlapReporter, runFlows returns after every event, with the hook's error", async () => {
  const seen: string[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("ok"),
  );
  const url = `http://127.0.0.1:${server.addr.port}`;
  const flows = ["a", "b", "c"].map((name) =>
    loadFlow(`name: ${name}\nsteps:\n  - name: get\n    request: {url: "${url}"}\n`, `${name}.yaml`)
      .flow!
  );
  try {
    const result = await runFlows(flows, {
      jobs: 1,
      overlapReporter: true,
      compact: true,
      reporter: { onFlowEnd: (f) => void seen.push(`${f.name}:${f.steps.length}`) },
    });
    assert.deepEqual(seen, ["a:1", "b:1", "c:1"]);
    assert.equal(result.totals.steps.passed, 3);
    await assert.rejects(
      runFlows(flows, {
        jobs: 1,
        overlapReporter: true,
        reporter: {
          onFlowEnd(f) {
            if (f.name === "b") throw new Error("report failed");
          },
        },
      }),
      /report failed/,
    );
  } finally {
    await server.shutdown();
  }
});
