/**
 * The OpenAPI coverage of shards merged into one run's: per document (by
 * its path), an operation or documented response is exercised when any
 * shard exercised it; undocumented statuses are joined, unserved requests
 * added up. A report's `openapi_coverage` is checked first, so a crafted
 * report is a clear `bad-report`, not a crash.
 *
 * @module
 */
import {
  byCount,
  coverageShare as share,
  type OpenApiCoverage,
  type OperationCoverage,
  UNMATCHED_KEPT,
} from "../model/coverage.ts";
import { Mismatch } from "./report_shape.ts";

/**
 * Checks the shape of a report's `openapi_coverage` (absent is fine).
 *
 * @example
 * ```ts
 * import { checkCoverageShape } from "./merge_coverage.ts";
 * checkCoverageShape(undefined);
 * let threw = false;
 * try { checkCoverageShape([{ document: 1 }]); } catch { threw = true; }
 * if (!threw) throw new Error();
 * ```
 */
export function checkCoverageShape(value: unknown): void {
  if (value === undefined) return;
  const list = arrayAt(value, "openapi_coverage");
  list.forEach((entry, i) => {
    const at = `openapi_coverage[${i}]`;
    const c = objectAt(entry, at);
    if (typeof c.document !== "string") throw new Mismatch(`${at}.document must be a string`);
    arrayAt(c.items, `${at}.items`).forEach((item, j) => {
      const o = objectAt(item, `${at}.items[${j}]`);
      if (typeof o.method !== "string" || typeof o.path !== "string") {
        throw new Mismatch(`${at}.items[${j}] must have a method and a path`);
      }
      arrayAt(o.responses, `${at}.items[${j}].responses`).forEach((r, k) => {
        if (typeof objectAt(r, `${at}.items[${j}].responses[${k}]`).status !== "string") {
          throw new Mismatch(`${at}.items[${j}].responses[${k}].status must be a string`);
        }
      });
      if (!arrayAt(o.undocumented, `${at}.items[${j}].undocumented`).every(Number.isInteger)) {
        throw new Mismatch(`${at}.items[${j}].undocumented must hold whole numbers`);
      }
    });
    arrayAt(c.unmatched, `${at}.unmatched`).forEach((u, j) => {
      const o = objectAt(u, `${at}.unmatched[${j}]`);
      if (typeof o.method !== "string" || typeof o.path !== "string" || !isCount(o.count)) {
        throw new Mismatch(`${at}.unmatched[${j}] must have a method, a path and a count`);
      }
    });
  });
}

/**
 * The shards' coverage as one run's; undefined when no shard had any.
 *
 * @example
 * ```ts
 * import { mergeCoverage } from "./merge_coverage.ts";
 * const doc = (exercised: boolean) => ({
 *   document: "api.yaml", operations: { total: 1, exercised: exercised ? 1 : 0, percent: 0 },
 *   responses: { total: 1, exercised: 0, percent: 0 }, unmatched: [],
 *   items: [{ method: "GET", path: "/a", exercised, responses: [{ status: "200", exercised }], undocumented: [] }],
 * });
 * const [merged] = mergeCoverage([[doc(false)], undefined, [doc(true)]])!;
 * if (merged.operations.percent !== 100 || merged.responses.exercised !== 1) throw new Error();
 * ```
 */
export function mergeCoverage(
  lists: readonly (readonly OpenApiCoverage[] | undefined)[],
): OpenApiCoverage[] | undefined {
  const byDocument = new Map<string, OpenApiCoverage[]>();
  for (const list of lists) {
    for (const c of list ?? []) {
      byDocument.set(c.document, [...byDocument.get(c.document) ?? [], c]);
    }
  }
  if (byDocument.size === 0) return undefined;
  return [...byDocument.values()].map(mergeDocument);
}

/** One document's coverage from every shard that reported it. */
function mergeDocument(shards: OpenApiCoverage[]): OpenApiCoverage {
  const items = new Map<string, OperationCoverage>();
  for (const shard of shards) {
    for (const item of shard.items) {
      const key = `${item.method} ${item.path}`;
      const known = items.get(key);
      items.set(key, known ? mergeItem(known, item) : structuredClone(item));
    }
  }
  const list = [...items.values()];
  const responses = list.flatMap((i) => i.responses);
  const unmatched = mergeUnmatched(shards);
  const mins = shards.map((s) => s.min).filter((m): m is number => m !== undefined);
  const omitted = sum(shards.map((s) => s.requests_omitted ?? 0));
  return {
    document: shards[0].document,
    operations: share(list.length, list.filter((i) => i.exercised).length),
    responses: share(responses.length, responses.filter((r) => r.exercised).length),
    // Shards of one run share their options; should they differ, the strictest applies.
    ...(mins.length > 0 ? { min: Math.max(...mins) } : {}),
    items: list,
    ...unmatched,
    ...(omitted > 0 ? { requests_omitted: omitted } : {}),
  };
}

/** An operation seen by two shards. */
function mergeItem(a: OperationCoverage, b: OperationCoverage): OperationCoverage {
  const responses = a.responses.map((r) => ({
    status: r.status,
    exercised: r.exercised || b.responses.some((o) => o.status === r.status && o.exercised),
  }));
  for (const r of b.responses) {
    if (!responses.some((o) => o.status === r.status)) responses.push({ ...r });
  }
  return {
    method: a.method,
    path: a.path,
    exercised: a.exercised || b.exercised,
    responses,
    undocumented: [...new Set([...a.undocumented, ...b.undocumented])].sort((x, y) => x - y),
  };
}

/** Unserved requests added up by method and path, most frequent first, the first 50 kept. */
function mergeUnmatched(shards: readonly OpenApiCoverage[]) {
  const counts = new Map<string, { method: string; path: string; count: number }>();
  for (const u of shards.flatMap((s) => s.unmatched)) {
    const key = `${u.method} ${u.path}`;
    const known = counts.get(key);
    if (known) known.count += u.count;
    else counts.set(key, { ...u });
  }
  const ranked = [...counts.values()].sort(byCount);
  const omitted = sum(shards.map((s) => s.unmatched_omitted ?? 0)) +
    Math.max(0, ranked.length - UNMATCHED_KEPT);
  return {
    unmatched: ranked.slice(0, UNMATCHED_KEPT),
    ...(omitted > 0 ? { unmatched_omitted: omitted } : {}),
  };
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function isCount(value: unknown): boolean {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 1;
}

function arrayAt(value: unknown, at: string): unknown[] {
  if (!Array.isArray(value)) throw new Mismatch(`${at} must be an array`);
  return value;
}

function objectAt(value: unknown, at: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Mismatch(`${at} must be an object`);
  }
  return value as Record<string, unknown>;
}
