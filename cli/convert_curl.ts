/**
 * `flowrun convert curl [FILE|-]`: curl command lines → a flow file, with
 * the summary on stderr. The commands come from FILE, or from standard
 * input when FILE is `-` or missing; files they name (`-d @body.json`,
 * `-F f=@photo.png`) are read relative to the working directory and
 * referenced from the flow relative to where it is written.
 *
 * @module
 */
import { relative, resolve } from "node:path";
import type { CurlFiles } from "../lib/convert/curl.ts";
import { MAX_CURL_BYTES } from "../lib/convert/curl_shell.ts";
import { UsageError } from "../lib/model/errors.ts";
import { parse } from "./args.ts";
import { EXIT } from "./exit.ts";
import { err, out } from "./output.ts";
import { save } from "./save.ts";
import { commandHelp } from "./usage.ts";
import { readConvertInput } from "./convert_input.ts";

/** The options `flowrun convert curl` accepts; its `--help` lists each. */
export const CONVERT_CURL_OPTIONS = {
  output: { type: "string", short: "o" },
  name: { type: "string" },
  spelling: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** Most bytes of one file a command sends (`-d @file`, `-F f=<file`), read into the flow. */
const MAX_DATA_FILE_BYTES = 100 * 1024 * 1024;

/**
 * Runs `flowrun convert curl ARGS…` (the arguments after `curl`); resolves
 * to the exit code.
 *
 * @example
 * ```ts
 * import { convertCurlCommand } from "./convert_curl.ts";
 * if (typeof convertCurlCommand !== "function") throw new Error();
 * ```
 */
export async function convertCurlCommand(rest: string[]): Promise<number> {
  const { values, positionals } = parse(rest, CONVERT_CURL_OPTIONS);
  if (values.help) {
    out(commandHelp("convert curl", CONVERT_CURL_OPTIONS));
    return EXIT.passed;
  }
  if (positionals.length > 1) {
    throw new UsageError(
      "no-paths",
      `Expected one file of curl commands (or - for standard input); got ${positionals.length}.`,
      "Usage: flowrun convert curl [FILE|-] [-o FILE]",
    );
  }
  const spelling = values.spelling ?? "a";
  if (spelling !== "a" && spelling !== "b") {
    throw new UsageError("bad-spelling", `Expected --spelling a or b, got "${spelling}".`);
  }
  const [io, curl] = await Promise.all([
    import("../lib/io/mod.ts"),
    import("../lib/convert/curl.ts"),
  ]);
  if (values.output) await io.ensureWritable(values.output);
  const path = positionals[0] ?? "-";
  const text = path === "-" ? await readStdin() : await readCommands(io, path);
  const { yaml, summary } = curl.convertCurl(text, {
    name: values.name,
    spelling,
    files: curlFiles(io, values.output),
  });
  if (values.output) await save(values.output, yaml);
  else out(yaml);
  err(curl.formatCurlSummary(summary));
  return EXIT.passed;
}

/** Files the commands name: read from the working directory, referenced from the flow's folder. */
function curlFiles(io: typeof import("../lib/io/mod.ts"), output?: string): CurlFiles {
  const dir = resolve(output ? resolve(output, "..") : ".");
  return {
    read(path) {
      try {
        return new TextDecoder().decode(io.readBytesSync(path, { limit: MAX_DATA_FILE_BYTES }));
      } catch {
        return undefined;
      }
    },
    rebase(path) {
      if (path.startsWith("/") || dir === resolve(".")) return path;
      return relative(dir, resolve(path));
    },
  };
}

/** The commands' text from a file; a missing, unreadable or oversized one is a usage error. */
async function readCommands(io: typeof import("../lib/io/mod.ts"), path: string): Promise<string> {
  const bytes = await readConvertInput(io, path, {
    code: "bad-curl",
    what: "the curl commands in",
    limit: MAX_CURL_BYTES,
    tooLarge: "Split the commands into several files, one flow each.",
    otherwise: "Give a text file of curl commands, or - to read them from standard input.",
  });
  return new TextDecoder().decode(bytes);
}

/** Standard input, at most {@linkcode MAX_CURL_BYTES}. */
async function readStdin(): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of Deno.stdin.readable) {
    size += chunk.length;
    if (size > MAX_CURL_BYTES) {
      throw new UsageError(
        "input-too-large",
        `The curl commands on standard input are larger than ${MAX_CURL_BYTES / 1024 / 1024} MiB.`,
        "Split the commands into several files, one flow each.",
      );
    }
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return new TextDecoder().decode(bytes);
}
