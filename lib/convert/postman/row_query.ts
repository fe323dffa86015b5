/**
 * A request whose pre-request script gives each data row its own query: a
 * data-driven search adds `firstname=Jim` for a row holding a first name and
 * nothing for a row whose cell is empty (script/row_run.ts works the script out
 * for each row). A flow's query has no "leave it out when it renders empty",
 * and a parameter sent empty is another request (a server filtering on
 * `firstname=` finds nothing where Newman's unfiltered search finds
 * everything), so the row's whole query becomes a column of the data file the
 * converter writes (`search_query`: `?firstname=Jim`, or empty), and the
 * step's URL is the script's URL before its query followed by that column:
 * each row sends exactly Newman's URL. The script is then taken out of the
 * request, as what it did is said; a script that does anything else, or whose
 * URLs differ before their query from row to row, is left to the translator,
 * which names it.
 *
 * @module
 */
import { snake } from "../names.ts";
import type { IterationData } from "./iteration_data.ts";
import type { PmCollection, PmRequest } from "./model.ts";
import { parseScript } from "./script/parse.ts";
import { rowUrl } from "./script/row_run.ts";
import { varName } from "./vars.ts";

const TOUCHES_URL = /\bpm\.request\.(url|addQueryParams)\b/;
const READS_ROW = /\bpm\.(iterationData|variables)\.get\b/;
/** What a script that only builds the URL has no business doing. */
const OTHER_EFFECT =
  /\bpm\.(test|expect|sendRequest|response|environment\.set|collectionVariables\.set|globals\.set|variables\.set|execution|request\.(body|headers|auth|method))\b|\bpostman\./;

/**
 * The collection with each such request's URL reading its row's query column,
 * and the data with those columns added; both unchanged when no request does.
 *
 * @example
 * ```ts
 * import { rowQueries } from "./row_query.ts";
 * const source = 'const q = pm.iterationData.get("q"); if (q) pm.request.url.query.add({ key: "q", value: q });';
 * const request = { name: "Search", folders: [], method: "GET", url: "{{base}}/s", headers: [], scripts: [{ listen: "prerequest" as const, source, owner: "Search" }] };
 * const c = { name: "c", version: "2.1", variables: [], units: [{ requests: [request] }], depth: 0 };
 * const data = { path: "d.csv", columns: ["q"], rows: [{ q: "cat" }, { q: "" }] as Record<string, unknown>[] };
 * const [out, rows] = rowQueries(c, data);
 * if (out.units[0].requests[0].url !== "{{base}}/s{{search_query}}") throw new Error(out.units[0].requests[0].url);
 * if (rows.rows[0].search_query !== "?q=cat" || rows.rows[1].search_query !== "") throw new Error();
 * ```
 */
export function rowQueries<D extends IterationData | undefined>(
  c: PmCollection,
  data: D,
): [PmCollection, D] {
  if (data === undefined) return [c, data];
  const columns = [...data.columns];
  const urlColumns = [...data.urlColumns ?? []];
  const rows = data.rows.map((r) => ({ ...r }));
  const cells = rows.map((r) => postmanRow(r, data.columns));
  let changed = false;
  const units = c.units.map((u) => ({
    ...u,
    requests: u.requests.map((r) => {
      const found = rowQuery(r, cells);
      if (!found) return r;
      changed = true;
      const base = snake(`${r.name} query`) || "query";
      let column = base;
      for (let n = 2; columns.some((k) => varName(k) === varName(column)); n++) {
        column = `${base}_${n}`;
      }
      columns.push(column);
      found.queries.forEach((q, i) => rows[i][varName(column)] = sentQuery(q));
      urlColumns.push(column);
      return {
        ...r,
        url: `${found.start}{{${column}}}`,
        scripts: r.scripts.filter((s) => s !== found.script),
      };
    }),
  }));
  return changed ? [{ ...c, units }, { ...data, columns, rows, urlColumns } as D] : [c, data];
}

/**
 * A query as Newman sends it: what the script wrote, with the characters a URL's query may not
 * hold as they are (a space, `"`, `#`, `'`, `<`, `>`, controls, non-ASCII) percent-encoded, and
 * what the script encoded itself (`%20`) kept.
 */
function sentQuery(q: string): string {
  return q.replace(/[^\x21-\x7E]|["#'<>]/gu, (c) => encodeURIComponent(c));
}

/** Each row's cells under the column's own name, as `pm.iterationData.get` reads them. */
function postmanRow(row: Record<string, unknown>, columns: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of columns) if (varName(c) in row) out[c] = row[varName(c)];
  return out;
}

/** The script, the URL's start every row shares and each row's query (`?…` or empty). */
function rowQuery(
  r: PmRequest,
  cells: Record<string, unknown>[],
): { script: PmRequest["scripts"][number]; start: string; queries: string[] } | undefined {
  const pre = r.scripts.filter((s) => s.listen === "prerequest" && TOUCHES_URL.test(s.source));
  if (pre.length !== 1 || !READS_ROW.test(pre[0].source) || OTHER_EFFECT.test(pre[0].source)) {
    return undefined;
  }
  const parsed = parseScript(pre[0].source);
  if (!parsed.ok) return undefined;
  const urls: string[] = [];
  for (const row of cells) {
    const out = rowUrl(parsed.program, row);
    if (!out) return undefined;
    const url = out.url ?? r.url;
    const joiner = url.includes("?") ? "&" : "?";
    urls.push(out.added.length === 0 ? url : url + joiner + out.added.join("&"));
  }
  const split = urls.map((u) => u.includes("?") ? u.indexOf("?") : u.length);
  const start = urls[0].slice(0, split[0]);
  const queries = urls.map((u, i) => u.slice(split[i]));
  // Only the query may differ, and it is sent as the row's text: no variable inside it.
  if (
    urls.some((u, i) => u.slice(0, split[i]) !== start) || queries.some((q) => q.includes("{{"))
  ) {
    return undefined;
  }
  // The same URL for every row is a plain write: the translator says it without a column.
  if (queries.every((q) => q === queries[0])) return undefined;
  return { script: pre[0], start, queries };
}
