/**
 * `flowrun export artillery` of gRPC steps that name no `.proto` files
 * (tests/fixtures/export/kinds_grpc_reflection.yaml), run by Artillery
 * itself (2.0.34, from the real servers' cache) against the official
 * reflection service the test starts on 127.0.0.1
 * (tests/fixtures/grpc_reflection/servers.ts), which requires the step's
 * token for reflection too. The reference is `flowrun run` of the same flow:
 * every virtual user's checks pass, and reflection is asked once per
 * process, not per user; a server without reflection fails each user with
 * flowrun's sentence in Artillery's report, Artillery itself ending as a
 * failed test (exit 21), not crashing. Slow (two Artillery runs).
 */
import assert from "node:assert/strict";
import { exportAndRun as exportAndRunIn } from "./artillery_cli.ts";
import { runCli } from "../support/cli.ts";
import { prepare } from "../real/servers.ts";
import { withServedOnce } from "../kinds/grpc/support.ts";
import { servedOfficial } from "../kinds/grpc/served.ts";

const installed = await prepare([{ name: "artillery", version: "2.0.34" }]);
const FIXTURES = new URL("../fixtures/export/", import.meta.url).pathname;
const FLOW = `${FIXTURES}kinds_grpc_reflection.yaml`;
const TOKEN = "reflected-token-artillery-4b7d";
const USERS = 6;

/** Exports the flow for `users` users and runs Artillery on it with `env` only. */
const exportAndRun = (users: number, env: Record<string, string>) =>
  exportAndRunIn(installed.install!.prefix, FLOW, users, env, TOKEN, [
    "artillery.yml",
    "flowrun-processor.js",
  ]);

const envOf = (target: string) => ({ GRPC_TARGET: target, KINDS_TOKEN: TOKEN });

Deno.test(
  `each Artillery virtual user calls the methods the server describes by reflection${installed.ignoredBecause}`,
  { ignore: installed.ignoredBecause !== "" },
  async () => {
    await withServedOnce(
      () => servedOfficial({ authorization: `Bearer ${TOKEN}` }),
      async (server) => {
        const env = envOf(server.target);
        const run = await runCli(["run", FLOW], { env });
        assert.equal(run.code, 0, run.stdout + run.stderr);
        // One reflection stream per service.
        assert.equal(server.asked.splice(0).length, 2);
        const artillery = await exportAndRun(USERS, env);
        assert.equal(artillery.code, 0, artillery.output);
        const c = artillery.counters;
        assert.equal(c["vusers.completed"], USERS, artillery.output);
        assert.equal(c["vusers.failed"] ?? 0, 0);
        assert.equal(c["flowrun.checks.ok"], USERS * 12, artillery.output);
        assert.equal(c["flowrun.checks.failed"] ?? 0, 0);
        assert.equal(artillery.summaries["flowrun.grpc.lookup"]?.count, USERS);
        assert.equal(artillery.summaries["flowrun.grpc.place"]?.count, USERS);
        // Asked once per process and service: two streams for each of Artillery's workers, which
        // are fewer than the users (the users here arrive within one second).
        const streams = server.asked.length;
        assert.ok(streams >= 2 && streams % 2 === 0 && streams < USERS * 2, `${streams} streams`);
        for (const question of server.asked) {
          assert.equal(
            question.authorization,
            `Bearer ${TOKEN}`,
          );
        }
      },
    );
  },
);

Deno.test(
  `a server without reflection fails each Artillery virtual user with flowrun run's sentence${installed.ignoredBecause}`,
  { ignore: installed.ignoredBecause !== "" },
  async () => {
    await withServedOnce(() => servedOfficial({ versions: [] }), async (server) => {
      const env = envOf(server.target);
      const run = await runCli(["run", FLOW], { env });
      assert.equal(run.code, 1, run.stdout + run.stderr);
      const sentence = `The server at ${server.target} does not offer server reflection ` +
        "(UNIMPLEMENTED); name the .proto files with proto:.";
      assert.ok(run.stdout.includes(sentence), run.stdout);
      const failed = await exportAndRun(2, env);
      assert.equal(failed.code, 21, failed.output);
      assert.equal(failed.counters["vusers.failed"], 2, failed.output);
      assert.equal(failed.counters["vusers.completed"] ?? 0, 0);
      assert.equal(failed.counters["flowrun.grpc.lookup.errors"], 2);
      assert.equal(failed.counters[`errors.The grpc step lookup failed: ${sentence}`], 2);
      assert.ok(failed.output.includes(`not ok lookup: ${sentence}`), failed.output);
    });
  },
);
