/**
 * Converts a Postman collection with default options and runs the flow it gives with the CLI,
 * for the tests that read which translated checks passed step by step.
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";
import { type CliRun, runCli } from "./cli.ts";

/**
 * Converts `collection`, writes what the conversion gives into `dir`, asserts every script was
 * translated, runs the flow with `--report-json` and gives the report back.
 *
 * @example
 * ```ts ignore
 * import { runCollection } from "./postman_run.ts";
 * const report = await runCollection({ info: { name: "c" }, item: [] }, await Deno.makeTempDir());
 * ```
 */
// deno-lint-ignore no-explicit-any
export async function runCollection(collection: unknown, dir: string): Promise<any> {
  const { files } = convertPostman(JSON.stringify(collection));
  for (const f of files) await Deno.writeTextFile(`${dir}/${f.path}`, f.text);
  const flow = files.find((f) => f.path.endsWith(".yaml"))!;
  assert.doesNotMatch(flow.text, /# untranslated/, flow.text);
  await runCli(["run", `${dir}/${flow.path}`, "--report-json", `${dir}/r.json`]);
  return JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
}

/**
 * Writes what a conversion gave into `dir` and runs its flow as the summary says: with the
 * vars file and the env file when the conversion wrote them, and `env` set.
 *
 * @example
 * ```ts ignore
 * import { runConverted } from "./postman_run.ts";
 * const { run } = await runConverted([{ path: "c.yaml", text: "steps: []" }], "/tmp");
 * ```
 */
export async function runConverted(
  files: { path: string; text: string }[],
  dir: string,
  env: Record<string, string> = {},
) {
  for (const f of files) await Deno.writeTextFile(`${dir}/${f.path}`, f.text);
  const flow = files.find((f) => f.path.endsWith(".yaml"))!;
  const vars = files.find((f) => f.path.endsWith(".vars.json"));
  const envFile = files.find((f) => f.path.endsWith(".env"));
  const run = await runCli([
    "run",
    `${dir}/${flow.path}`,
    ...(vars ? ["--vars-file", `${dir}/${vars.path}`] : []),
    ...(envFile ? ["--env-file", `${dir}/${envFile.path}`] : []),
  ], { env });
  return { run, flow };
}

/**
 * Serves `answer` on 127.0.0.1, converts the collection `collection(origin)` makes with default
 * options and runs it there: the run and the flow; the server and the scratch folder are gone
 * after.
 *
 * @example
 * ```ts ignore
 * import { runCollectionAgainst } from "./postman_run.ts";
 * const { run } = await runCollectionAgainst((base) => ({ item: [] }), () => new Response("ok"));
 * ```
 */
export async function runCollectionAgainst(
  collection: (base: string) => unknown,
  answer: () => Response,
) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, answer);
  const dir = await Deno.makeTempDir();
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    const { files } = convertPostman(JSON.stringify(collection(base)));
    return await runConverted(files, dir);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * A collection of one `GET {base}/page` whose test script is `exec`: the shape of the tests that
 * check how one script's checks translate against one answer.
 *
 * @example
 * ```ts ignore
 * import { pageChecks, runCollectionAgainst } from "./postman_run.ts";
 * await runCollectionAgainst(pageChecks(["pm.test('ok', () => {});"]), () => new Response("ok"));
 * ```
 */
export function pageChecks(exec: string[]): (base: string) => unknown {
  return (base) => ({
    info: {
      name: "Page",
      schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json",
    },
    item: [{
      name: "Read Page",
      event: [{ listen: "test", script: { exec } }],
      request: { method: "GET", url: `${base}/page` },
    }],
  });
}

/**
 * Starts a server on 127.0.0.1 that keeps every JSON body it receives, gives its origin, the
 * bodies so far and a scratch folder to `body`, then stops the server and removes the folder.
 *
 * @example
 * ```ts ignore
 * import { withBodySink } from "./postman_run.ts";
 * await withBodySink(async (base, seen) => {
 *   await fetch(base, { method: "POST", body: "{}" }).then((r) => r.body?.cancel());
 *   console.log(seen.length);
 * });
 * ```
 */
export async function withBodySink(
  body: (base: string, seen: Record<string, string>[], dir: string) => Promise<void>,
): Promise<void> {
  const seen: Record<string, string>[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    seen.push(await req.json());
    return Response.json({ ok: true });
  });
  const dir = await Deno.makeTempDir();
  try {
    await body(`http://127.0.0.1:${server.addr.port}`, seen, dir);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * Converts `collection` with a Postman environment ("local") holding `values` in that order,
 * each enabled (what `pm.environment.get` reads: a collection variable would read `undefined`
 * there, as in Newman), writes the flow alone into a temporary folder, runs it with
 * `--report-json`, and removes the folder: the flow, the run and the report read back (null when
 * none was written). The flow's checks are the caller's, before or after.
 *
 * @example
 * ```ts
 * import { runWithEnvironment } from "./postman_run.ts";
 * const collection = {
 *   info: { name: "c", schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json" },
 *   item: [{ name: "Home", request: { method: "GET", url: "http://127.0.0.1:{{port}}/" } }],
 * };
 * // Nothing listens on port 9: the flow sends there and the run fails, reported.
 * const { flow, run, report } = await runWithEnvironment(collection, { port: "9" });
 * if (!flow.text.includes("http://127.0.0.1:9") || run.code !== 1) throw new Error(flow.text);
 * if (report.flows[0].steps[0].name !== "home") throw new Error(JSON.stringify(report));
 * ```
 */
export async function runWithEnvironment(
  collection: unknown,
  values: Record<string, string>,
  // deno-lint-ignore no-explicit-any
): Promise<{ flow: { path: string; text: string }; run: CliRun; report: any }> {
  const environment = JSON.stringify({
    name: "local",
    values: Object.entries(values).map(([key, value]) => ({ key, value, enabled: true })),
  });
  const { files } = convertPostman(JSON.stringify(collection), environment);
  const flow = files.find((f) => f.path.endsWith(".yaml"))!;
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/${flow.path}`, flow.text);
    const run = await runCli(["run", `${dir}/${flow.path}`, "--report-json", `${dir}/r.json`]);
    const report = await Deno.readTextFile(`${dir}/r.json`).then(JSON.parse).catch(() => null);
    return { flow, run, report };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * Converts `collection` with default options as the CLI would into `dir`: the files, the
 * summary's text and the flows' text joined, for the tests that read both before running.
 *
 * @example
 * ```ts ignore
 * import { convertedInto } from "./postman_run.ts";
 * const { files, text, flows } = convertedInto({ info: { name: "c" }, item: [] }, "/tmp/out");
 * ```
 */
export function convertedInto(collection: unknown, dir: string) {
  const { files, summary } = convertPostman(JSON.stringify(collection));
  return {
    files,
    text: formatPostmanSummary(summary, dir),
    flows: files.map((f) => f.text).join(""),
  };
}
