/**
 * `flowrun convert har <file.har>`: a browser recording → a flow file, with
 * the summary on stderr.
 *
 * @module
 */
import type { ConvertOptions } from "../lib/convert/har.ts";
import { UsageError } from "../lib/model/errors.ts";
import { badRegexMessage } from "../lib/_util/regex_problem.ts";
import { MAX_RECORDING_BYTES } from "../lib/model/limits.ts";
import { parse } from "./args.ts";
import { convertVerified, optionalVerify } from "./convert_verify.ts";
import { EXIT } from "./exit.ts";
import { err, out } from "./output.ts";
import { save } from "./save.ts";
import { commandHelp } from "./usage.ts";
import { readConvertInput } from "./convert_input.ts";
import { withAttachedBodies } from "./convert_attached.ts";

/** The options `flowrun convert har` accepts; its `--help` lists each. */
export const CONVERT_OPTIONS = {
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

/**
 * What `flowrun convert har` was asked to do, read from its arguments.
 *
 * @example
 * ```ts
 * import type { ConvertPlan } from "./convert.ts";
 * const plan: ConvertPlan = { paths: ["a.har"], options: { spelling: "a" } };
 * if (plan.verify !== undefined) throw new Error();
 * ```
 */
export interface ConvertPlan {
  /** The recording, and a second one of the same journey. */
  paths: string[];
  /** The flow's file; stdout when unset. */
  output?: string;
  /** `--verify`'s base URL ("" for the recorded origin); unset without `--verify`. */
  verify?: string;
  options: ConvertOptions;
}

/** Runs `flowrun convert`; resolves to the exit code. */
export async function convert(args: string[]): Promise<number> {
  const [format, ...rest] = args;
  if (format === "--help" || format === "-h") {
    // har is the one format: `convert --help` is its help.
    out(commandHelp("convert", CONVERT_OPTIONS));
    return EXIT.passed;
  }
  // Each format but har has a module of its own, loaded only when asked for.
  if (format === "curl") return await (await import("./convert_curl.ts")).convertCurlCommand(rest);
  if (format === "postman") {
    return await (await import("./convert_postman.ts")).convertPostmanCommand(rest);
  }
  if (format === "openapi") {
    return await (await import("./convert_openapi.ts")).convertOpenApiCommand(rest);
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
  const plan = convertPlan(rest);
  if (!plan) {
    out(commandHelp("convert", CONVERT_OPTIONS));
    return EXIT.passed;
  }
  return await runConvert(plan);
}

/**
 * The plan of `flowrun convert har ARGS…` (the arguments after `har`);
 * `undefined` for `--help`. A bad argument is a {@linkcode UsageError}.
 *
 * @example
 * ```ts
 * import { convertPlan } from "./convert.ts";
 * const plan = convertPlan(["a.har", "--spelling", "b", "--verify", "-o", "flow.yaml"]);
 * if (plan?.output !== "flow.yaml" || plan.verify !== "" || plan.options.spelling !== "b") throw new Error();
 * if (convertPlan(["--help"]) !== undefined) throw new Error();
 * ```
 */
export function convertPlan(rest: string[]): ConvertPlan | undefined {
  const { values, positionals } = parse(optionalVerify(rest), CONVERT_OPTIONS);
  if (values.help) return undefined;
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
  const options = {
    name: values.name,
    includeHosts: values["include-host"],
    excludeUrls: (values["exclude-url"] ?? []).map(excludeUrl),
    spelling,
    includeHtml: values["include-html"],
    noCorrelate: values["no-correlate"],
  } as const;
  return { paths: positionals, output: values.output, verify: values.verify, options };
}

/** One `--exclude-url` pattern; an invalid one is a usage error. */
function excludeUrl(source: string): RegExp {
  try {
    return new RegExp(source);
  } catch (error) {
    throw new UsageError("bad-regex", badRegexMessage(source, error, "--exclude-url"));
  }
}

/** Reads the recordings, converts (verifying if asked), writes the flow and its upload files. */
async function runConvert(plan: ConvertPlan): Promise<number> {
  const [io, har, check] = await Promise.all([
    import("../lib/io/mod.ts"),
    import("../lib/convert/har.ts"),
    import("../lib/convert/write_check.ts"),
  ]);
  if (plan.output) await io.ensureWritable(plan.output);
  // Both files are read before converting: a bad second one fails before any output.
  const read = await Promise.all(
    plan.paths.map(async (path) => withAttachedBodies(io, path, await readRecording(io, path))),
  );
  const [bytes, second] = read.map((r) => r.bytes);
  const options = { ...plan.options, second };
  // Upload files go where the flow reads them: beside it (the working directory for stdout).
  const dir = plan.output?.includes("/") ? plan.output.slice(0, plan.output.lastIndexOf("/")) : ".";
  const beside = (path: string) =>
    io.readBytes(`${dir}/${path}`).then((b) => new Uint8Array(b), () => undefined);
  const verified = plan.verify === undefined
    ? undefined
    : await convertVerified(bytes, options, plan.verify, io.readEnv, beside);
  const { yaml, summary, files } = verified?.result ?? har.convertHar(bytes, options);
  // A flow that would not load is never written: what could not be expressed is said instead.
  await check.assertLoads(yaml, files);
  if (plan.output) await save(plan.output, yaml);
  else out(yaml);
  err(har.formatSummary(summary));
  for (const { note } of read) if (note) err(note);
  if (verified) err(verified.text);
  for (const file of files) {
    const target = `${dir}/${file.path}`;
    const wrote = await io.writeNewFile(target, file.text);
    err(wrote ? `Wrote ${target} for the flow to upload.\n` : `Kept the existing ${target}.\n`);
  }
  // The flow is written either way; a step --verify could not make pass fails the command.
  return verified?.failing ? EXIT.failed : EXIT.passed;
}

/** A recording's bytes; a missing, unreadable or oversized file is a usage error naming it. */
function readRecording(io: typeof import("../lib/io/mod.ts"), path: string): Promise<Uint8Array> {
  return readConvertInput(io, path, {
    code: "bad-har",
    what: "the HAR file",
    limit: MAX_RECORDING_BYTES,
    tooLarge: "Record less (one flow at a time), or export without response bodies.",
    otherwise: "Give the .har file the browser's network panel saved.",
  });
}
