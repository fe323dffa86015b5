/**
 * The rows of a data-driven flow's file (`data: {file: …}`): CSV with a
 * header row (RFC 4180: quoted fields, doubled quotes, commas and line breaks
 * inside quotes, CRLF or LF), or JSON, a list of objects of single values.
 * Pure: text in, rows or the reason out.
 *
 * @module
 */
import type { DataRow } from "../model/flow.ts";
import { rowName } from "./data.ts";

/**
 * Rows of a CSV or JSON data file (by its extension; `.json` is JSON,
 * anything else CSV), or a plain sentence saying why there are none.
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
export function parseDataFile(text: string, path: string): DataRow[] | string {
  const clean = text.replace(/^\uFEFF/, "");
  if (/\.json$/i.test(path)) {
    let data: unknown;
    try {
      data = JSON.parse(clean);
    } catch (error) {
      return `it is not JSON (${(error as Error).message})`;
    }
    if (!Array.isArray(data) || data.length === 0) {
      return "it must hold a non-empty list of objects";
    }
    const rows: DataRow[] = [];
    for (const [i, item] of data.entries()) {
      if (typeof item !== "object" || item === null || Array.isArray(item)) {
        return `row ${i + 1} is not an object`;
      }
      for (const [k, v] of Object.entries(item)) {
        if (v !== null && typeof v === "object") {
          return `"${k}" in row ${i + 1} is not a single value`;
        }
      }
      rows.push({ name: rowName(item, i), values: item as Record<string, unknown> });
    }
    return rows;
  }
  const records = parseCsv(clean);
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
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') quoted = false;
      else field += c;
      i++;
      continue;
    }
    if (c === '"' && field === "") quoted = true;
    else if (c === ",") {
      record.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      if (c === "\r" && text[i + 1] === "\n") i++;
    } else field += c;
    i++;
  }
  if (quoted) return "a quoted field is never closed";
  if (field !== "" || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}
