/**
 * `flowrun convert har <file.har>`: a browser recording → a flow file, with
 * the summary on stderr.
 *
 * @module
 */
import { UsageError } from "../lib/model/errors.ts";
import { MAX_RECORDING_BYTES } from "../lib/model/limits.ts";
import { parse } from "./args.ts";
import { convertVerified, optionalVerify } from "./convert_verify.ts";
import { EXIT } from "./exit.ts";
import { HELP } from "./help.ts";
import { err, out, save } from "./output.ts";

const CONVERT_OPTIONS = {
  output: { type: "string", short: "o" },
  name: { type: "string" },
  "include-host": { type: "string", multiple: true },
  "exclude-url": { type: "string", multiple: true },
  spelling: { type: "string" },
  "include-html": { type: "boolean" },
  verify: { type: "string" },
  "no-correlate": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** Runs `flowrun convert`; resolves to the exit code. */
export async function convert(args: string[]): Promise<number> {
  const [format, ...rest] = args;
  if (format === "--help" || format === "-h") {
    out(HELP);
    return EXIT.passed;
  }
  if (format !== "har") {
    throw new UsageError(
      "bad-command",
      format === undefined
        ? "Missing the format to convert from."
        : `Cannot convert from "${format}".`,
      "Usage: flowrun convert har <file.har> [-o FILE]",
    );
  }
  const { values, positionals } = parse(optionalVerify(rest), CONVERT_OPTIONS);
  if (values.help) {
    out(HELP);
    return EXIT.passed;
  }
  if (positionals.length !== 1 && positionals.length !== 2) {
    throw new UsageError(
      "no-paths",
      positionals.length === 0
        ? "Expected a HAR file."
        : `Expected one HAR file, or two recordings of the same journey; got ${positionals.length} files.`,
      "Usage: flowrun convert har <file.har> [second.har] [-o FILE]",
    );
  }
  const spelling = values.spelling ?? "a";
  if (spelling !== "a" && spelling !== "b") {
    throw new UsageError("bad-spelling", `Expected --spelling a or b, got "${spelling}".`);
  }
  const excludeUrls = (values["exclude-url"] ?? []).map((source) => {
    try {
      return new RegExp(source);
    } catch (error) {
      throw new UsageError(
        "bad-regex",
        `Invalid --exclude-url regular expression "${source}": ${(error as Error).message}.`,
      );
    }
  });
  const [io, har] = await Promise.all([import("../lib/io/mod.ts"), import("../lib/convert/har.ts")]);
  if (values.output) await io.ensureWritable(values.output);
  // Both files are read before converting: a bad second one fails before any output.
  const [bytes, second] = await Promise.all(
    positionals.map((path) => readRecording(io, path)),
  );
  const options = {
    name: values.name,
    includeHosts: values["include-host"],
    excludeUrls,
    spelling,
    includeHtml: values["include-html"],
    second,
    noCorrelate: values["no-correlate"],
  } as const;
  const verified = values.verify === undefined
    ? undefined
    : await convertVerified(bytes, options, values.verify, io.readEnv);
  const { yaml, summary, files } = verified?.result ?? har.convertHar(bytes, options);
  if (values.output) await save(values.output, yaml);
  else out(yaml);
  err(har.formatSummary(summary));
  if (verified) err(verified.text);
  // Upload files go where the flow reads them: beside it (the working directory for stdout).
  const dir = values.output?.includes("/")
    ? values.output.slice(0, values.output.lastIndexOf("/"))
    : ".";
  for (const file of files) {
    const target = `${dir}/${file.path}`;
    const wrote = await io.writeNewFile(target, file.text);
    err(wrote ? `Wrote ${target} for the flow to upload.\n` : `Kept the existing ${target}.\n`);
  }
  // The flow is written either way; a step --verify could not make pass fails the command.
  return verified?.failing ? EXIT.failed : EXIT.passed;
}

/** A recording's bytes; a missing, unreadable or oversized file is a usage error naming it. */
async function readRecording(
  io: typeof import("../lib/io/mod.ts"),
  path: string,
): Promise<Uint8Array> {
  try {
    return await io.readBytes(path, { limit: MAX_RECORDING_BYTES });
  } catch (error) {
    if ((error as Error).cause instanceof Deno.errors.NotFound) {
      throw new UsageError(
        "no-such-path",
        `No file "${path}".`,
        "Check the path; it is relative to the working directory.",
      );
    }
    const code = error instanceof io.InputFileError ? error.code : "file-read";
    throw new UsageError(
      code === "file-read" ? "bad-har" : code,
      `Cannot read the HAR file "${path}": ${(error as Error).message}.`,
      code === "input-too-large"
        ? "Record less (one flow at a time), or export without response bodies."
        : "Give the .har file the browser's network panel saved.",
    );
  }
}
