/**
 * A document converted by the CLI beside a mock of it: the set-up the
 * converter tests that run their suite against the mock share.
 *
 * @module
 */
import assert from "node:assert/strict";
import { type CliRun, runCli } from "./cli.ts";
import { type OpenApiMock, startOpenApiMock } from "./openapi_mock.ts";

/** What {@linkcode withConverted} hands the test: the flows' folder, the mock, the conversion. */
export interface Converted {
  /** The folder the flows were written to. */
  out: string;
  mock: OpenApiMock;
  /** The `convert openapi` run (its summary on stderr). */
  converted: CliRun;
}

/**
 * Writes `doc` to a temporary folder, starts its mock, converts it with
 * default options (exit 0 asserted), runs `body`, then stops the mock and
 * removes the folder whatever happened.
 *
 * @example
 * ```ts ignore
 * await withConverted(DOCUMENT, async ({ out, mock }) => {
 *   const run = await runCli(["run", out], { env: { BASE_URL: mock.base } });
 * });
 * ```
 */
export async function withConverted(
  doc: unknown,
  body: (c: Converted) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir();
  const mock = startOpenApiMock(doc);
  try {
    await Deno.writeTextFile(`${dir}/api.json`, JSON.stringify(doc));
    const out = `${dir}/out`;
    const converted = await runCli(["convert", "openapi", `${dir}/api.json`, "-o", out]);
    assert.equal(converted.code, 0, converted.stderr);
    await body({ out, mock, converted });
  } finally {
    await mock.close();
    await Deno.remove(dir, { recursive: true });
  }
}
