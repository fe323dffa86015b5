/**
 * The rows of a data-driven flow's file (`data: {file: …}`): CSV with a
 * header row (RFC 4180: quoted fields, doubled quotes, commas and line breaks
 * inside quotes, CRLF or LF), whose cells stay strings, or JSON or YAML, a
 * list of objects whose values are what a var may hold: single values, or
 * maps and lists of them (bounded as a var's are).
 * Pure: text in, rows or the reason out.
 *
 * @module
 */
import type { DataRow } from "../model/flow.ts";
import { rowName } from "./data.ts";
import { MAX_VAR_DEPTH, MAX_VAR_ENTRIES } from "../model/limits.ts";
import { thousands } from "../_util/thousands.ts";

/**
 * Rows of a CSV, JSON or YAML data file (by its extension; `.json` is JSON,
 * `.yaml` and `.yml` YAML when `parseYaml` is given, anything else CSV), or
 * a plain sentence saying why there are none.
 *
 * @example
 * ```ts
 * import { parseDataFile } from "./data_file.ts";
 * const rows = parseDataFile('name,role\nadmin,"a, b"\n"view ""er""",viewer\n', "users.csv");
 * if (!Array.isArray(rows) || rows[1].values.name !== 'view "er"' || rows[0].values.role !== "a, b") {
 *   throw new Error(JSON.stringify(rows));
 * }
 * const json = parseDataFile('[{"name": "a", "n": 1}]', "rows.json");
 * if (!Array.isArray(json) || json[0].values.n !== 1) throw new Error();
 * ```
 */
export function parseDataFile(
  text: string,
  path: string,
  parseYaml?: (text: string) => unknown,
): DataRow[] | string {
  const clean = text.replace(/^\uFEFF/, "");
  if (/\.json$/i.test(path)) return parsedRows(clean, JSON.parse, "JSON");
  if (/\.ya?ml$/i.test(path) && parseYaml) return parsedRows(clean, parseYaml, "YAML");
  return csvRows(clean);
}

/** Rows of a JSON or YAML list of objects, or why there are none. */
function parsedRows(text: string, parse: (text: string) => unknown, kind: string) {
  let data: unknown;
  try {
    data = parse(text);
  } catch (error) {
    return `it is not ${kind} (${(error as Error).message})`;
  }
  return objectRows(data);
}

/** Rows of a list of objects, or why there are none. */
function objectRows(data: unknown): DataRow[] | string {
  if (!Array.isArray(data) || data.length === 0) {
    return "it must hold a non-empty list of objects";
  }
  const rows: DataRow[] = [];
  for (const [i, item] of data.entries()) {
    if (typeof item !== "object" || item === null || Array.isArray(item)) {
      return `row ${i + 1} is not an object`;
    }
    for (const [k, v] of Object.entries(item)) {
      const over = overBounds(v);
      if (over) return `"${k}" in row ${i + 1} ${over}`;
    }
    rows.push({ name: rowName(item, i), values: item as Record<string, unknown> });
  }
  return rows;
}

/**
 * Why a row value is larger than a var's may be, or `undefined`: it becomes
 * a var of its run, and rendering it recurses per level.
 */
function overBounds(value: unknown): string | undefined {
  const stack: [unknown, number][] = [[value, 1]];
  let entries = 0;
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    const items = Array.isArray(v) ? v : Object.values(v);
    if (depth > MAX_VAR_DEPTH) return `is nested more than ${MAX_VAR_DEPTH} levels deep`;
    entries += items.length;
    if (entries > MAX_VAR_ENTRIES) return `has more than ${thousands(MAX_VAR_ENTRIES)} entries`;
    for (const item of items) stack.push([item, depth + 1]);
  }
  return undefined;
}

/** Rows of CSV with a header row (blank lines skipped), or why there are none. */
function csvRows(text: string): DataRow[] | string {
  const records = parseCsv(text);
  if (typeof records === "string") return records;
  const [header, ...body] = records.filter((r) => !(r.length === 1 && r[0] === ""));
  if (!header || body.length === 0) return "it needs a header row and at least one row";
  const rows: DataRow[] = [];
  for (const [i, record] of body.entries()) {
    if (record.length !== header.length) {
      return `row ${i + 1} has ${record.length} fields, the header ${header.length}`;
    }
    const values = Object.fromEntries(header.map((h, k) => [h.trim(), record[k]]));
    rows.push({ name: rowName(values, i), values });
  }
  return rows;
}

/** RFC 4180 records, or why the text is not CSV. */
function parseCsv(text: string): string[][] | string {
  const csv = new CsvReader();
  let i = 0;
  while (i < text.length) i = csv.quoted ? csv.inQuotes(text, i) : csv.unquoted(text, i);
  if (csv.quoted) return "a quoted field is never closed";
  return csv.end();
}

/** The state of reading CSV: the records so far, the record and field being read. */
class CsvReader {
  readonly records: string[][] = [];
  record: string[] = [];
  field = "";
  quoted = false;

  /** Reads at `i` inside quotes; where to read next. */
  inQuotes(text: string, i: number): number {
    const c = text[i];
    if (c === '"' && text[i + 1] === '"') {
      this.field += '"';
      return i + 2;
    }
    if (c === '"') this.quoted = false;
    else this.field += c;
    return i + 1;
  }

  /** Reads at `i` outside quotes; where to read next. */
  unquoted(text: string, i: number): number {
    const c = text[i];
    if (c === '"' && this.field === "") this.quoted = true;
    else if (c === ",") {
      this.record.push(this.field);
      this.field = "";
    } else if (c === "\n" || c === "\r") {
      this.endRecord();
      if (c === "\r" && text[i + 1] === "\n") i++;
    } else this.field += c;
    return i + 1;
  }

  endRecord(): void {
    this.record.push(this.field);
    this.records.push(this.record);
    this.record = [];
    this.field = "";
  }

  /** The records, the last one ended if the text does not end with a line break. */
  end(): string[][] {
    if (this.field !== "" || this.record.length > 0) this.endRecord();
    return this.records;
  }
}
