/**
 * `--history FILE`: earlier JSON reports, read as `--shard-timings` reads
 * them (each at most `MAX_RECORDING_BYTES`, at most `MAX_HISTORY_REPORTS`
 * files), kept as each flow's outcome only; once the flows are loaded, the
 * runs of this suite become the {@linkcode History} the console and the
 * HTML report show.
 *
 * @module
 */
import * as io from "../../lib/io/mod.ts";
import { MAX_RECORDING_BYTES } from "../../lib/model/limits.ts";
import { History, type PastRun, pastRun } from "../../lib/report/history.ts";
import { readReports, type ReadText } from "./inputs.ts";

/**
 * The runs of the `--history` reports, or undefined without the option.
 * A report that is not a flowrun report is kept as undefined: it is left
 * out, and counted, when the history is made.
 *
 * @example
 * ```ts
 * import { readHistory } from "./history.ts";
 * const text = '{"run_id":"r1","started_at":"2026-01-01T00:00:00Z","flows":[]}';
 * const runs = await readHistory(["a.json"], () => Promise.resolve(text));
 * if (runs?.[0]?.run_id !== "r1" || await readHistory(undefined) !== undefined) throw new Error();
 * ```
 */
export async function readHistory(
  files: readonly string[] | undefined,
  read: ReadText = (path) => io.readText(path, { limit: MAX_RECORDING_BYTES }),
): Promise<(PastRun | undefined)[] | undefined> {
  if (!files || files.length === 0) return undefined;
  return await readReports(files, "history", read, pastRun);
}

/**
 * The history of the run's flows, from the runs read: those of another
 * suite (no flow file in common) are left out.
 *
 * @example
 * ```ts
 * import { historyOf } from "./history.ts";
 * const run = { run_id: "r1", started_at: "2026-01-01T00:00:00Z", outcomes: new Map([["b.yaml\0b", "passed" as const]]) };
 * if (historyOf([run], ["a.yaml"])?.ignored !== 1 || historyOf(undefined, []) !== undefined) throw new Error();
 * ```
 */
export function historyOf(
  runs: readonly (PastRun | undefined)[] | undefined,
  files: readonly string[],
): History | undefined {
  return runs ? History.from(runs, files) : undefined;
}
