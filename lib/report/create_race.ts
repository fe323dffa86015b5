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
 * The lines for the creates of `coverage` refused with an undocumented 5xx,
 * or none; `overlapped` says whether flows ran at once (unknown: assumed).
 * A create whose collection's read (a GET of the same path) was refused a
 * 5xx too has a line of its own, naming the read and advising nothing: no
 * create refuses a read (a RealWorld API without the table its comments
 * need answered both 500).
 *
 * @example
 * ```ts
 * import { createRaceLines } from "./create_race.ts";
 * const share = { total: 1, exercised: 1, percent: 100 };
 * const item = (method: string, path: string, undocumented: number[]) =>
 *   ({ method, path, exercised: true, responses: [], undocumented });
 * const c = (items: ReturnType<typeof item>[]) =>
 *   ({ document: "a.yaml", operations: share, responses: share, items, unmatched: [] });
 * const [line] = createRaceLines(c([item("POST", "/notes", [500])]));
 * if (!line.startsWith("POST /notes answered 500") || !line.includes("--jobs 1")) throw new Error(line);
 * if (createRaceLines(c([item("POST", "/notes/{id}", [500]), item("GET", "/notes", [503])])).length) throw new Error();
 * const [alone] = createRaceLines(c([item("POST", "/notes", [500])]), false);
 * if (alone.includes("--jobs 1") || !alone.includes("no two flows ran at once")) throw new Error(alone);
 * const [read] = createRaceLines(c([item("POST", "/notes", [500]), item("GET", "/notes", [500])]));
 * if (read.includes("--jobs 1") || !read.includes("GET /notes answered 500 too")) throw new Error(read);
 * ```
 */
export function createRaceLines(coverage: OpenApiCoverage, overlapped = true): string[] {
  const refusedReads = new Map(coverage.items.flatMap((i) => {
    const status = serverError(i);
    return i.method.toUpperCase() === "GET" && status !== undefined
      ? [[trimmed(i.path), status]]
      : [];
  }));
  const raced: string[] = [];
  const lines: string[] = [];
  for (const i of coverage.items) {
    const status = serverError(i);
    if (i.method.toUpperCase() !== "POST" || /\{[^}]*\}\/?$/.test(i.path) || status === undefined) {
      continue;
    }
    const said = `${i.method} ${i.path} answered ${status}`;
    const read = refusedReads.get(trimmed(i.path));
    if (read === undefined) raced.push(said);
    else {
      lines.push(
        `${said}, which the document does not list, and GET ${i.path} answered ${read} too: ` +
          `no create refuses a read; each step's answer says what the server refused`,
      );
    }
  }
  if (raced.length === 0) return lines;
  if (!overlapped) {
    return [
      ...lines,
      `${raced.join(", ")}, which the document does not list, while no two flows ran at ` +
      `once: not two creates overlapping; each step's answer says what the server refused`,
    ];
  }
  return [
    ...lines,
    `${raced.join(", ")}, which the document does not list: a server that numbers new ` +
    `items itself (the largest id plus one) refuses one of two creates that flows run at once ` +
    `send; run again with --jobs 1 to tell`,
  ];
}

/** The first undocumented 5xx an operation answered. */
function serverError(item: OpenApiCoverage["items"][number]): number | undefined {
  return item.undocumented.find((s) => s >= 500 && s < 600);
}

/** A path without its trailing slash: `/notes/` and `/notes` are one collection. */
const trimmed = (path: string) => path.replace(/\/$/, "");
