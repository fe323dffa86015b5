/**
 * Shards balanced by time: files dealt to machines by the durations a
 * previous run recorded, so the slowest shard ends close to the mean instead
 * of waiting on whichever machine drew the slow files. Each machine computes
 * the same split from the same files and the same report.
 *
 * @module
 */
import { compareCodePoints, type Shard } from "./shard.ts";

/**
 * Milliseconds per flow file from JSON reports (a run's, or shards' merged or
 * not): flows of the same file (data rows) add up; a file in several reports
 * keeps its latest figure. Reads `flows[].file` and `flows[].duration_ms`
 * only; anything else in the report is ignored.
 *
 * @example
 * ```ts
 * import { durationsFromReports } from "./shard_time.ts";
 * const d = durationsFromReports([{ flows: [{ file: "a.yaml", duration_ms: 5 }, { file: "a.yaml", duration_ms: 2 }] }]);
 * if (d.get("a.yaml") !== 7) throw new Error();
 * ```
 */
export function durationsFromReports(reports: readonly unknown[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const report of reports) {
    const flows = (report as { flows?: unknown })?.flows;
    if (!Array.isArray(flows)) continue;
    const mine = new Map<string, number>();
    for (const flow of flows) {
      const { file, duration_ms } = (flow ?? {}) as { file?: unknown; duration_ms?: unknown };
      if (typeof file !== "string" || typeof duration_ms !== "number" || !(duration_ms >= 0)) {
        continue;
      }
      mine.set(file, (mine.get(file) ?? 0) + duration_ms);
    }
    for (const [file, ms] of mine) out.set(file, ms);
  }
  return out;
}

/**
 * This shard's files when balanced by time. A file's time is looked up by its
 * path as the reports wrote it, else by its path relative to the path
 * argument (`key`, the same on every machine); a file the reports do not
 * know counts as an average one. The longest files are dealt first, each to
 * the shard with the least time so far (ties: the lower shard, files in
 * path order), which keeps the slowest shard within one file of the mean.
 *
 * @example
 * ```ts
 * import { selectShardByTime } from "./shard_time.ts";
 * const files = ["a", "b", "c", "d"].map((k) => ({ file: `${k}.yaml`, key: `${k}.yaml` }));
 * const times = new Map([["a.yaml", 900], ["b.yaml", 100], ["c.yaml", 100], ["d.yaml", 700]]);
 * const part = (index: number) => selectShardByTime(files, { index, total: 2 }, times).map((f) => f.key).join();
 * if (part(1) !== "a.yaml" || part(2) !== "b.yaml,c.yaml,d.yaml") throw new Error(part(1) + " " + part(2));
 * ```
 */
export function selectShardByTime<T extends { file: string; key: string }>(
  files: readonly T[],
  shard: Shard,
  durations: ReadonlyMap<string, number>,
): T[] {
  const { index, total } = shard;
  if (!Number.isSafeInteger(total) || total < 1 || !(index >= 1 && index <= total)) {
    throw new RangeError(`Invalid shard ${index}/${total}.`);
  }
  // Each report path under each of its tails (`a/b/c.yaml`, `b/c.yaml`, `c.yaml`): a file's key
  // finds its time even when the reports were written from another working directory.
  const bySuffix = new Map<string, number>();
  for (const [file, ms] of durations) {
    const parts = file.split("/");
    for (let i = 0; i < parts.length; i++) {
      const tail = parts.slice(i).join("/");
      if (!bySuffix.has(tail)) bySuffix.set(tail, ms);
    }
  }
  const known = (f: T) => durations.get(f.file) ?? bySuffix.get(f.key);
  const times = files.map(known);
  const seen = times.filter((t): t is number => t !== undefined);
  const average = seen.length > 0 ? seen.reduce((a, b) => a + b, 0) / seen.length : 1;
  const order = files.map((f, i) => ({ f, ms: times[i] ?? average }))
    .sort((a, b) =>
      b.ms - a.ms || compareCodePoints(a.f.key, b.f.key) || compareCodePoints(a.f.file, b.f.file)
    );
  const loads = new Array<number>(total).fill(0);
  const mine: T[] = [];
  for (const { f, ms } of order) {
    let least = 0;
    for (let s = 1; s < total; s++) if (loads[s] < loads[least]) least = s;
    loads[least] += ms;
    if (least === index - 1) mine.push(f);
  }
  return mine.sort((a, b) => compareCodePoints(a.key, b.key) || compareCodePoints(a.file, b.file));
}
