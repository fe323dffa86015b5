/**
 * The streaks and notes of `--history` (lib/report/history.ts), over the
 * cases a CI run meets: a new failure, a long one, a flow that recovered,
 * skipped runs, flaky runs, data rows, reports of other suites, files that
 * are no report, and more runs than a streak shows.
 */
import assert from "node:assert/strict";
import { History, pastRun, STREAK_RUNS } from "../../lib/report/history.ts";

/** A report of run `n` (started on day n) where each named flow of a.yaml ended so. */
function report(n: number, flows: Record<string, string>, file = "a.yaml"): unknown {
  return {
    run_id: `r${n}`,
    started_at: new Date(Date.UTC(2026, 0, n)).toISOString(),
    flows: Object.entries(flows).map(([name, status]) => ({
      file,
      name,
      status: status === "flaky" ? "passed" : status,
      ...(status === "flaky" ? { flaky: true } : {}),
    })),
  };
}

const historyOf = (reports: unknown[]) => History.from(reports.map(pastRun), ["a.yaml"]);
const now = (name: string, status: string, flaky = false) => ({
  file: "a.yaml",
  name,
  status: status as "passed",
  ...(flaky ? { flaky } : {}),
});

Deno.test("a new failure, a long one, and a flow that recovered", () => {
  const h = historyOf([
    report(3, { fresh: "passed", long: "failed", back: "failed" }),
    report(1, { fresh: "passed", long: "passed", back: "failed" }),
    report(2, { fresh: "flaky", long: "failed", back: "failed" }),
  ]);
  // Read out of order, shown oldest first.
  assert.deepEqual(h.runs.map((r) => r.run_id), ["r1", "r2", "r3"]);
  assert.deepEqual(h.of(now("fresh", "failed")), {
    streak: "✔⚠✔✘",
    note: "new failure: passed in the last 3 runs",
  });
  assert.deepEqual(h.of(now("long", "error")), {
    streak: "✔✘✘✘",
    note: "failing since r2 (2026-01-02)",
  });
  assert.deepEqual(h.of(now("back", "passed")), { streak: "✘✘✘✔" });
  assert.equal(h.of(now("unknown", "failed")), undefined);
});

Deno.test("skipped runs are shown but do not break a streak's note", () => {
  const h = historyOf([report(1, { f: "failed" }), report(2, { f: "skipped" })]);
  assert.deepEqual(h.of(now("f", "failed")), {
    streak: "✘○✘",
    note: "failing since r1 (2026-01-01)",
  });
  const only = historyOf([report(1, { f: "skipped" })]);
  assert.deepEqual(only.of(now("f", "failed")), { streak: "○✘" });
});

Deno.test("a flaky flow says how often it was flaky", () => {
  const h = historyOf([report(1, { f: "flaky" }), report(2, { f: "passed" })]);
  assert.deepEqual(h.of(now("f", "passed", true)), {
    streak: "⚠✔⚠",
    note: "flaky in 2 of the last 3 runs",
  });
  // A flow flaky long ago and green since says nothing.
  const calm = historyOf([report(1, { f: "flaky" }), report(2, { f: "passed" })]);
  assert.deepEqual(calm.of(now("f", "passed")), { streak: "⚠✔✔" });
});

Deno.test("reports of other suites and files that are no report are left out and counted", () => {
  const h = History.from(
    [
      pastRun(report(1, { f: "passed" })),
      pastRun(report(2, { f: "failed" }, "other/b.yaml")),
      pastRun({ hello: "world" }),
      pastRun(null),
      pastRun({ run_id: "x", started_at: "2026-01-05T00:00:00Z", flows: [null, { file: 1 }] }),
    ],
    ["a.yaml"],
  );
  assert.deepEqual(h.runs.map((r) => r.run_id), ["r1"]);
  assert.equal(h.ignored, 4);
});

Deno.test("the rows of a data-driven flow are flows of their own; a streak shows the last runs", () => {
  const many = Array.from(
    { length: STREAK_RUNS + 5 },
    (_, i) => report(i + 1, { "f [row 1]": "passed", "f [row 2]": i === 0 ? "failed" : "passed" }),
  );
  const h = historyOf(many);
  assert.equal(h.runs.length, STREAK_RUNS);
  assert.equal(h.runs[0].run_id, "r6");
  assert.deepEqual(h.of(now("f [row 1]", "passed")), { streak: "✔".repeat(STREAK_RUNS + 1) });
  assert.deepEqual(h.of(now("f [row 2]", "failed")), {
    streak: `${"✔".repeat(STREAK_RUNS)}✘`,
    note: `new failure: passed in the last ${STREAK_RUNS} runs`,
  });
});
