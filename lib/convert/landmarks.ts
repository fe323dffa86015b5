/**
 * Landmarks of two long sequences: the items each holds exactly once, in an
 * order both kept. Patience diff anchors on the lines unique to both files the
 * same way; between two landmarks, what is left is short enough to align as a
 * whole.
 *
 * @module
 */

/**
 * The places `[i, j]` where `sa[i]` and `sb[j]` are the same item, sent once in each
 * sequence, the longest run of them increasing in both.
 *
 * @example
 * ```ts
 * import { landmarks } from "./landmarks.ts";
 * const a = ["poll", "create", "poll", "poll", "save", "poll"];
 * const b = ["poll", "poll", "poll", "create", "save", "poll"];
 * if (JSON.stringify(landmarks(a, b)) !== "[[1,3],[4,4]]") throw new Error();
 * // Two items sent once but in the other order: only one of them is a landmark.
 * if (landmarks(["x", "y"], ["y", "x"]).length !== 1) throw new Error();
 * ```
 */
export function landmarks(sa: readonly string[], sb: readonly string[]): [number, number][] {
  const onceA = placesOfOnce(sa);
  const onceB = placesOfOnce(sb);
  const both: [number, number][] = [];
  for (const [item, i] of onceA) {
    const j = onceB.get(item);
    if (j !== undefined) both.push([i, j]);
  }
  both.sort((x, y) => x[0] - y[0]);
  return longestIncreasing(both);
}

/** Each item a sequence holds exactly once, with its place. */
function placesOfOnce(items: readonly string[]): Map<string, number> {
  const seen = new Map<string, number>();
  const twice = new Set<string>();
  items.forEach((item, i) => {
    if (seen.has(item)) twice.add(item);
    else seen.set(item, i);
  });
  for (const item of twice) seen.delete(item);
  return seen;
}

/** The longest run of `pairs` (sorted by their first place) whose second places increase. */
function longestIncreasing(pairs: [number, number][]): [number, number][] {
  // Patience sorting: tails[k] is the pair ending the best run of length k + 1 found so far.
  const tails: number[] = [];
  const before: number[] = new Array(pairs.length).fill(-1);
  pairs.forEach(([, j], n) => {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[tails[mid]][1] < j) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) before[n] = tails[lo - 1];
    tails[lo] = n;
  });
  const run: [number, number][] = [];
  for (let n = tails.length > 0 ? tails[tails.length - 1] : -1; n !== -1; n = before[n]) {
    run.push(pairs[n]);
  }
  return run.reverse();
}
