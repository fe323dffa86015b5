/**
 * Newman's data file (`-d FILE`, `--iteration-data`), read as Newman reads it:
 * JSON first (a list of objects), else CSV whose first row names the columns;
 * an unquoted cell that reads as a number is that number (a quoted one stays
 * text), cells are trimmed, a row may have fewer or more cells than the header
 * (those missing are absent, those beyond are dropped) and a byte order mark
 * is ignored. Each row is one run of the whole collection, its cells the
 * `data` scope: `{{column}}` and `pm.iterationData.get("column")`.
 *
 * @module
 */
import { snake } from "../names.ts";
import { PostmanInputError } from "./errors.ts";
import type { PmCollection } from "./model.ts";
import { type Variables, varName } from "./vars.ts";

/** A data file's rows, keyed by flow var name. */
export interface IterationData {
  /** The file's name as given (for the summary). */
  path: string;
  /** The Postman names of the columns, in order (a column with no name left out). */
  columns: string[];
  /** Each row's values by flow var name (`varName` of the column). */
  rows: Record<string, unknown>[];
  /** Columns the converter added holding each row's query as Newman sends it (row_query.ts). */
  urlColumns?: string[];
}

const HINT =
  "Give the CSV (a header row, then a row per run) or JSON list of objects Newman reads with -d.";

/**
 * The rows of a data file.
 *
 * @example
 * ```ts
 * import { readIterationData } from "./iteration_data.ts";
 * const d = readIterationData('op,n,label\nadd, 2 ,"3"\n', "data.csv");
 * if (JSON.stringify(d.rows) !== '[{"op":"add","n":2,"label":"3"}]') throw new Error(JSON.stringify(d.rows));
 * if (readIterationData('[{"a": true}]', "d.json").rows[0].a !== true) throw new Error();
 * ```
 */
export function readIterationData(text: string, path: string): IterationData {
  const clean = text.replace(/^\uFEFF/, "").trim();
  let objects: unknown;
  try {
    objects = JSON.parse(clean);
  } catch {
    objects = csvObjects(clean);
  }
  if (!Array.isArray(objects) || objects.length === 0) {
    throw new PostmanInputError("data", "The data file holds no rows.", HINT);
  }
  const columns: string[] = [];
  const rows = objects.map((o, i) => {
    if (typeof o !== "object" || o === null || Array.isArray(o)) {
      throw new PostmanInputError("data", `Row ${i + 1} of the data file is not an object.`, HINT);
    }
    const row: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(o)) {
      if (k.trim() === "") continue;
      if (!columns.includes(k)) columns.push(k);
      row[varName(k)] = v;
    }
    return row;
  });
  return { path, columns, rows };
}

/**
 * The rows as a JSON file beside the flows (`users.csv` → `users.data.json`), each a run of
 * every flow (`data: {file: …}`); JSON keeps the types Newman read.
 *
 * @example
 * ```ts
 * import { dataFileOf } from "./iteration_data.ts";
 * const f = dataFileOf({ path: "postman/Data Set.csv", columns: ["n"], rows: [{ n: 1 }] });
 * if (f.path !== "data_set.data.json" || JSON.parse(f.text)[0].n !== 1) throw new Error(f.path);
 * ```
 */
export function dataFileOf(data: IterationData): { path: string; text: string } {
  const stem = snake(data.path.replace(/^.*[\\/]/, "").replace(/\.[^.]*$/, "")) || "data";
  return { path: `${stem}.data.json`, text: JSON.stringify(data.rows, null, 2) + "\n" };
}

/**
 * Whether a collection converted without a data file reads one: a script's `pm.iterationData`,
 * or a `{{x}}` no file gives and no script sets (what a data file's column gives in Newman).
 *
 * @example
 * ```ts
 * import { readsData } from "./iteration_data.ts";
 * import { Variables } from "./vars.ts";
 * const c = { name: "c", version: "2.1", variables: [], units: [], depth: 0 };
 * if (readsData(c, new Variables([], []))) throw new Error();
 * ```
 */
export function readsData(c: PmCollection, vars: Variables): boolean {
  const scripts = c.units.flatMap((u) => u.requests.flatMap((r) => r.scripts));
  return scripts.some((s) => /\bpm\.iterationData\b/.test(s.source)) ||
    [...vars.unset].some((n) => !vars.scriptSet.has(n));
}

/**
 * A cell as Newman's CSV reader casts it (its `isInt` and `isFloat`, quirks kept): an unquoted
 * integer, or text `parseFloat` reads whole, is a number.
 */
function cast(cell: string, quoted: boolean): unknown {
  if (quoted) return cell;
  if (/^(-|\+)?([1-9]+[0-9]*)$/.test(cell)) return parseInt(cell, 10);
  return Number(cell) - parseFloat(cell) + 1 >= 0 ? parseFloat(cell) : cell;
}

/** CSV rows as objects keyed by the header's names; `undefined` when there is no row. */
function csvObjects(text: string): Record<string, unknown>[] | undefined {
  const [header, ...records] = csvRecords(text).filter((r) =>
    !(r.length === 1 && r[0].text === "")
  );
  if (!header) return undefined;
  return records.map((r) => {
    const row: Record<string, unknown> = {};
    header.forEach((h, i) => {
      if (i < r.length) row[h.text] = cast(r[i].text, r[i].quoted);
    });
    return row;
  });
}

interface Cell {
  text: string;
  quoted: boolean;
}

/** RFC 4180 records (a quote doubled inside quotes is one), cells trimmed outside quotes. */
function csvRecords(text: string): Cell[][] {
  const records: Cell[][] = [];
  let record: Cell[] = [];
  let cell = { text: "", quoted: false };
  let inQuotes = false;
  const endCell = () => {
    record.push(cell.quoted ? cell : { text: cell.text.trim(), quoted: false });
    cell = { text: "", quoted: false };
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inQuotes) {
      if (c === '"' && text[i + 1] === '"') cell.text += text[++i];
      else if (c === '"') inQuotes = false;
      else cell.text += c;
    } else if (c === '"' && cell.text.trim() === "") {
      [inQuotes, cell] = [true, { text: "", quoted: true }];
    } else if (c === ",") endCell();
    else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      endCell();
      records.push(record);
      record = [];
    } else if (!cell.quoted) cell.text += c;
  }
  endCell();
  records.push(record);
  return records;
}
