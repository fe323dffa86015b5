/**
 * A flow's history from earlier JSON reports (`--history`, the reports
 * `--shard-timings` reads): its recent streak (`✔✔✘⚠✔`, newest last, this
 * run included) and whether it started failing in this run or has been
 * failing for a while, which tells a broken flow from a flaky one.
 *
 * Reports are read leniently: one that is not a flowrun report, or shares
 * no flow file with this run (another suite), is left out; a flow is the
 * same flow when its file and name are (rows of a data-driven flow are
 * flows of their own).
 *
 * @module
 */
import type { FlowResult } from "../model/result.ts";

/** How a flow ended in one run, as its streak shows it. */
export type Outcome = "passed" | "failed" | "flaky" | "skipped";

/** One earlier run: its id, when it started, and each flow's outcome. */
export interface PastRun {
  /** The run's id, as its report gives it. */
  run_id: string;
  /** When it started (ISO 8601). */
  started_at: string;
  /** Each flow's outcome, by its file and name. */
  outcomes: Map<string, Outcome>;
}

/** A flow's streak and what it says, for the console and the HTML report. */
export interface FlowHistory {
  /** `✔✔✘⚠✔`: the last runs' outcomes, oldest first, this run last. */
  streak: string;
  /** `new failure: passed in the last 5 runs`, `failing since …`, `flaky in 2 of the last 6 runs`. */
  note?: string;
}

/** How many earlier runs a streak shows at most. */
export const STREAK_RUNS = 10;

const MARKS: Record<Outcome, string> = { passed: "✔", failed: "✘", flaky: "⚠", skipped: "○" };

/** A flow's key across reports. */
const keyOf = (file: string, name: string) => `${file}\0${name}`;

/**
 * A flow's outcome from its result.
 *
 * @example
 * ```ts
 * import { outcomeOf } from "./history.ts";
 * if (outcomeOf({ status: "passed", flaky: true }) !== "flaky" || outcomeOf({ status: "error" }) !== "failed") throw new Error();
 * ```
 */
export function outcomeOf(flow: { status: string; flaky?: boolean }): Outcome {
  if (flow.status === "passed") return flow.flaky ? "flaky" : "passed";
  return flow.status === "skipped" ? "skipped" : "failed";
}

/**
 * A report's run, or undefined when it is not a flowrun report: only what a
 * streak needs is kept, so a large report is garbage once read.
 *
 * @example
 * ```ts
 * import { pastRun } from "./history.ts";
 * const run = pastRun({ run_id: "r", started_at: "2026-01-01T00:00:00Z", flows: [{ file: "a.yaml", name: "a", status: "passed", flaky: true }] });
 * if (run?.outcomes.get("a.yaml\0a") !== "flaky" || pastRun({ flows: [] }) !== undefined) throw new Error();
 * ```
 */
export function pastRun(report: unknown): PastRun | undefined {
  const r = report as { run_id?: unknown; started_at?: unknown; flows?: unknown } | null;
  if (typeof r?.run_id !== "string" || typeof r.started_at !== "string") return undefined;
  if (!Array.isArray(r.flows)) return undefined;
  const outcomes = new Map<string, Outcome>();
  for (const flow of r.flows) {
    const f = flow as { file?: unknown; name?: unknown; status?: unknown; flaky?: unknown } | null;
    if (typeof f?.file !== "string" || typeof f.name !== "string") continue;
    if (typeof f.status !== "string") continue;
    outcomes.set(keyOf(f.file, f.name), outcomeOf({ status: f.status, flaky: f.flaky === true }));
  }
  return { run_id: r.run_id, started_at: r.started_at, outcomes };
}

/**
 * The history of this run's flows in earlier reports.
 *
 * @example
 * ```ts
 * import { History, pastRun } from "./history.ts";
 * const past = (id: string, status: string) => ({ run_id: id, started_at: `2026-01-0${id}T00:00:00Z`,
 *   flows: [{ file: "a.yaml", name: "a", status }] });
 * const history = History.from([past("1", "passed"), past("2", "passed")].map(pastRun), ["a.yaml"]);
 * const now = history.of({ file: "a.yaml", name: "a", status: "failed" });
 * if (now?.streak !== "✔✔✘" || now.note !== "new failure: passed in the last 2 runs") throw new Error(JSON.stringify(now));
 * ```
 */
export class History {
  /** The earlier runs used, oldest first. */
  readonly runs: readonly PastRun[];
  /** How many reports were left out: not flowrun reports, or of another suite. */
  readonly ignored: number;

  private constructor(runs: PastRun[], ignored: number) {
    this.runs = runs;
    this.ignored = ignored;
  }

  /**
   * The runs read ({@linkcode pastRun}; undefined: not a report) that share
   * a flow file with `files` (this run's), oldest first, the last
   * {@linkcode STREAK_RUNS} of them.
   */
  static from(read: readonly (PastRun | undefined)[], files: readonly string[]): History {
    const mine = new Set(files);
    const runs: PastRun[] = [];
    for (const run of read) {
      const ours = run && [...run.outcomes.keys()].some((k) => mine.has(k.split("\0")[0]));
      if (run && ours) runs.push(run);
    }
    runs.sort((a, b) => Date.parse(a.started_at) - Date.parse(b.started_at));
    return new History(runs.slice(-STREAK_RUNS), read.length - runs.length);
  }

  /** The flow's streak and note; undefined when no earlier run had it. */
  of(flow: Pick<FlowResult, "file" | "name" | "status" | "flaky">): FlowHistory | undefined {
    const key = keyOf(flow.file, flow.name);
    const past = this.runs.flatMap((run) => {
      const outcome = run.outcomes.get(key);
      return outcome ? [{ run, outcome }] : [];
    });
    if (past.length === 0) return undefined;
    const now = outcomeOf(flow);
    const streak = [...past.map((p) => MARKS[p.outcome]), MARKS[now]].join("");
    const note = noteOf(now, past);
    return note ? { streak, note } : { streak };
  }
}

/** What the streak says: a new failure, a long one, or a flow flaky before. */
function noteOf(now: Outcome, past: { run: PastRun; outcome: Outcome }[]): string | undefined {
  const ran = past.filter((p) => p.outcome !== "skipped");
  if (ran.length === 0) return undefined;
  if (now === "failed") {
    let i = ran.length;
    while (i > 0 && ran[i - 1].outcome === "failed") i--;
    if (i < ran.length) {
      const since = ran[i].run;
      return `failing since ${since.run_id} (${since.started_at.slice(0, 10)})`;
    }
    const passes = ran.length - (ran.findLastIndex((p) => p.outcome === "failed") + 1);
    return `new failure: passed in the last ${passes === 1 ? "run" : `${passes} runs`}`;
  }
  const flaky = ran.filter((p) => p.outcome === "flaky").length + (now === "flaky" ? 1 : 0);
  if (flaky > 0 && (now === "flaky" || ran.at(-1)?.outcome === "flaky")) {
    return `flaky in ${flaky} of the last ${ran.length + 1} runs`;
  }
  return undefined;
}
