/**
 * `flowrun report html <report.json> -o FILE`: a JSON report → the HTML report.
 *
 * @module
 */
import { UsageError } from "../lib/model/errors.ts";
import { plural } from "../lib/_util/plural.ts";
import { command } from "./args.ts";
import { EXIT } from "./exit.ts";
import { out } from "./output.ts";
import { save } from "./save.ts";

/** The options `flowrun report html` accepts; its `--help` lists each. */
export const REPORT_OPTIONS = {
  output: { type: "string", short: "o" },
  "trace-link": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** Runs `flowrun report`; resolves to the exit code. */
export async function renderReport(args: string[]): Promise<number> {
  // `report --help` is the help of its one format, html.
  const [format, ...rest] = args[0] === "--help" || args[0] === "-h" ? ["html", ...args] : args;
  if (format !== "html") {
    throw new UsageError(
      "bad-command",
      format === undefined ? "Missing the report format." : `Cannot render a "${format}" report.`,
      "Usage: flowrun report html <report.json>... -o FILE",
    );
  }
  const parsed = command(
    rest,
    REPORT_OPTIONS,
    new UsageError(
      "no-paths",
      "No reports given.",
      "Usage: flowrun report html <report.json>... -o FILE",
    ),
    "report",
  );
  if (!parsed) return EXIT.passed;
  const { values, positionals } = parsed;
  if (!values.output) throw new UsageError("no-output", "Missing -o FILE for the HTML report.");
  const [mergeMod, io, html] = await Promise.all([
    import("../lib/run/merge.ts"),
    import("../lib/io/mod.ts"),
    import("../lib/report/html.ts"),
  ]);
  await io.ensureWritable(values.output);
  const inputs = await (await import("./merge.ts")).readReports(positionals);
  const result = inputs.length === 1 ? inputs[0].result : mergeMod.mergeResults(inputs);
  await save(values.output, html.toHtml(result, { traceLink: values["trace-link"] }));
  out(
    `wrote ${values.output} (${plural(result.totals.flows.total, "flow")} from ${
      plural(inputs.length, "report")
    })\n`,
  );
  return EXIT.passed;
}
