/**
 * The data-row stage of loading a flow set: a data-driven flow (`data:`)
 * gets its rows from its CSV or JSON file, each column declared under
 * `vars`.
 *
 * @module
 */
import { outsideRoot } from "./file_root.ts";
import type { Problem } from "../model/errors.ts";
import { pluralWord } from "../_util/plural.ts";
import type { Flow } from "../model/flow.ts";
import { InputFileError } from "../io/input_error.ts";
import { readText } from "../io/read.ts";
import { MAX_INPUT_BYTES } from "../model/limits.ts";
import { parseDataFile } from "./data_file.ts";
import { relativeTo } from "./expand_includes.ts";
import type { LoadOptions } from "./load_options.ts";
import { rowExpressionProblem } from "./row_refs.ts";
import { yamlEngine } from "./yaml_engine.ts";
import { parseBounded } from "./yaml_limits.ts";

/** How deep a YAML data file's lists and maps may nest: a list of rows, maps of values that may nest. */
const MAX_DATA_NESTING = 64;

/** Undeclared columns named in a problem; the rest are counted. */
const NAMED_COLUMNS = 20;
/** Characters of a column name quoted in a problem. */
const QUOTED_NAME = 80;

/**
 * Reads a data-driven flow's rows from its file (relative to the flow file)
 * and sets `flow.rows`; the problem when the file cannot be read, is not CSV
 * or JSON rows, has a column the flow does not declare under `vars`, or a
 * value whose `${…}` is malformed or names nothing (checked with `options`).
 *
 * @example
 * ```ts
 * import { readRows } from "./set_rows.ts";
 * import type { Flow } from "../model/flow.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/users.csv`, "user,extra\nann,1\n");
 * const flow = { file: `${dir}/f.yaml`, name: "f", steps: [], vars: [{ name: "user" }],
 *   dataFile: { path: "users.csv", line: 2, column: 7 } } as unknown as Flow;
 * const problem = await readRows(flow, `${dir}/f.yaml`);
 * await Deno.remove(dir, { recursive: true });
 * if (problem?.code !== "bad-data" || !problem.message.includes('"extra"')) throw new Error();
 * ```
 */
export async function readRows(
  flow: Flow,
  file: string,
  options: LoadOptions = {},
): Promise<Problem | undefined> {
  const { path, line, column } = flow.dataFile!;
  const at = { file, line, column };
  const full = relativeTo(file, path);
  const outside = outsideRoot(full, options);
  if (outside !== undefined) {
    return {
      ...at,
      code: "outside-file-root",
      message: `Could not read the data file "${path}": ${outside}.`,
      hint: "The path is relative to the flow file.",
    };
  }
  let text: string;
  try {
    text = await readText(full, { limit: MAX_INPUT_BYTES });
  } catch (error) {
    return {
      ...at,
      code: error instanceof InputFileError ? error.code : "file-read",
      message: `Could not read the data file "${path}": ${(error as Error).message}.`,
      hint: "The path is relative to the flow file.",
    };
  }
  // The YAML parser is loaded only for a YAML data file.
  const yaml = /\.ya?ml$/i.test(full) ? await yamlEngine.load() : undefined;
  const rows = parseDataFile(text, full, yaml && ((t) => boundedYaml(t, yaml.parse)));
  if (typeof rows === "string") {
    return {
      ...at,
      code: "bad-data",
      message: `The data file "${path}" cannot be read as rows: ${rows}.`,
      hint: "Use CSV with a header row, or a list of objects in JSON (.json) or YAML (.yaml).",
    };
  }
  const declared = new Set(flow.vars.map((v) => v.name));
  const unknown = Object.keys(rows[0].values).filter((k) => !declared.has(k));
  if (unknown.length > 0) return undeclaredColumns(at, path, unknown);
  const expression = rowExpressionProblem(flow, rows, options, at, path);
  if (expression) return expression;
  flow.rows = rows;
  return undefined;
}

/** The problem of columns the flow does not declare under `vars`. */
function undeclaredColumns(
  at: { file: string; line: number; column: number },
  path: string,
  unknown: string[],
): Problem {
  // Named up to 20: a header of 500,000 columns made a message of 5 MB.
  const named = unknown.slice(0, NAMED_COLUMNS).map((k) => `"${k.slice(0, QUOTED_NAME)}"`);
  const more = unknown.length > NAMED_COLUMNS ? ` and ${unknown.length - NAMED_COLUMNS} more` : "";
  return {
    ...at,
    code: "bad-data",
    message: `The data file "${path}" has ${pluralWord(unknown.length, "column")} ${
      named.join(", ")
    }${more} that the flow does not declare under vars.`,
    hint: `Declare each column under vars with a default, e.g. vars: {${
      unknown[0].slice(0, QUOTED_NAME)
    }: ""}, so every use is checked.`,
  };
}

/**
 * A YAML data file parsed within {@linkcode MAX_DATA_NESTING}: the parser closes nested
 * collections recursively, so `[[[…` a megabyte deep overflowed its stack, and the message named
 * that instead of the place (as the flows' and --vars-file's YAML are bounded).
 */
function boundedYaml(text: string, parse: (text: string) => unknown): unknown {
  const bounded = parseBounded(text, undefined, MAX_DATA_NESTING);
  if ("tooDeepAt" in bounded) {
    const before = text.slice(0, bounded.tooDeepAt);
    const column = bounded.tooDeepAt - before.lastIndexOf("\n");
    throw new Error(
      `lists or maps nest more than ${MAX_DATA_NESTING} levels deep at line ` +
        `${before.split("\n").length}, column ${column}`,
    );
  }
  return parse(text);
}
