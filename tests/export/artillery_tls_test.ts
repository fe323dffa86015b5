/**
 * `flowrun export artillery --cacert --cert --key` of an SSE, a WebSocket,
 * a gRPC and an HTTP step (tests/fixtures/export/kinds_tls.yaml), run by Artillery
 * itself (2.0.34, from the real servers' cache) against servers on
 * 127.0.0.1 whose certificates a private CA made by the test signed, the
 * gRPC one asking for a client certificate (tests/export/kinds_server.ts,
 * tests/export/tls_guide.ts): every virtual user passes, as `flowrun run`
 * with the same options does (the HTTP request, Artillery's own, trusting
 * the CA through NODE_EXTRA_CA_CERTS, as the summary says), and the client
 * key's text is in neither the script nor the processor. Slow (one Artillery run).
 */
import assert from "node:assert/strict";
import { exportAndRun } from "./artillery_cli.ts";
import { runCli } from "../support/cli.ts";
import { hasOpenssl, makeCertificates } from "../support/tls.ts";
import { prepare } from "../real/servers.ts";
import { startKindsServer } from "./kinds_server.ts";
import { served } from "../kinds/grpc/served.ts";

const installed = await prepare([{ name: "artillery", version: "2.0.34" }]);
const FLOW = new URL("../fixtures/export/kinds_tls.yaml", import.meta.url).pathname;
const skip = installed.ignoredBecause || (hasOpenssl() ? "" : " (ignored: no openssl)");
const USERS = 3;

Deno.test(
  `each Artillery virtual user's WebSocket, SSE and gRPC steps take the CA and client certificate given when exporting${skip}`,
  { ignore: skip !== "" },
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-artillery-tls-" });
    const certs = await makeCertificates(dir);
    const tls = { cert: certs["server.pem"], key: certs["server.key"] };
    const kinds = startKindsServer("t", tls);
    const guide = await served("tls-guide", { tls: tls, ca: certs["ca.pem"], mutual: true });
    try {
      const env = {
        HTTP_URL: kinds.httpUrl,
        WS_URL: kinds.wsUrl,
        GRPC_TARGET: `grpcs://localhost:${guide.port}`,
      };
      const options = [
        "--cacert",
        `${dir}/ca.pem`,
        "--cert",
        `${dir}/client.pem`,
        "--key",
        `${dir}/client.key`,
      ];
      const run = await runCli(["run", FLOW, ...options], { env });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      // A line of the key's base64 body: in no file but tls/N.key.
      const keyLine = certs["client.key"].split("\n")[5];
      // Artillery's own HTTP requests trust the CA through Node, as the summary says.
      const artillery = await exportAndRun(
        installed.install!.prefix,
        FLOW,
        USERS,
        { ...env, NODE_EXTRA_CA_CERTS: "tls/1.pem" },
        keyLine,
        ["artillery.yml", "flowrun-processor.js"],
        options,
      );
      assert.equal(artillery.code, 0, artillery.output);
      const c = artillery.counters;
      assert.equal(c["vusers.completed"], USERS, artillery.output);
      assert.equal(c["vusers.failed"] ?? 0, 0);
      assert.equal(c["flowrun.checks.ok"], USERS * 3, artillery.output);
      assert.equal(c["plugins.expect.ok.statusCode"], USERS, "the HTTP step over TLS");
      for (const step of ["sse.feed", "websocket.socket", "grpc.place"]) {
        assert.equal(c[`flowrun.${step}.received`], USERS, step);
      }
    } finally {
      await Promise.all([kinds.close(), guide.close()]);
      await Deno.remove(dir, { recursive: true });
    }
  },
);
