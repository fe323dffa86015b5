/**
 * What the gRPC step's tests share: a temporary folder holding the
 * fixtures' `.proto` files and a flow written into it; a run of such a flow
 * with every artifact read back; a check that a secret is in none of them;
 * a TLS atlas server with certificates made for the test; and a reflection
 * server stopped after its test.
 */
import assert from "node:assert/strict";
import { type CliRun, runCli } from "../../support/cli.ts";
import { hasOpenssl, makeCertificates } from "../../support/tls.ts";
import { type Served, servedAtlas } from "./served.ts";

const PROTOS = new URL("../../fixtures/grpc/protos/", import.meta.url);

/** A temporary folder with `protos/` copied in and `flow.yaml` holding `flow`; its path. */
export async function flowDir(flow: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-grpc-" });
  await Deno.mkdir(`${dir}/protos`);
  for (const name of ["atlas.proto", "health.proto"]) {
    await Deno.copyFile(new URL(name, PROTOS), `${dir}/protos/${name}`);
  }
  await Deno.writeTextFile(`${dir}/flow.yaml`, flow);
  return dir;
}

/**
 * Runs `flow`, written into a temporary folder, with `vars.port` set to
 * `port` and the arguments `args` gives for that folder; what `read` makes
 * of the CLI's result and the folder, before the folder is removed.
 */
async function runIn<T>(
  flow: string,
  port: number,
  args: (dir: string) => string[],
  read: (cli: CliRun, dir: string) => Promise<T>,
  env: Record<string, string> = {},
): Promise<T> {
  const dir = await flowDir(flow);
  try {
    const run = ["run", `${dir}/flow.yaml`, "--var", `port=${port}`, ...args(dir)];
    return await read(await runCli(run, { env }), dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * Runs `flow` with `vars.port` set to `port` and `args` (`{dir}` in one
 * stands for the flow's folder); the CLI's result and the JSON report's steps.
 */
export function runReport<S>(
  flow: string,
  port: number,
  args: string[] = [],
): Promise<{ cli: CliRun; steps: S[] }> {
  const json = (dir: string) => ["--report-json", `${dir}/report.json`];
  return runIn(
    flow,
    port,
    (dir) => [...json(dir), ...args.map((a) => a.replace("{dir}", dir))],
    async (cli, dir) => {
      const report = JSON.parse(await Deno.readTextFile(`${dir}/report.json`));
      return { cli, steps: report.flows[0].steps as S[] };
    },
  );
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
export function runArtifacts(
  flow: string,
  port: number,
  args: string[],
  env: Record<string, string> = {},
): Promise<Artifacts> {
  const reports = (
    dir: string,
  ) => ["--out-dir", `${dir}/out`, "--report-har", `${dir}/out/run.har`];
  return runIn(flow, port, (dir) => [...reports(dir), ...args], async (cli, dir) => {
    const read = (name: string) => Deno.readTextFile(`${dir}/out/${name}`);
    const json = await read("report.json");
    const artifacts: Record<string, string> = { console: cli.stdout + cli.stderr, json };
    for (const name of ["junit.xml", "report.html", "run.log.ndjson", "run.har"]) {
      artifacts[name] = await read(name);
    }
    return { code: cli.code, artifacts, steps: JSON.parse(json).flows[0].steps as Step[] };
  }, env);
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
 * Makes the certificates in `certs` and starts a TLS atlas server with the
 * key pair `pair` (`server`, for 127.0.0.1 and localhost, or `self`, the
 * self-signed dev.example naming no IP address), asking for a client
 * certificate of the CA; in a process of its own (./served.ts).
 */
export async function tlsAtlas(
  certs: string,
  pair: "server" | "self" = "server",
): Promise<Served> {
  const pem = await makeCertificates(certs);
  return await servedAtlas({
    tls: { key: pem[`${pair}.key`], cert: pem[`${pair}.pem`], ca: pem["ca.pem"] },
  });
}

/**
 * Checks a run through a proxy with `ada`'s right `password`: it passed,
 * the proxy saw one CONNECT to `target` with Basic credentials, and
 * neither the password nor its Basic form is in any artifact.
 */
export function assertBasicConnect(
  ok: Artifacts,
  heads: string[],
  target: string,
  password: string,
): void {
  assert.equal(ok.code, 0, ok.artifacts.console);
  assert.equal(heads.length, 1, JSON.stringify(heads));
  assert.match(heads[0], new RegExp(`^CONNECT ${target} HTTP/1\\.[01]\r\n`));
  assert.match(
    heads[0],
    new RegExp(`proxy-authorization: Basic ${btoa(`ada:${password}`)}`, "i"),
  );
  assertNowhere(password, ok.artifacts);
  assertNowhere(btoa(`ada:${password}`), ok.artifacts);
}

/**
 * Checks a run through the proxy on `proxyPort` with a wrong `password`:
 * exit 1, the first step an error saying the proxy answered CONNECT
 * `target` with 407 (flowrun's sentence, as a WebSocket or SSE step says
 * it), and the password in no artifact.
 */
export function assertRefused(
  wrong: Artifacts,
  proxyPort: number,
  target: string,
  password: string,
): void {
  assert.equal(wrong.code, 1, wrong.artifacts.console);
  assert.equal(wrong.steps[0].status, "error", JSON.stringify(wrong.steps[0]));
  assert.match(
    wrong.steps[0].message ?? "",
    new RegExp(
      `^atlas\\.Atlas/GetPlace is unavailable: the proxy 127\\.0\\.0\\.1:${proxyPort} ` +
        `answered CONNECT ${target} with status 407\\.$`,
    ),
  );
  assertNowhere(password, wrong.artifacts);
}

/**
 * Runs `body` with a served server `start` gives, again on a new server (three rounds at most)
 * when the server's process aborted by itself: Deno 2.9.6 aborts a `node:http2` server inside
 * nghttp2 when a client's GOAWAY reaches it (denoland/deno#36788), which Artillery's workers send
 * as each ends while others still call; on a loaded machine a clean-clone CI saw it twice in a
 * row. Any other failure, or a third abort, fails the test.
 */
export async function withServedOnce<S extends Served>(
  start: () => Promise<S>,
  body: (s: S) => Promise<void>,
): Promise<void> {
  for (let round = 1;; round++) {
    const server = await start();
    try {
      await body(server);
      return;
    } catch (error) {
      await server.close();
      if (round === 3 || !server.endedByItself()) throw error;
      console.error(
        `the served gRPC server aborted by itself (deno#36788); round ${round + 1}: ${error}`,
      );
    } finally {
      await server.close();
    }
  }
}

/** Runs `body` with the reflection server `started` gives, stopped after (and its process ended). */
export async function withServer<S extends { close(): void | Promise<void> }>(
  started: Promise<S>,
  body: (s: S) => Promise<void>,
): Promise<void> {
  const server = await started;
  try {
    await body(server);
  } finally {
    await server.close();
  }
}
