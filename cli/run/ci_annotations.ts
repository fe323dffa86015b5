/**
 * CI-native output after a run: on GitHub Actions (`GITHUB_ACTIONS=true`),
 * each failure or flow-file problem as an `::error` annotation on its line,
 * and the run as Markdown appended to `$GITHUB_STEP_SUMMARY`. Off with
 * `--no-annotations`.
 *
 * @module
 */
import type { Problem } from "../../lib/model/errors.ts";
import type { RunResult } from "../../lib/model/result.ts";
import { err, outCommands, redactor } from "../output.ts";

/**
 * Writes the annotations and the job summary when the run is on GitHub Actions.
 *
 * @example
 * ```ts ignore
 * import { ciAnnotations } from "./ci_annotations.ts";
 * await ciAnnotations(result, [], { enabled: true });
 * ```
 */
export async function ciAnnotations(
  result: RunResult,
  problems: readonly Problem[],
  options: {
    enabled: boolean;
    reproduce?: (file: string) => string;
    interrupt?: AbortSignal;
    /**
     * Where GITHUB_ACTIONS and GITHUB_STEP_SUMMARY are read (the process environment unless
     * told): a test passes its own, since setting the process's would reach every test file
     * running beside it and every CLI it starts.
     */
    env?: (name: string) => string | undefined;
  },
): Promise<void> {
  const env = options.env ?? ((name: string) => Deno.env.get(name));
  if (!options.enabled || env("GITHUB_ACTIONS") !== "true") return;
  const github = await import("../../lib/report/github.ts");
  // A --filter or --tag that selects nothing has no file to point at.
  const placed = problems.filter((p) => p.line > 0);
  outCommands(
    problems.length > 0
      ? github.githubProblemAnnotations(placed)
      : github.githubAnnotations(result),
  );
  const summary = env("GITHUB_STEP_SUMMARY");
  if (!summary) return;
  try {
    // A FIFO as the summary must not hold a signalled run: the write is bounded by the interrupt.
    const { appendText } = await import("../../lib/io/mod.ts");
    await appendText(
      summary,
      redactor.redactOutput(github.githubSummary(result, options.reproduce)),
      { interrupt: options.interrupt },
    );
  } catch (error) {
    err(
      `warning[step-summary]: Could not append to $GITHUB_STEP_SUMMARY "${summary}": ${
        (error as { reason?: string }).reason ?? (error as Error).message
      }.\n  hint: The annotations and reports are written; only the job summary is missing.\n`,
    );
  }
}
