/**
 * `flowrun export artillery` of a flow of gRPC steps of the four call
 * shapes and an HTTP step (tests/fixtures/export/kinds_grpc.yaml), run by
 * Artillery itself (2.0.34, installed once into the real servers' cache by
 * tests/real/servers.ts, as tests/export/artillery_kinds_test.ts does)
 * against grpc-js's atlas server the test starts on 127.0.0.1
 * (tests/fixtures/grpc/atlas_server.ts) and an HTTP endpoint that
 * records, per run id (one per virtual user), what the later HTTP step was
 * sent.
 *
 * The reference is `flowrun run` of the same flow: each virtual user must
 * make the same calls with the same metadata, the first call's capture
 * flowing into the bidirectional call's message and both captures into the
 * HTTP step's URL; the processor's metrics count the messages; a
 * deliberately failing check and an unreachable server fail the virtual
 * users in Artillery's JSON report as in `flowrun run`. The processor finds
 * grpc-js and proto-loader among Artillery's own dependencies: nothing is
 * installed beside the script. Slow (three Artillery runs).
 */
import assert from "node:assert/strict";
import { exportAndRun as exportAndRunIn } from "./artillery_cli.ts";
import { runCli } from "../support/cli.ts";
import { prepare } from "../real/servers.ts";
import { servedAtlas } from "../kinds/grpc/served.ts";
import { withServedOnce } from "../kinds/grpc/support.ts";

const ARTILLERY = { name: "artillery", version: "2.0.34" };
const installed = await prepare([ARTILLERY]);
const FIXTURES = new URL("../fixtures/export/", import.meta.url).pathname;
const TOKEN = "grpc-token-only-in-the-environment-8d2a";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Exports `flow` for `users` users, runs Artillery on it (killed after 120 s) with `env` only. */
const exportAndRun = (flow: string, users: number, env: Record<string, string>) =>
  exportAndRunIn(installed.install!.prefix, `${FIXTURES}${flow}`, users, env, TOKEN, [
    "artillery.yml",
    "flowrun-processor.js",
    "protos/1.json",
  ]);

/** The HTTP step's endpoint: each run id's query, in order. */
function startUse() {
  const seen = new Map<string, string[]>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const url = new URL(request.url);
    const run = request.headers.get("x-run") ?? "";
    seen.set(run, [...seen.get(run) ?? [], url.search]);
    return new Response("ok");
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, seen, close: () => server.shutdown() };
}

/** Starts both servers, runs `body`, stops them (once more if the gRPC one aborted: withServedOnce). */
async function withServers(
  body: (
    guide: Awaited<ReturnType<typeof servedAtlas>>,
    use: ReturnType<typeof startUse>,
  ) => Promise<void>,
): Promise<void> {
  await withServedOnce(() => servedAtlas(), async (guide) => {
    const use = startUse();
    try {
      await body(guide, use);
    } finally {
      await use.close();
    }
  });
}

const envOf = (target: string, http: string) => ({
  GRPC_TARGET: target,
  HTTP_URL: http,
  KINDS_TOKEN: TOKEN,
});

Deno.test(
  `each Artillery virtual user makes flowrun run's gRPC calls, captures flowing${installed.ignoredBecause}`,
  { ignore: installed.ignoredBecause !== "" },
  async () => {
    await withServers(async (guide, use) => {
      const env = envOf(`127.0.0.1:${guide.port}`, use.url);
      const run = await runCli(["run", `${FIXTURES}kinds_grpc.yaml`, "--run-id", "flowrun-run"], {
        env,
      });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const reference = guide.calls.splice(0);
      assert.equal(reference.length, 5);
      const used = use.seen.get("flowrun-run")!;
      assert.deepEqual(used, [
        `?place=${encodeURIComponent(PLACE)}&echoed=${encodeURIComponent(`echo: ${PLACE}`)}`,
      ]);
      use.seen.delete("flowrun-run");
      const artillery = await exportAndRun("kinds_grpc.yaml", 3, env);
      assert.equal(artillery.code, 0, artillery.output);
      // Each user made the same five calls, with the same metadata, in the same order.
      assert.equal(guide.calls.length, 3 * 5, JSON.stringify(guide.calls));
      const byMethod = (calls: typeof reference) =>
        calls.map((c) => `${c.method} ${c.authorization ?? "-"}`).sort();
      assert.deepEqual(byMethod(guide.calls), byMethod([...reference, ...reference, ...reference]));
      assert.equal(use.seen.size, 3, [...use.seen.keys()].join());
      for (const [runId, seen] of use.seen) {
        assert.match(runId, UUID, "each user's run id is its own");
        assert.deepEqual(seen, used, `user ${runId}`);
      }
      const c = artillery.counters;
      assert.equal(c["vusers.completed"], 3, artillery.output);
      assert.equal(c["vusers.failed"] ?? 0, 0);
      assert.equal(c["flowrun.grpc.area.received"], 3 * 3, "three places in the area");
      assert.equal(c["flowrun.grpc.trip.sent"], 3 * 3);
      assert.equal(c["flowrun.grpc.chat.received"], 3 * 2);
      // Place 4 checks, nowhere 2, area 2, trip 2, chat 2: for each user.
      assert.equal(c["flowrun.checks.ok"], 3 * 12, artillery.output);
      assert.equal(c["flowrun.checks.failed"] ?? 0, 0);
      assert.equal(c["plugins.expect.ok.statusCode"], 3, "the HTTP step's status check");
      for (const step of ["place", "nowhere", "area", "trip", "chat"]) {
        assert.equal(artillery.summaries[`flowrun.grpc.${step}`]?.count, 3, `a time per ${step}`);
      }
    });
  },
);

const PLACE = "Cedar Marsh Boardwalk and Heron Hide, Ardent Vale, east 14";

Deno.test(
  `a failing gRPC check and an unreachable server fail the virtual users in Artillery's report${installed.ignoredBecause}`,
  { ignore: installed.ignoredBecause !== "" },
  async () => {
    await withServers(async (guide, use) => {
      const env = envOf(`127.0.0.1:${guide.port}`, use.url);
      const run = await runCli(["run", `${FIXTURES}kinds_grpc_failing.yaml`], { env });
      assert.equal(run.code, 1, run.stdout + run.stderr);
      assert.equal(use.seen.size, 0, "flowrun run stops at the failed step");
      assert.equal(guide.calls.splice(0).length, 1);
      const failed = await exportAndRun("kinds_grpc_failing.yaml", 2, env);
      assert.notEqual(failed.code, 0, failed.output);
      assert.equal(failed.counters["vusers.failed"], 2, failed.output);
      assert.equal(failed.counters["vusers.completed"] ?? 0, 0);
      assert.equal(failed.counters["errors.Failed checks for request place"], 2);
      assert.equal(failed.counters["flowrun.checks.failed"], 2);
      assert.match(
        failed.output,
        new RegExp(`not ok place: \\$\\.json\\.name equals "Nowhere at all": got "${PLACE}"`),
      );
      assert.equal(guide.calls.length, 2, "each user called once");
      assert.equal(use.seen.size, 0, "as in flowrun run, no user went on");
      // A port nothing listens on: UNAVAILABLE, which flowrun run reports as a network error.
      const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
      const port = (closed.addr as Deno.NetAddr).port;
      closed.close();
      const unreachable = envOf(`127.0.0.1:${port}`, use.url);
      const refused = await runCli(["run", `${FIXTURES}kinds_grpc_failing.yaml`], {
        env: unreachable,
      });
      assert.equal(refused.code, 1, refused.stdout + refused.stderr);
      const down = await exportAndRun("kinds_grpc_failing.yaml", 2, unreachable);
      assert.equal(down.counters["vusers.failed"], 2, down.output);
      assert.equal(down.counters["flowrun.grpc.place.errors"], 2, down.output);
      assert.match(
        down.output,
        /not ok place: atlas\.Atlas\/GetPlace is unavailable \(UNAVAILABLE\)/,
      );
      assert.equal(use.seen.size, 0);
    });
  },
);
