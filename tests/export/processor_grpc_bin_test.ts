/**
 * The exported processor sends a `-bin` metadata value as the bytes its
 * base64 stands for, as `flowrun run` does (issue 55): before, it sent the
 * base64 text itself, so a server reading the bytes got other bytes than
 * under `flowrun run`. The server is grpc-js's, started here: its
 * GetPlace echoes each `-bin` metadata it got in its trailers, so the
 * step's check of the echoed trailer passes only when the bytes arrived.
 * The processor is driven in Node (tests/export/drive.ts) with grpc-js from
 * Artillery's install, beside `flowrun run` of the same flow.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { prepare } from "../real/servers.ts";
import { drive } from "./drive.ts";
import { flowDir } from "../kinds/grpc/support.ts";
import { served } from "../kinds/grpc/served.ts";

const installed = await prepare([{ name: "artillery", version: "2.0.34" }]);

const FLOW = `name: bin
steps:
  - name: place
    grpc:
      target: "\${ENV.GRPC_TARGET}"
      proto: protos/atlas.proto
      method: atlas.Atlas/GetPlace
      message: { latitude: 1, longitude: 2 }
      metadata: { x-trace-bin: "AAEC/w==", x-name-bin: "\${ENV.NAME_BIN}", x-plain: "AAEC/w==" }
    assert:
      status: 0
      headers: { x-trace-bin: "AAEC/w==", x-name-bin: "aMOpbGxv" }
`;

Deno.test(
  `the exported processor sends -bin metadata as its bytes, as flowrun run does${installed.ignoredBecause}`,
  { ignore: installed.ignoredBecause !== "" },
  async () => {
    const server = await served("echo");
    const dir = await flowDir(FLOW);
    try {
      // "héllo" in UTF-8: a byte above 127, which text metadata could not carry as itself.
      const env = { GRPC_TARGET: `127.0.0.1:${server.port}`, NAME_BIN: "aMOpbGxv" };
      const run = await runCli(["run", `${dir}/flow.yaml`], { env });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const bytes = ["x-name-bin 104,195,169,108,108,111", "x-trace-bin 0,1,2,255"];
      assert.deepEqual(server.got.splice(0).sort(), bytes);
      const { got, stdout } = await drive(installed.install!.prefix, `${dir}/flow.yaml`, env);
      assert.deepEqual(server.got.sort(), bytes, stdout);
      assert.equal(got.error, undefined, stdout);
      assert.equal(got.counters["flowrun.checks.failed"] ?? 0, 0, stdout);
      assert.equal(got.counters["flowrun.checks.ok"], 3, stdout);
    } finally {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test(
  `an expression's -bin value that is not base64 fails the processor's user in run's sentence, nothing sent${installed.ignoredBecause}`,
  { ignore: installed.ignoredBecause !== "" },
  async () => {
    const server = await served("echo");
    const dir = await flowDir(FLOW);
    try {
      const env = { GRPC_TARGET: `127.0.0.1:${server.port}`, NAME_BIN: "#nope#" };
      const sentence =
        /The value of "x-name-bin" is not base64 \(a -bin name carries bytes\): "#nope#"\./;
      const run = await runCli(["run", `${dir}/flow.yaml`], { env });
      assert.equal(run.code, 1, run.stdout + run.stderr);
      assert.match(run.stdout, sentence);
      const { got, stdout } = await drive(installed.install!.prefix, `${dir}/flow.yaml`, env);
      assert.match(got.error, /^The grpc step place failed: /, stdout);
      assert.match(got.error, sentence, stdout);
      assert.deepEqual(server.got, [], "nothing was sent");
    } finally {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
);
