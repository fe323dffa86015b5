/**
 * Run by repeat_memory_test.ts with `--expose-gc`: runs a one-step flow N
 * times against a server on 127.0.0.1, with the `--repeat` fold and
 * without, and prints what each run leaves on the heap while its result is
 * still held (after a full collection), in bytes, as JSON.
 *
 * Usage: deno run -A --v8-flags=--expose-gc repeat_memory_child.ts N...
 */
import { loadFlow } from "../../../lib/load/load_flow.ts";
import { foldRepeats } from "../../../lib/report/repeat_fold.ts";
import { runFlows } from "../../../lib/run/flows.ts";
import { repeatFlows } from "../../../lib/run/repeat.ts";

const gc = (globalThis as unknown as { gc: () => void }).gc;
const server = Deno.serve(
  { hostname: "127.0.0.1", port: 0, onListen() {} },
  () => new Response("{}"),
);
const url = `http://127.0.0.1:${server.addr.port}/`;
const flow = () =>
  loadFlow(
    `name: m\nsteps:\n  - name: get\n    request: {url: "${url}"}\n    assert: {status: 200}\n`,
    "m.yaml",
  )
    .flow!;

/** The heap a run of `n` iterations leaves while its result (and the fold) are held. */
async function retained(n: number, folded: boolean): Promise<number> {
  gc();
  const before = Deno.memoryUsage().heapUsed;
  const fold = folded ? foldRepeats({}, { repeat: n, concurrency: 4 }) : undefined;
  const ran = await runFlows(repeatFlows([flow()], n), {
    runId: "m",
    jobs: 4,
    compact: true,
    release: true,
    ...(fold ? { reporter: fold.reporter, unlisted: fold.unlisted } : {}),
  });
  const result = fold ? fold.fold(ran) : ran;
  gc();
  const after = Deno.memoryUsage().heapUsed;
  if (result.totals.flows.failed !== 0) throw new Error("a run failed");
  // Less than nothing is garbage of earlier runs collected now: this run left none of it.
  return Math.max(0, after - before);
}

const out: Record<string, number> = {};
// One warm-up run first: modules compiled and caches filled count for neither.
await retained(200, true);
await retained(200, false);
// Each the least of three: a collection's timing or a cache filling up once adds to one of them.
const least = async (n: number, folded: boolean) =>
  Math.min(await retained(n, folded), await retained(n, folded), await retained(n, folded));
for (const n of Deno.args.map(Number)) {
  out[`folded ${n}`] = await least(n, true);
  out[`plain ${n}`] = await least(n, false);
}
await server.shutdown();
console.log(JSON.stringify(out));
