/**
 * "Did you mean …?" suggestions for misspelt keys, operators, options and names.
 *
 * @module
 */

/** Edit distance between two strings (Levenshtein, with transpositions counted as one edit). */
function distance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => [i, ...new Array(cols - 1).fill(0)]);
  for (let j = 1; j < cols; j++) d[0][j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[rows - 1][cols - 1];
}

/** Lower-cases and drops `_`/`-` so `dependsOn`, `depends-on` and `depends_on` compare equal. */
function fold(word: string): string {
  return word.toLowerCase().replace(/[-_]/g, "");
}

/**
 * Returns the candidate closest to `word`, or `undefined` when none is close
 * enough to be a plausible typo.
 *
 * @example
 * ```ts
 * import { suggest } from "./suggest.ts";
 * if (suggest("captures", ["capture", "extract"]) !== "capture") throw new Error();
 * if (suggest("dependsOn", ["depends_on"]) !== "depends_on") throw new Error();
 * if (suggest("zzz", ["capture"]) !== undefined) throw new Error();
 * ```
 */
export function suggest(word: string, candidates: Iterable<string>): string | undefined {
  const folded = fold(word);
  let best: string | undefined;
  let bestScore = Infinity;
  for (const candidate of candidates) {
    const c = fold(candidate);
    if (c === folded) return candidate;
    const score = distance(folded, c);
    // Allow roughly one edit per three characters, so short words need a close match.
    const limit = Math.max(1, Math.floor(Math.max(folded.length, c.length) / 3));
    if (score <= limit && score < bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}
