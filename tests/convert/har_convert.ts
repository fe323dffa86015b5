/**
 * The step most `convert har` tests begin with: a recording written into
 * the test's folder and converted with default options, the flow read back.
 */
import assert from "node:assert/strict";
import { type CliRun, runCli } from "../support/cli.ts";

/**
 * Writes `har` as `dir`/r.har and converts it into `dir`/flow.yaml; the
 * conversion's run (its exit 0 asserted, its summary on stderr) and the flow's text.
 */
export async function convertHar(
  dir: string,
  har: string,
): Promise<{ converted: CliRun; flow: string }> {
  await Deno.writeTextFile(`${dir}/r.har`, har);
  const converted = await runCli(["convert", "har", `${dir}/r.har`, "-o", `${dir}/flow.yaml`]);
  assert.equal(converted.code, 0, converted.stderr);
  return { converted, flow: await Deno.readTextFile(`${dir}/flow.yaml`) };
}
