/**
 * A CLI run that writes every report: the reports' folder (`--out-dir`:
 * JSON, JUnit, HTML and the run log) and a HAR beside them, so a test can
 * read back what each artifact shows, a secret masked in all of them.
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
