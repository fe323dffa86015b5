/**
 * OpenAPI coverage for `flowrun run`: the `--openapi` documents read and
 * checked before anything is sent (a document that cannot be used is a
 * usage error naming it) and the collector the run notes responses in.
 * Loaded only by runs that ask for coverage (whether a run met
 * `--coverage-min` is lib/report/coverage_text.ts's `coverageFailed`).
 *
 * @module
 */
import * as io from "../../lib/io/mod.ts";
import { openApiDocument } from "../../lib/load/schema_document.ts";
import { yamlEngine } from "../../lib/load/yaml_engine.ts";
import { MAX_DOCUMENT_BYTES } from "../../lib/model/limits.ts";
import { UsageError } from "../../lib/model/errors.ts";
import { CoverageCollector } from "../../lib/run/coverage.ts";
import type { CoveragePlan } from "./options.ts";

/**
 * The collector for a run's coverage, with the `--openapi` documents read
 * and parsed.
 *
 * @example
 * ```ts ignore
 * import { coverageCollector } from "./coverage.ts";
 * const coverage = await coverageCollector({ documents: ["api.yaml"], min: 80 });
 * ```
 */
export async function coverageCollector(plan: CoveragePlan): Promise<CoverageCollector> {
  const documents = [];
  for (const path of plan.documents) {
    let bytes: Uint8Array;
    try {
      bytes = await io.readBytes(path, { limit: MAX_DOCUMENT_BYTES });
    } catch (error) {
      const code = error instanceof io.InputFileError ? error.code : "file-read";
      throw new UsageError(
        code,
        `Could not read --openapi "${path}": ${(error as Error).message.replace(/\.$/, "")}.`,
        "Give the path of the API's OpenAPI 3 document (JSON or YAML), relative to the working directory.",
      );
    }
    // A document that is not .json is read as YAML, whose parser loads on demand.
    if (!/\.json$/i.test(path)) await yamlEngine.load();
    const parsed = openApiDocument(bytes, path);
    if ("why" in parsed) {
      throw new UsageError(
        "bad-openapi",
        `Could not use --openapi "${path}": ${parsed.why}.`,
        parsed.hint,
      );
    }
    // Shown as flow files are (relative to the working directory), so the same file named by an
    // openapi: check of a flow is the same document, not a second one.
    documents.push({ source: io.displayPath(path), document: parsed.document });
  }
  return new CoverageCollector(documents, plan.min);
}
