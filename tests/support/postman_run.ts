/**
 * Converts a Postman collection with default options and runs the flow it gives with the CLI,
 * for the tests that read which translated checks passed step by step.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "./cli.ts";

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
