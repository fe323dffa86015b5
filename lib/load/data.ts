/**
 * A flow's `data`: inline rows (a list of maps of names to values, each
 * value what a var may hold: a single value, or a map or list of them) or a
 * file (`{file: users.csv}`, CSV with a header row or a JSON or YAML list of
 * objects, read by the suite). Each row's keys become flow vars for that
 * row's run.
 * Inline rows must all have the same keys; a file's columns must be declared
 * under `vars`, so every reference is checked before anything is sent.
 *
 * @module
 */
import type { Node, YAMLMap } from "yaml";
import { isMap, isScalar, isSeq } from "./nodes.ts";
import { withinBounds } from "./structured.ts";
import { lossyNumber } from "./quote_hint.ts";
import type { DataRow, Flow } from "../model/flow.ts";
import { describe, type Entry, type Loading, RESERVED } from "./context.ts";
import { isName, nameHint } from "../model/names.ts";
import { plainString } from "./not_allowed.ts";

/**
 * The rows of inline `data`, or the file to read them from.
 *
 * @example
 * ```ts
 * import { loadData } from "./data.ts";
 * import { Loading } from "./context.ts";
 * import { parseDocument } from "yaml";
 * const entry = (yaml: string) => {
 *   const ctx = new Loading("f.yaml", {});
 *   ctx.doc = parseDocument(yaml);
 *   const node = ctx.doc.contents as { items: { key: unknown; value: unknown }[] };
 *   return { ctx, entry: { key: "data", keyNode: node.items[0].key, value: node.items[0].value } };
 * };
 * const inline = entry("data: [{name: a}, {name: b}]");
 * // deno-lint-ignore no-explicit-any
 * const { rows } = loadData(inline.ctx, inline.entry as any);
 * if (rows?.map((r) => r.name).join() !== "a,b") throw new Error();
 * const file = entry("data: {file: users.csv}");
 * // deno-lint-ignore no-explicit-any
 * if (loadData(file.ctx, file.entry as any).dataFile?.path !== "users.csv") throw new Error();
 * ```
 */
export function loadData(
  ctx: Loading,
  entry: Entry | undefined,
): Pick<Flow, "rows" | "dataFile"> {
  if (!entry) return {};
  const node = ctx.deref(entry.value);
  if (isMap(node)) return dataFile(ctx, node);
  if (!isSeq(node) || node.items.length === 0) {
    ctx.problem(
      "wrong-type",
      `Expected "data" to be a non-empty list of rows or {file: …}, got ${describe(node)}.`,
      node ?? entry.keyNode,
      "For example: data: [{name: admin, role: admin}, {name: viewer, role: viewer}] or data: {file: users.csv}",
    );
    return {};
  }
  const rows: DataRow[] = [];
  let keys: string[] | undefined;
  let order: string[] | undefined;
  node.items.forEach((item, i) => {
    const row = ctx.deref(item);
    const values = rowValues(ctx, row, i, order);
    if (!values) return;
    const names = Object.keys(values).sort();
    order ??= Object.keys(values);
    if (keys === undefined) keys = names;
    else if (names.join() !== keys.join()) otherNames(ctx, row!, i, keys, names);
    rows.push({ name: rowName(values, i), values });
  });
  return { rows };
}

/** `data: {file: …}`: where the rows are, relative to the flow file. */
function dataFile(ctx: Loading, node: YAMLMap): Pick<Flow, "dataFile"> {
  const map = ctx.map(node, '"data"', "flow", ["file"]);
  // An unknown key (path: …) is reported with its suggestion; a missing file only when alone.
  if (map && !map.has("file") && node.items.length === map.size) {
    ctx.problem(
      "missing-key",
      'Missing key "file" in "data".',
      node,
      "For example: data: {file: users.csv} (CSV with a header row, or a JSON list).",
    );
  }
  const file = map && plainString(ctx, map.get("file"), '"file" of "data"');
  return file ? { dataFile: { path: file, ...ctx.at(map!.get("file")!.value) } } : {};
}

/**
 * Row `i`'s values by name, each as a var's value is written (a single
 * value, or a map or list of them); `undefined` when the row is no map.
 * Strings are read as templates, so their `${…}` are checked like a var's:
 * a row's values are the first vars of its run, in the first row's `order`.
 */
function rowValues(
  ctx: Loading,
  row: Node | null,
  i: number,
  order?: readonly string[],
): Record<string, unknown> | undefined {
  if (!isMap(row)) {
    ctx.problem(
      "wrong-type",
      `Expected row ${i + 1} of "data" to be a map of names to values, got ${describe(row)}.`,
      row,
      "For example: - {name: admin, role: admin}",
    );
    return undefined;
  }
  const values: Record<string, unknown> = {};
  for (const e of ctx.entries(row)) {
    const what = `"${e.key}" in row ${i + 1} of "data"`;
    if (!isName(e.key) || RESERVED.has(e.key)) {
      ctx.problem(
        "bad-name",
        `${what} cannot be a var name.`,
        e.keyNode,
        nameHint("user_role", true),
      );
      continue;
    }
    const node = ctx.deref(e.value);
    // A map or list is bounded as a var's is: a row value is a var of its run.
    if (!withinBounds(ctx, node, what)) continue;
    // A row value written as a number that loses its text is a problem as a var's is.
    if (isScalar(node)) lossyNumber(ctx, e, what);
    const index = order?.indexOf(e.key) ?? -1;
    ctx.value(e.value, { kind: "var", index: index >= 0 ? index : Object.keys(values).length });
    // ctx.value reported the node's problems (a key that is no name); reading it again repeats them.
    const reported = ctx.problems.length;
    values[e.key] = plainValue(ctx, node);
    ctx.problems.length = reported;
  }
  return values;
}

/**
 * A row value as plain data, its strings as written (their `${…}` are
 * expanded when the row runs, as a var's are).
 */
function plainValue(ctx: Loading, node: Node | null): unknown {
  if (isScalar(node)) return node.value ?? null;
  if (isSeq(node)) return node.items.map((item) => plainValue(ctx, ctx.deref(item)));
  if (isMap(node)) {
    const map: Record<string, unknown> = {};
    for (const e of ctx.entries(node)) map[e.key] = plainValue(ctx, ctx.deref(e.value));
    return map;
  }
  return null;
}

/** The problem of row `i`, whose `names` are not row 1's `keys`. */
function otherNames(ctx: Loading, row: Node, i: number, keys: string[], names: string[]): void {
  const missing = keys.filter((k) => !names.includes(k));
  const extra = names.filter((k) => !keys.includes(k));
  ctx.problem(
    "wrong-type",
    `Row ${i + 1} of "data" has other names than row 1${
      missing.length > 0 ? `: no ${missing.join(", ")}` : ""
    }${extra.length > 0 ? `${missing.length > 0 ? ";" : ":"} also ${extra.join(", ")}` : ""}.`,
    row,
    "Give every row the same names, so every run of the flow has the same vars.",
  );
}

/**
 * A row's name in reports: its `name` value, else `row <n>`.
 *
 * @example
 * ```ts
 * import { rowName } from "./data.ts";
 * if (rowName({ name: "admin" }, 0) !== "admin" || rowName({ role: "x" }, 1) !== "row 2") throw new Error();
 * ```
 */
export function rowName(values: Record<string, unknown>, index: number): string {
  const name = values.name;
  return typeof name === "string" && name !== "" || typeof name === "number"
    ? String(name)
    : `row ${index + 1}`;
}
