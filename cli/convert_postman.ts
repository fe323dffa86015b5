/**
 * `flowrun convert postman COLLECTION.json [--environment ENV.json] [-d DATA] -o DIR`:
 * a Postman collection → flow files in DIR (one per top-level folder), a
 * vars file and an env file from the environment (secrets left out), and
 * empty placeholders for files the collection uploads; the summary on
 * stderr. The converter is loaded only here, so `flowrun run` never loads
 * it (nor its JavaScript parser).
 *
 * @module
 */
import { UsageError } from "../lib/model/errors.ts";
import { parse } from "./args.ts";
import { EXIT } from "./exit.ts";
import { err, out } from "./output.ts";
import { save } from "./save.ts";
import { readConvertInput } from "./convert_input.ts";

/**
 * The options `flowrun convert postman` accepts.
 *
 * @example
 * ```ts
 * import { CONVERT_POSTMAN_OPTIONS } from "./convert_postman.ts";
 * if (CONVERT_POSTMAN_OPTIONS.output.short !== "o") throw new Error();
 * ```
 */
export const CONVERT_POSTMAN_OPTIONS = {
  output: { type: "string", short: "o" },
  environment: { type: "string", short: "e" },
  globals: { type: "string", short: "g" },
  "iteration-data": { type: "string", short: "d" },
  help: { type: "boolean", short: "h" },
} as const;

const USAGE =
  "Usage: flowrun convert postman COLLECTION.json [--environment ENV.json] [--globals GLOBALS.json] [--iteration-data FILE] -o DIR";

/**
 * `convert postman --help`.
 *
 * @example
 * ```ts
 * import { CONVERT_POSTMAN_HELP } from "./convert_postman.ts";
 * if (!CONVERT_POSTMAN_HELP.startsWith("Usage: flowrun convert postman")) throw new Error();
 * ```
 */
export const CONVERT_POSTMAN_HELP = `${USAGE}

Converts a Postman collection (v2.0 or v2.1, as Postman, Bruno and Newman export it) into flow
files: one per top-level folder (nested folders are flattened into it), a step per request in
collection order. Test scripts become checks and captures; what is not understood stays as a
comment beside its step, and the summary counts translated and untranslated assertions.

Options:
  -o, --output DIR        the folder the flows are written to (required)
  -e, --environment FILE  a Postman environment: its values become a vars file and an env file,
                          secrets left out
  -g, --globals FILE      a Postman globals export: its values are the lowest defaults
  -d, --iteration-data FILE
                          Newman's data file (CSV or JSON, as its -d reads it): each flow runs
                          once per row, {{column}} and pm.iterationData.get(column) its values
  -h, --help              this help

Example:
  flowrun convert postman api.postman_collection.json --environment dev.postman_environment.json -o flows
`;

/**
 * Runs `flowrun convert postman ARGS…` (the arguments after `postman`);
 * resolves to the exit code.
 *
 * @example
 * ```ts
 * import { convertPostmanCommand } from "./convert_postman.ts";
 * if (typeof convertPostmanCommand !== "function") throw new Error();
 * ```
 */
export async function convertPostmanCommand(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, CONVERT_POSTMAN_OPTIONS);
  if (values.help) {
    out(CONVERT_POSTMAN_HELP);
    return EXIT.passed;
  }
  if (positionals.length !== 1) {
    throw new UsageError(
      "no-paths",
      positionals.length === 0
        ? "Expected a Postman collection file."
        : `Expected one Postman collection file, got ${positionals.length} files.`,
      USAGE,
    );
  }
  if (!values.output) {
    throw new UsageError("no-output", "Missing the output folder (-o DIR).", USAGE);
  }
  const dir = values.output.replace(/\/+$/, "") || ".";
  const [io, postman] = await Promise.all([
    import("../lib/io/mod.ts"),
    import("../lib/convert/postman/mod.ts"),
  ]);
  const read = (path: string, what: string) => readInput(io, path, what, postman.MAX_POSTMAN_BYTES);
  const collection = await read(positionals[0], "collection");
  const environment = values.environment
    ? await read(values.environment, "environment")
    : undefined;
  const globals = values.globals ? await read(values.globals, "globals file") : undefined;
  const dataPath = values["iteration-data"];
  const data = dataPath ? { path: dataPath, text: await read(dataPath, "data file") } : undefined;
  const paths = {
    collection: positionals[0],
    environment: values.environment,
    globals: values.globals,
    data: dataPath,
  };
  let result;
  try {
    result = postman.convertPostman(collection, environment, globals, data);
  } catch (error) {
    // The converter says which input a problem is in; the user knows it by its path.
    if (!(error instanceof postman.PostmanInputError)) throw error;
    throw new UsageError(error.code, `${paths[error.input]}: ${error.message}`, error.hint);
  }
  const { files, summary } = result;
  for (const file of files) {
    const target = `${dir}/${file.path}`;
    if (file.placeholder) await io.writeNewFile(target, file.text);
    else await save(target, file.text);
  }
  err(postman.formatPostmanSummary(summary, dir));
  return EXIT.passed;
}

/** A collection's or environment's text; a missing, unreadable or oversized file is a usage error. */
async function readInput(
  io: typeof import("../lib/io/mod.ts"),
  path: string,
  what: string,
  limit: number,
): Promise<string> {
  const bytes = await readConvertInput(io, path, {
    code: "bad-postman",
    what: `the Postman ${what}`,
    limit,
    tooLarge: "Split the collection into smaller ones (one per folder) and convert each.",
    otherwise: "Give the .json file Postman exported.",
  });
  return new TextDecoder().decode(bytes);
}
