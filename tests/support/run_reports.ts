/**
 * A CLI run that writes every report: the reports' folder (`--out-dir`:
 * JSON, JUnit, HTML and the run log) and a HAR beside them, so a test can
 * read back what each artifact shows, a secret masked in all of them; and
 * a run with each report named on its own, every output read back.
 */
import { type CliRun, runCli } from "./cli.ts";

/**
 * Runs the flow at `flow` with its reports in `out` and the HAR at
 * `out`/run.har, the environment `env` added.
 */
export function runReporting(
  flow: string,
  out: string,
  env: Record<string, string> = {},
): Promise<CliRun> {
  return runCli(["run", flow, "--out-dir", out, "--report-har", `${out}/run.har`], { env });
}

/** The options that write the JSON, JUnit and HTML reports and the run log into `dir`. */
export function reportOptions(dir: string): string[] {
  return [
    ...["--report-json", `${dir}/r.json`, "--report-junit", `${dir}/r.xml`],
    ...["--report-html", `${dir}/r.html`, "--log-file", `${dir}/r.log`],
  ];
}

/** What {@linkcode reportOptions} had written, as text. */
export interface ReportTexts {
  json: string;
  junit: string;
  html: string;
  log: string;
}

/**
 * Reads back what {@linkcode reportOptions} wrote into `dir`; a report not
 * written is an error, or `""` when `orEmpty` (a run that may stop before).
 *
 * @example
 * ```ts
 * import { readReports, reportOptions } from "./run_reports.ts";
 * const dir = await Deno.makeTempDir();
 * const [, json] = reportOptions(dir);
 * await Deno.writeTextFile(json, "{}");
 * const texts = await readReports(dir, true);
 * if (texts.json !== "{}" || texts.log !== "") throw new Error(JSON.stringify(texts));
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function readReports(dir: string, orEmpty = false): Promise<ReportTexts> {
  const read = (name: string) =>
    Deno.readTextFile(`${dir}/${name}`).catch((error) => {
      if (orEmpty) return "";
      throw error;
    });
  const [json, junit, html, log] = await Promise.all(
    ["r.json", "r.xml", "r.html", "r.log"].map(read),
  );
  return { json, junit, html, log };
}

/** A run whose every report was read back: the CLI's result, the JSON report, every output's text. */
export interface EveryReportRun extends CliRun {
  // deno-lint-ignore no-explicit-any
  report: any;
  /** Standard output, standard error, the JSON, JUnit and HTML reports and the log. */
  outputs: string[];
}

/**
 * Runs DIR/f.yaml with `-vv`, the JSON, JUnit and HTML reports and the log
 * written into `dir` (then `extra` options, the environment `env` added),
 * and reads them all back.
 *
 * @example
 * ```ts ignore
 * import { runEveryReport } from "../support/run_reports.ts";
 * const { code, report, outputs } = await runEveryReport(dir, { BASE_URL: "http://127.0.0.1:8080" });
 * ```
 */
export async function runEveryReport(
  dir: string,
  env: Record<string, string>,
  extra: string[] = [],
): Promise<EveryReportRun> {
  const cli = await runCli(["run", `${dir}/f.yaml`, "-vv", ...reportOptions(dir), ...extra], {
    env,
  });
  const { json, junit, html, log } = await readReports(dir);
  return {
    ...cli,
    report: JSON.parse(json),
    outputs: [cli.stdout, cli.stderr, json, junit, html, log],
  };
}
