/**
 * The exported processor's gRPC call at the edges of the proto3 JSON
 * mapping and of its bounds, run in Node without Artillery
 * (tests/fixtures/export/drive_processor.cjs calls the scenario's
 * `function:` items in order, as Artillery does) against grpc-js's atlas
 * server (tests/fixtures/grpc/atlas_server.ts), beside `flowrun run`
 * of the same flow (tests/fixtures/export/kinds_grpc_edges.yaml): a message
 * of every mapping rule (a snake_case key, 64-bit integers as text, an enum
 * by name, bytes as base64, a map, Google's well-known types, a `.proto`
 * importing another) echoed by the Mirror, whose checks pass only where the
 * processor's JSON forms are flowrun's both ways; and a stream cut at
 * `max_messages`, which fails the step in both; a stream that never ends,
 * stopped by the step's timeout as its deadline. grpc-js, proto-loader and
 * protobufjs are the ones Artillery's install holds (NODE_PATH), as the
 * processor finds them there under Artillery.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { prepare } from "../real/servers.ts";
import { drive as driveIn } from "./drive.ts";
import { servedAtlas } from "../kinds/grpc/served.ts";

const installed = await prepare([{ name: "artillery", version: "2.0.34" }]);
const FIXTURES = new URL("../fixtures/export/", import.meta.url).pathname;

Deno.test(
  `the processor's gRPC calls map messages and stop streams as flowrun run does${installed.ignoredBecause}`,
  { ignore: installed.ignoredBecause !== "" },
  async () => {
    const server = await servedAtlas();
    try {
      const env = { GRPC_TARGET: `127.0.0.1:${server.port}` };
      const run = await runCli(["run", `${FIXTURES}kinds_grpc_edges.yaml`], { env });
      // The mirror's checks pass; the capped stream fails the flow.
      assert.equal(run.code, 1, run.stdout + run.stderr);
      assert.match(run.stdout, /✔ mirror/);
      assert.match(run.stdout, /brought more than 2 messages \(max_messages\)/);
      // The Mirror records no call; the atlas server does.
      assert.deepEqual(server.calls.splice(0).map((c) => c.method), ["ListPlaces"]);
      const { got, stdout } = await drive("kinds_grpc_edges.yaml", env);
      assert.deepEqual(server.calls.map((c) => c.method), ["ListPlaces"]);
      assert.match(
        stdout,
        /not ok capped: The stream of atlas\.Atlas\/ListPlaces brought more than 2 messages/,
      );
      // The mirror: its status and ten paths; the capped stream fails as in flowrun run.
      assert.equal(got.counters["flowrun.checks.ok"], 11, stdout);
      assert.equal(got.counters["flowrun.checks.failed"] ?? 0, 0, stdout);
      assert.equal(got.vars.f0_mirror__at, "2024-05-01T12:00:00.250Z");
      assert.equal(got.counters["flowrun.grpc.capped.received"], 2, stdout);
      assert.match(got.error, /Failed checks for request capped/, stdout);
    } finally {
      await server.close();
    }
  },
);

/** Exports `flow` and drives its items in Node: the driver's JSON line and all it printed. */
const drive = (flow: string, env: Record<string, string>) =>
  driveIn(installed.install!.prefix, flow, env);

Deno.test(
  `the processor's gRPC call ends at the step's timeout as flowrun run's does${installed.ignoredBecause}`,
  { ignore: installed.ignoredBecause !== "" },
  async () => {
    // The misbehaving atlas server's ListPlaces writes until the client goes away.
    const server = await servedAtlas({ bad: "unavailable-twice" });
    try {
      const env = { GRPC_TARGET: `127.0.0.1:${server.port}` };
      const run = await runCli(["run", `${FIXTURES}kinds_grpc_timeout.yaml`], { env });
      assert.equal(run.code, 1, run.stdout + run.stderr);
      const timedOut =
        /No end of atlas\.Atlas\/ListPlaces within 400 ms, the step's timeout \(\d+ messages? had arrived\)/;
      assert.match(run.stdout, timedOut);
      const { got, stdout } = await drive("kinds_grpc_timeout.yaml", env);
      assert.match(got.error, /^The grpc step endless failed: /, stdout);
      assert.match(got.error, timedOut, stdout);
      assert.equal(got.counters["flowrun.grpc.endless.errors"], 1, stdout);
      assert.equal(server.calls.length, 2, "one call each");
    } finally {
      await server.close();
    }
  },
);
