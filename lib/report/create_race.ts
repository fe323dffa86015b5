/**
 * What the coverage lines say of a create (a POST to a collection) that
 * answered a 5xx its document does not list: a server that numbers new items
 * itself, reading the largest id and writing it plus one, refuses the second
 * of two creates that overlap (an Express API on MariaDB answered 500
 * "Duplicate entry '1' for key 'PRIMARY'" when two flows, run at once by
 * `--jobs`, each made a post), and the step said only `got 500`. The line
 * names the cause that is likely and the way to tell: one flow at a time.
 * When no two flows ran at once (`--jobs 1`, or one flow), no creates
 * overlapped: the line says the refusal was not that, instead of advising
 * the `--jobs 1` the run already had (a NestJS API answered its creates 500
 * for want of a row its document never described, with one flow at a time
 * as without).
 *
 * @module
 */
import type { OpenApiCoverage } from "../model/coverage.ts";

/**
 * The line for the creates of `coverage` refused with an undocumented 5xx,
 * or none; `overlapped` says whether flows ran at once (unknown: assumed).
 *
 * @example
 * ```ts
 * import { createRaceLine } from "./create_race.ts";
 * const share = { total: 1, exercised: 1, percent: 100 };
 * const item = (method: string, path: string, undocumented: number[]) =>
 *   ({ method, path, exercised: true, responses: [], undocumented });
 * const c = (items: ReturnType<typeof item>[]) =>
 *   ({ document: "a.yaml", operations: share, responses: share, items, unmatched: [] });
 * const line = createRaceLine(c([item("POST", "/notes", [500])])) ?? "";
 * if (!line.startsWith("POST /notes answered 500") || !line.includes("--jobs 1")) throw new Error(line);
 * if (createRaceLine(c([item("POST", "/notes/{id}", [500]), item("GET", "/notes", [503])]))) throw new Error();
 * const alone = createRaceLine(c([item("POST", "/notes", [500])]), false) ?? "";
 * if (alone.includes("--jobs 1") || !alone.includes("no two flows ran at once")) throw new Error(alone);
 * ```
 */
export function createRaceLine(coverage: OpenApiCoverage, overlapped = true): string | undefined {
  const refused = coverage.items.flatMap((i) => {
    const creates = i.method.toUpperCase() === "POST" && !/\{[^}]*\}\/?$/.test(i.path);
    const status = i.undocumented.find((s) => s >= 500 && s < 600);
    return creates && status !== undefined ? [`${i.method} ${i.path} answered ${status}`] : [];
  });
  if (refused.length === 0) return undefined;
  if (!overlapped) {
    return `${refused.join(", ")}, which the document does not list, while no two flows ran at ` +
      `once: not two creates overlapping; each step's answer says what the server refused`;
  }
  return `${refused.join(", ")}, which the document does not list: a server that numbers new ` +
    `items itself (the largest id plus one) refuses one of two creates that flows run at once ` +
    `send; run again with --jobs 1 to tell`;
}
