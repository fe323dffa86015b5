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

/**
 * Writes each of `hars` into `dir` as a.har, b.har, … and converts them together, in that order,
 * into `dir`/flow.yaml: `convertHar` for the tests of several recordings of one journey.
 *
 * @example
 * ```ts
 * import { convertHars } from "./har_convert.ts";
 * const entry = {
 *   startedDateTime: "2026-01-01T00:00:00.000Z",
 *   request: { method: "GET", url: "http://a.test/items", headers: [], queryString: [] },
 *   response: { status: 200, headers: [], content: { size: 2, mimeType: "application/json", text: "[]" } },
 * };
 * const har = JSON.stringify({ log: { entries: [entry] } });
 * const dir = await Deno.makeTempDir();
 * const { flow } = await convertHars(dir, [har, har]);
 * await Deno.remove(dir, { recursive: true });
 * if (!flow.includes("/items")) throw new Error(flow);
 * ```
 */
export async function convertHars(
  dir: string,
  hars: readonly string[],
): Promise<{ converted: CliRun; flow: string }> {
  const paths = hars.map((_, i) => `${dir}/${String.fromCharCode(97 + i)}.har`);
  for (const [i, har] of hars.entries()) await Deno.writeTextFile(paths[i], har);
  const converted = await runCli(["convert", "har", ...paths, "-o", `${dir}/flow.yaml`]);
  assert.equal(converted.code, 0, converted.stderr);
  return { converted, flow: await Deno.readTextFile(`${dir}/flow.yaml`) };
}

/**
 * The check of a recording behind HTTP Basic: `converted` asked only for `BASIC_PASSWORD`,
 * `flow` holds none of the recorded `recorded` password, and the flow passes twice against
 * `origin` with the fresh `password`.
 */
export async function passesTwiceWithBasic(
  { converted, flow }: { converted: CliRun; flow: string },
  dir: string,
  recorded: string,
  origin: string,
  password: string,
): Promise<void> {
  assert.match(converted.stderr, /Set before running: BASIC_PASSWORD\./, converted.stderr);
  assert.ok(!flow.includes(recorded), flow);
  const env = { BASE_URL: origin, BASIC_PASSWORD: password };
  for (const run of [1, 2]) {
    const out = await runCli(["run", `${dir}/flow.yaml`], { env });
    assert.equal(out.code, 0, `run ${run}\n${out.stdout}\n${flow}`);
  }
}
