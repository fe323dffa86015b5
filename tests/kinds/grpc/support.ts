/**
 * What the gRPC step's tests share: a temporary folder holding the
 * fixtures' `.proto` files and a flow written into it; a run of such a flow
 * with every artifact read back; a check that a secret is in none of them;
 * and a TLS route guide with certificates made for the test.
 */
import assert from "node:assert/strict";
import { runCli } from "../../support/cli.ts";
import { hasOpenssl, makeCertificates } from "../../support/tls.ts";
import { type RouteGuideServer, startRouteGuide } from "../../fixtures/grpc/route_guide_server.ts";

const PROTOS = new URL("../../fixtures/grpc/protos/", import.meta.url);

/** A temporary folder with `protos/` copied in and `flow.yaml` holding `flow`; its path. */
export async function flowDir(flow: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-grpc-" });
  await Deno.mkdir(`${dir}/protos`);
  for (const name of ["route_guide.proto", "health.proto"]) {
    await Deno.copyFile(new URL(name, PROTOS), `${dir}/protos/${name}`);
  }
  await Deno.writeTextFile(`${dir}/flow.yaml`, flow);
  return dir;
}

/** A step of the JSON report, as far as the proxy tests read it. */
export interface Step {
  status: string;
  message?: string;
}

/** A finished run: its exit code, the text of the console and of every artifact, and the steps. */
export interface Artifacts {
  code: number;
  artifacts: Record<string, string>;
  steps: Step[];
}

/** Runs `flow` with `vars.port` set to `port`, every report written, then `args` and `env`. */
export async function runArtifacts(
  flow: string,
  port: number,
  args: string[],
  env: Record<string, string> = {},
): Promise<Artifacts> {
  const dir = await flowDir(flow);
  try {
    const cli = await runCli([
      "run",
      `${dir}/flow.yaml`,
      "--var",
      `port=${port}`,
      "--out-dir",
      `${dir}/out`,
      "--report-har",
      `${dir}/out/run.har`,
      ...args,
    ], { env });
    const read = (name: string) => Deno.readTextFile(`${dir}/out/${name}`);
    const json = await read("report.json");
    const artifacts: Record<string, string> = { console: cli.stdout + cli.stderr, json };
    for (const name of ["junit.xml", "report.html", "run.log.ndjson", "run.har"]) {
      artifacts[name] = await read(name);
    }
    return { code: cli.code, artifacts, steps: JSON.parse(json).flows[0].steps as Step[] };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Fails naming the artifact that shows the proxy's password `secret`. */
export function assertNowhere(secret: string, artifacts: Record<string, string>): void {
  for (const [name, text] of Object.entries(artifacts)) {
    assert.ok(!text.includes(secret), `${name} shows the proxy's password ${secret}`);
  }
}

/**
 * A test that runs where `openssl` can make certificates (and `ignore` is
 * false), given a temporary folder for them, removed after.
 */
export function tlsTest(
  name: string,
  fn: (certs: string) => Promise<void>,
  ignore = false,
): void {
  Deno.test({
    name,
    ignore: !hasOpenssl() || ignore,
    fn: async () => {
      const certs = await Deno.makeTempDir();
      try {
        await fn(certs);
      } finally {
        await Deno.remove(certs, { recursive: true });
      }
    },
  });
}

/**
 * Makes the certificates in `certs` and starts a TLS route guide with the
 * key pair `pair` (`server`, for 127.0.0.1 and localhost, or `self`, the
 * self-signed dev.example naming no IP address), asking for a client
 * certificate of the CA.
 */
export async function tlsRouteGuide(
  certs: string,
  pair: "server" | "self" = "server",
): Promise<RouteGuideServer> {
  const pem = await makeCertificates(certs);
  return await startRouteGuide({
    tls: { key: pem[`${pair}.key`], cert: pem[`${pair}.pem`], ca: pem["ca.pem"] },
  });
}
