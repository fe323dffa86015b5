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
