/**
 * The console's lines for a run's OpenAPI coverage: per document, the share
 * of operations and of documented responses exercised, the operations not
 * exercised (the first few), statuses the document does not document, and
 * whether `--coverage-min` was met.
 *
 * @module
 */
import type { OpenApiCoverage } from "../model/coverage.ts";
import { createRaceLines } from "./create_race.ts";
import type { Style } from "./style.ts";

/** How many operations not exercised, undocumented statuses or unmatched requests are named. */
const NAMED = 5;

/**
 * Whether a document's coverage is below its `--coverage-min`.
 *
 * @example
 * ```ts
 * import { belowMin } from "./coverage_text.ts";
 * const share = { total: 4, exercised: 1, percent: 25 };
 * const c = { document: "a.yaml", operations: share, responses: share, items: [], unmatched: [] };
 * if (belowMin(c) || !belowMin({ ...c, min: 50 })) throw new Error();
 * ```
 */
export function belowMin(coverage: OpenApiCoverage): boolean {
  return coverage.min !== undefined && coverage.operations.percent < coverage.min;
}

/**
 * Whether a run's coverage fell below `--coverage-min` for any document,
 * which fails the run (exit 1), as `merge` of its shards.
 *
 * @example
 * ```ts
 * import { coverageFailed } from "./coverage_text.ts";
 * const share = { total: 2, exercised: 1, percent: 50 };
 * const c = { document: "a.yaml", operations: share, responses: share, items: [], unmatched: [], min: 80 };
 * if (!coverageFailed({ openapi_coverage: [c] }) || coverageFailed({})) throw new Error();
 * ```
 */
export function coverageFailed(result: { openapi_coverage?: readonly OpenApiCoverage[] }): boolean {
  return (result.openapi_coverage ?? []).some(belowMin);
}

/**
 * The coverage lines of a run, one block per document; `overlapped` says
 * whether the run's flows ran at once (see `create_race.ts`).
 *
 * @example
 * ```ts
 * import { formatCoverage } from "./coverage_text.ts";
 * import { style } from "./style.ts";
 * const text = formatCoverage([{
 *   document: "api.yaml",
 *   operations: { total: 2, exercised: 1, percent: 50 },
 *   responses: { total: 3, exercised: 1, percent: 33.3 },
 *   items: [
 *     { method: "GET", path: "/a", exercised: true, responses: [{ status: "200", exercised: true }], undocumented: [500] },
 *     { method: "POST", path: "/a", exercised: false, responses: [], undocumented: [] },
 *   ],
 *   unmatched: [],
 * }], style(false));
 * if (!text.startsWith("OpenAPI coverage of api.yaml: 1 of 2 operations (50 %), 1 of 3 documented responses (33.3 %)\n")) {
 *   throw new Error(text);
 * }
 * if (!text.includes("  not exercised: POST /a\n") || !text.includes("  undocumented statuses: GET /a 500\n")) {
 *   throw new Error(text);
 * }
 * ```
 */
export function formatCoverage(
  coverages: readonly OpenApiCoverage[],
  s: Style,
  overlapped = true,
): string {
  return coverages.map((c) => documentLines(c, s, overlapped).join("\n") + "\n").join("");
}

function documentLines(c: OpenApiCoverage, s: Style, overlapped: boolean): string[] {
  const lines = [
    `OpenAPI coverage of ${
      s.bold(c.document)
    }: ${c.operations.exercised} of ${c.operations.total} ` +
    `operations (${c.operations.percent} %), ${c.responses.exercised} of ${c.responses.total} ` +
    `documented responses (${c.responses.percent} %)`,
  ];
  const missing = c.items.filter((i) => !i.exercised).map((i) => `${i.method} ${i.path}`);
  if (missing.length > 0) lines.push(`  not exercised: ${named(missing)}`);
  const undocumented = c.items.flatMap((i) =>
    i.undocumented.map((status) => `${i.method} ${i.path} ${status}`)
  );
  if (undocumented.length > 0) {
    lines.push(s.yellow(`  undocumented statuses: ${named(undocumented)}`));
  }
  for (const race of createRaceLines(c, overlapped)) lines.push(s.yellow(`  ${race}`));
  const unmatched = c.unmatched.map((u) => `${u.method} ${u.path}`);
  const more = (c.unmatched_omitted ?? 0) > 0 ? ` (and ${c.unmatched_omitted} more)` : "";
  if (unmatched.length > 0) lines.push(`  no operation serves: ${named(unmatched)}${more}`);
  if (c.requests_omitted) {
    lines.push(s.yellow(`  ${c.requests_omitted} distinct requests past 100,000 were not counted`));
  }
  if (c.min !== undefined) {
    lines.push(
      belowMin(c)
        ? s.red(`✘ below --coverage-min ${c.min}: ${c.operations.percent} % of operations`)
        : s.green(`✔ --coverage-min ${c.min} met`),
    );
  }
  return lines;
}

/** The first few of a list, then how many more (all of them are in the JSON and HTML reports). */
function named(list: readonly string[]): string {
  const shown = list.slice(0, NAMED).join(", ");
  return list.length > NAMED ? `${shown}, … ${list.length - NAMED} more` : shown;
}
