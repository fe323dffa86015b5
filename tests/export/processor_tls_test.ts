/**
 * The run's TLS options and body limit in the exported processor: an SSE, a
 * WebSocket and a gRPC step (tests/fixtures/export/kinds_tls.yaml) against
 * servers on 127.0.0.1 whose certificates a private CA made by the test
 * signed (tests/support/tls.ts): the HTTP/WebSocket test server
 * (tests/export/kinds_server.ts) over TLS and grpc-js's atlas server over
 * TLS (one asking for a client certificate). Each case beside
 * `flowrun run` with the same options: the export takes `--cacert`,
 * `--cert`/`--key`, `--insecure` and `--max-body` as run does, and a flow's
 * own `ca_cert`; without them the processor refuses the private CA as run
 * does. The processor is driven in Node without Artillery
 * (tests/export/drive.ts); tests/export/artillery_tls_test.ts runs Artillery.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { hasOpenssl, makeCertificates } from "../support/tls.ts";
import { prepare } from "../real/servers.ts";
import { startKindsServer } from "./kinds_server.ts";
import { drive } from "./drive.ts";
import { served, servedAtlas } from "../kinds/grpc/served.ts";

const installed = await prepare([{ name: "artillery", version: "2.0.34" }]);
const FIXTURES = new URL("../fixtures/export/", import.meta.url).pathname;
const FLOW = "kinds_tls.yaml";
const skip = installed.ignoredBecause || (hasOpenssl() ? "" : " (ignored: no openssl)");

type Certs = Record<string, string>;

/** Both servers with `name`.pem/.key as their certificate; the atlas server asks for a client's when `mutual`. */
async function withServers(
  certs: Certs,
  name: string,
  body: (env: Record<string, string>) => Promise<void>,
  mutual = false,
) {
  const tls = { cert: certs[`${name}.pem`], key: certs[`${name}.key`] };
  const kinds = startKindsServer("t", tls);
  const guide = await served("tls-guide", { tls: tls, ca: certs["ca.pem"], mutual: mutual });
  try {
    await body({
      HTTP_URL: kinds.httpUrl,
      WS_URL: kinds.wsUrl,
      // localhost: a TLS server name cannot be an IP address in Deno's node:tls (flowrun run).
      GRPC_TARGET: `grpcs://localhost:${guide.port}`,
    });
  } finally {
    await Promise.all([kinds.close(), guide.close()]);
  }
}

/** flowrun run of `flow` with `args`: its exit code, and its output for messages. */
async function run(flow: string, env: Record<string, string>, args: string[] = []) {
  const done = await runCli(["run", flow.startsWith("/") ? flow : `${FIXTURES}${flow}`, ...args], {
    env,
  });
  return { code: done.code, output: done.stdout + done.stderr };
}

function assertRun(done: { code: number; output: string }, code: number) {
  assert.equal(done.code, code, done.output);
}

/** The driven processor's user: whether it passed its checks (one a step). */
const passed = (got: { error?: string; counters: Record<string, number> }) =>
  got.error === undefined && got.counters["flowrun.checks.ok"] === 3;

Deno.test(
  `--cacert when exporting: the processor's connections trust the private CA as run's do${skip}`,
  { ignore: skip !== "" },
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-export-tls-" });
    try {
      const certs = await makeCertificates(dir);
      await withServers(certs, "server", async (env) => {
        const ca = ["--cacert", `${dir}/ca.pem`];
        // Without the CA, flowrun run refuses the servers' certificates; so does the processor.
        assertRun(await run(FLOW, env), 1);
        const refused = await drive(installed.install!.prefix, FLOW, env);
        assert.match(refused.got.error ?? "", /^The sse step feed failed: /, refused.stdout);
        assertRun(await run(FLOW, env, ca), 0);
        const trusted = await drive(installed.install!.prefix, FLOW, env, ca);
        assert.ok(passed(trusted.got), trusted.stdout);
        assert.equal(trusted.got.counters["flowrun.grpc.place.received"], 1);
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test(
  `a flow's own ca_cert, --insecure and a client certificate reach the processor's connections${skip}`,
  { ignore: skip !== "" },
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-export-tls-" });
    try {
      const certs = await makeCertificates(dir);
      await Deno.copyFile(
        `${FIXTURES}../grpc/protos/atlas.proto`,
        `${dir}/atlas.proto`,
      );
      const flow = (await Deno.readTextFile(`${FIXTURES}${FLOW}`))
        .replace("../grpc/protos/atlas.proto", "atlas.proto")
        .replace("name: kinds over tls", "name: kinds over tls\noptions: { ca_cert: ca.pem }");
      await Deno.writeTextFile(`${dir}/flow.yaml`, flow);
      await withServers(certs, "server", async (env) => {
        assertRun(await run(`${dir}/flow.yaml`, env), 0);
        const own = await drive(installed.install!.prefix, `${dir}/flow.yaml`, env);
        assert.ok(passed(own.got), own.stdout);
      });
      // A self-signed certificate for another name: only --insecure passes it, in both.
      await withServers(certs, "self", async (env) => {
        assertRun(await run(FLOW, env, ["--insecure"]), 0);
        const unchecked = await drive(installed.install!.prefix, FLOW, env, ["--insecure"]);
        assert.ok(passed(unchecked.got), unchecked.stdout);
        const checked = await drive(installed.install!.prefix, FLOW, env);
        assert.match(checked.got.error ?? "", /^The sse step feed failed: /, checked.stdout);
      });
      // The atlas server asks for a client certificate the CA signed.
      await withServers(certs, "server", async (env) => {
        const ca = ["--cacert", `${dir}/ca.pem`];
        const client = [...ca, "--cert", `${dir}/client.pem`, "--key", `${dir}/client.key`];
        assertRun(await run(FLOW, env, client), 0);
        assertRun(await run(FLOW, env, ca), 1);
        const mutual = await drive(installed.install!.prefix, FLOW, env, client);
        assert.ok(passed(mutual.got), mutual.stdout);
        // The certificates are files beside the script, the key its owner's alone, named by the
        // summary; their text is in neither the script nor the processor.
        const out = `${dir}/out`;
        const exported = await runCli([
          "export",
          "artillery",
          `${FIXTURES}${FLOW}`,
          "-o",
          out,
          ...client,
        ]);
        assert.equal(exported.code, 0, exported.stderr);
        assert.match(
          exported.stderr,
          new RegExp(`${out}/tls/3\\.key is a client certificate's private key`),
        );
        assert.equal((await Deno.stat(`${out}/tls/3.key`)).mode! & 0o777, 0o600);
        assert.ok(
          exported.stderr.includes(`set NODE_EXTRA_CA_CERTS=${out}/tls/1.pem where Artillery runs`),
          exported.stderr,
        );
        assert.equal(await Deno.readTextFile(`${out}/tls/3.key`), certs["client.key"]);
        for (const file of ["artillery.yml", "flowrun-processor.js"]) {
          const text = await Deno.readTextFile(`${out}/${file}`);
          assert.ok(
            !text.includes(certs["client.key"].split("\n")[5]) && !text.includes("CERTIFICATE"),
          );
        }
        const anonymous = await drive(installed.install!.prefix, FLOW, env, ca);
        assert.match(
          anonymous.got.error ?? "",
          /^The grpc step place failed: /,
          anonymous.stdout,
        );
      }, true);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

const TOO_LARGE_GRPC =
  /The response of atlas\.Atlas\/\w+ held more than \d+ bytes \(--max-body\); flowrun cancelled the call \(\d+ messages? had arrived\)\./;
const TOO_LARGE_SSE =
  /The event stream sent more than 1024 bytes \(the --max-body limit\) after 0 events; reading stopped there\./;
const TOO_LARGE_WS =
  /The messages received came to more than 1024 bytes, the most a response may hold; raise --max-body or receive fewer \(count, until\)\./;

Deno.test(
  `--max-body when exporting: an answer, a stream or messages past it are refused as run refuses them${installed.ignoredBecause}`,
  { ignore: installed.ignoredBecause !== "" },
  async () => {
    // The misbehaving atlas server: GetPlace answers 3 MiB, ListPlaces never ends; the
    // chat echoes a message of 1,500 bytes.
    const guide = await servedAtlas({ bad: "huge" });
    const kinds = startKindsServer("t");
    const env = {
      GRPC_TARGET: `127.0.0.1:${guide.port}`,
      HTTP_URL: kinds.httpUrl,
      WS_URL: kinds.wsUrl,
      KINDS_TOKEN: "t",
    };
    const cases = [
      ["kinds_grpc_failing.yaml", "1MiB", TOO_LARGE_GRPC, "place"],
      ["kinds_grpc_endless.yaml", "1KiB", TOO_LARGE_GRPC, "endless"],
      ["kinds_large.yaml", "1KiB", TOO_LARGE_WS, "socket"],
      ["kinds_large_sse.yaml", "1KiB", TOO_LARGE_SSE, "feed"],
    ] as const;
    try {
      for (const [flow, limit, sentence, step] of cases) {
        const args = ["--max-body", limit];
        const ran = await run(flow, env, args);
        assert.equal(ran.code, 1, ran.output);
        const reference = sentence.exec(ran.output)?.[0];
        assert.ok(reference, ran.output);
        const { got, stdout } = await drive(installed.install!.prefix, flow, env, args);
        const kind = flow.includes("grpc") ? "grpc" : flow.includes("sse") ? "sse" : "websocket";
        assert.ok(got.error?.startsWith(`The ${kind} step ${step} failed: `), stdout);
        assert.equal(sentence.exec(got.error)?.[0], reference, stdout);
      }
    } finally {
      await Promise.all([guide.close(), kinds.close()]);
    }
  },
);
