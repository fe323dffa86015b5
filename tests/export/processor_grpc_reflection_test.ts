/**
 * The exported processor's gRPC steps that name no `.proto` files: the
 * processor asks the server's reflection, as `flowrun run` does, driven in
 * Node without Artillery (tests/export/drive.ts) beside `flowrun run` of the
 * same flow (tests/fixtures/export/kinds_grpc_reflection.yaml) against the
 * reflection test servers (tests/fixtures/grpc_reflection/servers.ts): the
 * official reflection service (which sends a file's imports along, and is
 * asked with the step's metadata), one that follows the spec as grpc-go
 * does (each import must be asked for by name), one offering `v1alpha`
 * only; and the failures, in flowrun's sentences: a server without
 * reflection, a service it does not know; and reflection over TLS with the
 * CA and client certificate given when exporting.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { prepare } from "../real/servers.ts";
import { hasOpenssl, makeCertificates } from "../support/tls.ts";
import { drive } from "./drive.ts";
import { withServer } from "../kinds/grpc/support.ts";
import { servedOfficial, servedSpec } from "../kinds/grpc/served.ts";

const installed = await prepare([{ name: "artillery", version: "2.0.34" }]);
const FIXTURES = new URL("../fixtures/export/", import.meta.url).pathname;
const TOKEN = "reflected-token-9c1e";
const FLOW = "kinds_grpc_reflection.yaml";

const envOf = (target: string) => ({ GRPC_TARGET: target, KINDS_TOKEN: TOKEN });

Deno.test(
  `the processor calls methods the server describes by reflection, as flowrun run does${installed.ignoredBecause}`,
  { ignore: installed.ignoredBecause !== "" },
  async () => {
    const servers = [
      servedOfficial({ authorization: `Bearer ${TOKEN}` }),
      servedSpec(),
      servedOfficial({ versions: ["v1alpha"] }),
    ];
    for (const started of servers) {
      await withServer(started, async (server) => {
        const env = envOf(server.target);
        const run = await runCli(["run", `${FIXTURES}${FLOW}`], { env });
        assert.equal(run.code, 0, run.stdout + run.stderr);
        const askedByRun = server.asked.splice(0).length;
        const { got, stdout } = await drive(installed.install!.prefix, FLOW, env);
        assert.equal(got.error, undefined, stdout);
        // Lookup: its status and eight paths (well-known types, a map, 64-bit integers, an
        // enum, bytes, a oneof); GetPlace: its status and two paths.
        assert.equal(got.counters["flowrun.checks.ok"], 12, stdout);
        assert.equal(got.counters["flowrun.checks.failed"] ?? 0, 0, stdout);
        assert.equal(got.vars.f0_lookup__shelf, "B2");
        // The same questions as flowrun run's (the spec server records each; the official
        // one each stream, with the token it requires).
        assert.equal(server.asked.length, askedByRun, JSON.stringify(server.asked));
        for (const question of server.asked) {
          if ("peer" in question) assert.equal(question.authorization, `Bearer ${TOKEN}`);
        }
      });
    }
  },
);

Deno.test(
  `reflection the server does not give fails the processor's user with flowrun run's sentence${installed.ignoredBecause}`,
  { ignore: installed.ignoredBecause !== "" },
  async () => {
    await withServer(servedOfficial({ versions: [] }), async (server) => {
      const env = envOf(server.target);
      const run = await runCli(["run", `${FIXTURES}${FLOW}`], { env });
      assert.equal(run.code, 1, run.stdout + run.stderr);
      const sentence = `The server at ${server.target} does not offer server reflection ` +
        "(UNIMPLEMENTED); name the .proto files with proto:.";
      assert.ok(run.stdout.includes(sentence), run.stdout);
      const { got, stdout } = await drive(installed.install!.prefix, FLOW, env);
      assert.equal(got.error, `The grpc step lookup failed: ${sentence}`, stdout);
      assert.equal(got.counters["flowrun.grpc.lookup.errors"], 1, stdout);
      assert.equal(got.counters["flowrun.grpc.place.received"], undefined, "no step after it");
    });
    await withServer(servedSpec(), async (server) => {
      const env = envOf(server.target);
      const { got, stdout } = await drive(
        installed.install!.prefix,
        "kinds_grpc_unknown.yaml",
        env,
      );
      const head = `The grpc step lookup failed: The server at ${server.target} knows no service ` +
        `"inventory.Inventroy"`;
      assert.ok(got.error?.startsWith(head), stdout);
    });
  },
);

Deno.test(
  `reflection goes over the call's TLS channel with the CA and client certificate given when exporting${installed.ignoredBecause}`,
  { ignore: installed.ignoredBecause !== "" || !hasOpenssl() },
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-reflection-tls-" });
    try {
      const certs = await makeCertificates(dir);
      // The server asks for a client certificate the test's CA signed.
      const tls = {
        cert: certs["server.pem"],
        key: certs["server.key"],
        clientCa: certs["ca.pem"],
      };
      await withServer(servedOfficial({ tls }), async (server) => {
        // localhost: Deno's node:tls takes no IP address as the server's name (flowrun run).
        const env = envOf(`grpcs://localhost:${server.target.split(":")[1]}`);
        const ca = ["--cacert", `${dir}/ca.pem`];
        const options = [...ca, "--cert", `${dir}/client.pem`, "--key", `${dir}/client.key`];
        const run = await runCli(["run", `${FIXTURES}${FLOW}`, ...options], { env });
        assert.equal(run.code, 0, run.stdout + run.stderr);
        const { got, stdout } = await drive(installed.install!.prefix, FLOW, env, options);
        assert.equal(got.error, undefined, stdout);
        assert.equal(got.counters["flowrun.checks.ok"], 12, stdout);
        // Without the client certificate the server refuses the reflection stream's connection.
        const refused = await drive(installed.install!.prefix, FLOW, env, ca);
        assert.match(
          refused.got.error ?? "",
          /^The grpc step lookup failed: The server at localhost:\d+ could not be reached for server reflection: /,
          refused.stdout,
        );
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);
