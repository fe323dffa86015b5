/**
 * What a run exercised of an OpenAPI document: which operations it sent a
 * request to, which of their documented responses came back, what came back
 * that the document does not document, and the requests no operation
 * serves. Part of the run's result (`openapi_coverage` in the JSON report).
 *
 * @module
 */

/** A share of a document's operations or responses. */
export interface CoverageShare {
  /** How many the document has. */
  total: number;
  /** How many the run exercised. */
  exercised: number;
  /** `exercised / total` in percent, one decimal (100 for an empty document). */
  percent: number;
}

/** One operation of the document and what the run saw of it. */
export interface OperationCoverage {
  /** Upper case: `GET`. */
  method: string;
  /** The path template as the document writes it. */
  path: string;
  /** Whether any response came back from it. */
  exercised: boolean;
  /** Each documented response key (`200`, `4XX`, `default`) and whether a response matched it. */
  responses: { status: string; exercised: boolean }[];
  /** Statuses that came back and that no documented response covers, ascending. */
  undocumented: number[];
}

/** A run's coverage of one OpenAPI document. */
export interface OpenApiCoverage {
  /** The document's path, as given to `--openapi` or resolved from an `openapi:` check. */
  document: string;
  /** Operations exercised (at least one response). */
  operations: CoverageShare;
  /** Documented responses (operation and response key) exercised. */
  responses: CoverageShare;
  /** `--coverage-min`, when given: the operations' percent the run needed. */
  min?: number;
  /** Every operation, in the document's order. */
  items: OperationCoverage[];
  /**
   * Requests under the document's base path that no operation serves, by
   * method and path (secrets masked), most frequent first; at most 50 kept.
   */
  unmatched: { method: string; path: string; count: number }[];
  /** How many distinct unmatched requests were left out of `unmatched`. */
  unmatched_omitted?: number;
  /**
   * Distinct requests (method, status, path) past the run's bound of
   * 100,000 that were counted but not matched: the coverage may be low.
   */
  requests_omitted?: number;
}

/**
 * How many requests no operation serves a document's coverage lists (the
 * most frequent): the rest are counted in `unmatched_omitted`.
 *
 * @example
 * ```ts
 * import { UNMATCHED_KEPT } from "./coverage.ts";
 * if (UNMATCHED_KEPT !== 50) throw new Error();
 * ```
 */
export const UNMATCHED_KEPT = 50;

/**
 * A share with its percent rounded down to one decimal, so 100 means every
 * one; an empty whole is fully covered.
 *
 * @example
 * ```ts
 * import { coverageShare } from "./coverage.ts";
 * if (coverageShare(3, 2).percent !== 66.6 || coverageShare(0, 0).percent !== 100) throw new Error();
 * ```
 */
export function coverageShare(total: number, exercised: number): CoverageShare {
  const percent = total === 0 ? 100 : Math.floor((exercised / total) * 1000) / 10;
  return { total, exercised, percent };
}

/**
 * Orders unserved requests: most frequent first, then by path.
 *
 * @example
 * ```ts
 * import { byCount } from "./coverage.ts";
 * const list = [{ path: "/b", count: 1 }, { path: "/a", count: 1 }, { path: "/c", count: 2 }];
 * if (list.sort(byCount).map((u) => u.path).join() !== "/c,/a,/b") throw new Error();
 * ```
 */
export function byCount(a: { path: string; count: number }, b: { path: string; count: number }) {
  return b.count - a.count || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}
