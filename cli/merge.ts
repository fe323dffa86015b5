/**
 * `flowrun merge <report.json>...`: the JSON reports of shards → one run
 * result, written as JUnit and/or JSON, with the console summary.
 *
 * @module
 */
import { UsageError } from "../lib/model/errors.ts";
import { plural } from "../lib/_util/plural.ts";
import { MAX_RECORDING_BYTES } from "../lib/model/limits.ts";
import { command } from "./args.ts";
import { EXIT } from "./exit.ts";
import { coverageMin } from "./option_values.ts";
import { out, useColor } from "./output.ts";
import { save } from "./save.ts";

/** The options `flowrun merge` accepts; its `--help` lists each. */
export const MERGE_OPTIONS = {
  "report-junit": { type: "string" },
  "report-json": { type: "string" },
  "coverage-min": { type: "string" },
  color: { type: "boolean" },
  "no-color": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** Reads and checks JSON reports; a missing or malformed one is a usage error. */
export async function readReports(
  paths: readonly string[],
): Promise<{ label: string; result: import("../lib/model/result.ts").RunResult }[]> {
  const [mergeMod, io] = await Promise.all([
    import("../lib/run/merge.ts"),
    import("../lib/io/mod.ts"),
  ]);
  const inputs = [];
  for (const path of paths) {
    let text: string;
    try {
      text = await io.readText(path, { limit: MAX_RECORDING_BYTES });
    } catch (error) {
      const code = error instanceof io.InputFileError ? error.code : "file-read";
      throw new UsageError(
        code === "file-read" ? "no-such-path" : code,
        `Cannot read report "${path}": ${(error as Error).message}.`,
        "Pass the report.json files written by flowrun run --report-json.",
      );
    }
    inputs.push({ label: path, result: mergeMod.parseJsonReport(text, path) });
  }
  return inputs;
}

/** Runs `flowrun merge`; resolves to the exit code. */
export async function merge(args: string[]): Promise<number> {
  const parsed = command(
    args,
    MERGE_OPTIONS,
    new UsageError(
      "no-paths",
      "No reports given.",
      "Usage: flowrun merge <report.json>... --report-json FILE",
    ),
    "merge",
  );
  if (!parsed) return EXIT.passed;
  const { values, positionals } = parsed;
  const [mergeMod, io, consoleMod, junit, json] = await Promise.all([
    import("../lib/run/merge.ts"),
    import("../lib/io/mod.ts"),
    import("../lib/report/console.ts"),
    import("../lib/report/junit.ts"),
    import("../lib/report/json.ts"),
  ]);
  const min = coverageMin(values["coverage-min"]);
  const outputs = [values["report-junit"], values["report-json"]].filter((p): p is string => !!p);
  for (const path of outputs) await io.ensureWritable(path);
  const inputs = await readReports(positionals);
  const result = mergeMod.mergeResults(inputs);
  if (min !== undefined) gateCoverage(result, min);
  if (values["report-junit"]) {
    await save(values["report-junit"], junit.toJUnitXml(result));
  }
  if (values["report-json"]) {
    await save(
      values["report-json"],
      JSON.stringify(json.toJsonReport(result), null, 2) + "\n",
    );
  }
  const s = consoleMod.style(useColor(values));
  if (result.openapi_coverage) {
    const [{ formatCoverage }, { flowsOverlapped }] = await Promise.all([
      import("../lib/report/coverage_text.ts"),
      import("../lib/report/flows_overlap.ts"),
    ]);
    // Shards on one machine or several send to one server: the merged flows'
    // own times say whether any two ran at once.
    out(formatCoverage(result.openapi_coverage, s, flowsOverlapped(result.flows)));
  }
  out(
    `merged ${plural(inputs.length, "report")} · ${consoleMod.formatSummary(result, s)}`,
  );
  const { coverageFailed } = await import("../lib/report/coverage_text.ts");
  return result.status === "passed" && !coverageFailed(result) ? EXIT.passed : EXIT.failed;
}

/**
 * `merge --coverage-min`: the merged run's threshold, in place of the shards'
 * (a sharded pipeline runs its shards with `--coverage` and gates the whole
 * here, since each shard exercises only its part of the document).
 */
function gateCoverage(result: import("../lib/model/result.ts").RunResult, min: number): void {
  if (!result.openapi_coverage?.length) {
    throw new UsageError(
      "no-coverage",
      `--coverage-min ${min}: none of the reports has OpenAPI coverage.`,
      "Run the shards with --openapi DOC or --coverage, then merge their reports with --coverage-min.",
    );
  }
  for (const document of result.openapi_coverage) document.min = min;
}
