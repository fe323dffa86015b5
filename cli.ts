/**
 * The flowrun command line: routes a command to its module and turns user
 * errors into one message without a stack trace. Subcommands are imported
 * when used, so `--help` and `--version` load almost nothing.
 *
 * Exit codes: 0 every flow passed; 1 at least one flow failed; 2 usage or
 * flow-file error, nothing sent; 3 internal error of the runner; 4 the run
 * finished but a requested artifact could not be written; 130/143
 * interrupted by SIGINT/SIGTERM (artifacts still written).
 *
 * @module
 */
import { UsageError } from "./lib/errors.ts";
import { suggest } from "./lib/suggest.ts";
import { VERSION } from "./lib/version.ts";
import { command, parse, parseParams } from "./cli/args.ts";
import { EXIT } from "./cli/exit.ts";
import { HELP } from "./cli/help.ts";
import { err, out, save, useColor } from "./cli/output.ts";

export { EXIT };

const REPORT_OPTIONS = {
  output: { type: "string", short: "o" },
  "trace-link": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

const VALIDATE_OPTIONS = {
  "no-env": { type: "boolean" },
  format: { type: "string" },
  var: { type: "string", multiple: true },
  "no-color": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const CONVERT_OPTIONS = {
  output: { type: "string", short: "o" },
  name: { type: "string" },
  "include-host": { type: "string", multiple: true },
  "exclude-url": { type: "string", multiple: true },
  spelling: { type: "string" },
  "include-html": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const MERGE_OPTIONS = {
  "report-junit": { type: "string" },
  "report-json": { type: "string" },
  "no-color": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

async function readReports(paths: readonly string[]) {
  const [mergeMod, io] = await Promise.all([import("./lib/merge.ts"), import("./lib/io.ts")]);
  const inputs = [];
  for (const path of paths) {
    let text: string;
    try {
      text = await io.readText(path);
    } catch (error) {
      throw new UsageError(
        "no-such-path",
        `Cannot read report "${path}": ${(error as Error).message}.`,
      );
    }
    inputs.push({ label: path, result: mergeMod.parseJsonReport(text, path) });
  }
  return inputs;
}

async function merge(args: string[]): Promise<number> {
  const parsed = command(
    args,
    MERGE_OPTIONS,
    new UsageError(
      "no-paths",
      "No reports given.",
      "Usage: flowrun merge <report.json>... --report-json FILE",
    ),
  );
  if (!parsed) return EXIT.passed;
  const { values, positionals } = parsed;
  const [mergeMod, io, consoleMod, junit, json] = await Promise.all([
    import("./lib/merge.ts"),
    import("./lib/io.ts"),
    import("./lib/report/console.ts"),
    import("./lib/report/junit.ts"),
    import("./lib/report/json.ts"),
  ]);
  const outputs = [values["report-junit"], values["report-json"]].filter((p): p is string => !!p);
  for (const path of outputs) await io.ensureWritable(path);
  const inputs = await readReports(positionals);
  const result = mergeMod.mergeResults(inputs);
  if (values["report-junit"]) {
    await save(values["report-junit"], junit.toJUnitXml(result));
  }
  if (values["report-json"]) {
    await save(
      values["report-json"],
      JSON.stringify(json.toJsonReport(result), null, 2) + "\n",
    );
  }
  const s = consoleMod.style(useColor(values["no-color"]));
  out(
    `merged ${inputs.length} report${inputs.length === 1 ? "" : "s"} · ${
      consoleMod.formatSummary(result, s)
    }`,
  );
  return result.status === "passed" ? EXIT.passed : EXIT.failed;
}

async function renderReport(args: string[]): Promise<number> {
  const [format, ...rest] = args;
  if (format !== "html") {
    throw new UsageError(
      "bad-command",
      format === undefined ? "Missing the report format." : `Cannot render a "${format}" report.`,
      "Usage: flowrun report html <report.json>... -o FILE",
    );
  }
  const parsed = command(
    rest,
    REPORT_OPTIONS,
    new UsageError(
      "no-paths",
      "No reports given.",
      "Usage: flowrun report html <report.json>... -o FILE",
    ),
  );
  if (!parsed) return EXIT.passed;
  const { values, positionals } = parsed;
  if (!values.output) throw new UsageError("no-output", "Missing -o FILE for the HTML report.");
  const [mergeMod, io, html] = await Promise.all([
    import("./lib/merge.ts"),
    import("./lib/io.ts"),
    import("./lib/report/html.ts"),
  ]);
  await io.ensureWritable(values.output);
  const inputs = await readReports(positionals);
  const result = inputs.length === 1 ? inputs[0].result : mergeMod.mergeResults(inputs);
  await save(values.output, html.toHtml(result, { traceLink: values["trace-link"] }));
  const count = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  out(
    `wrote ${values.output} (${count(result.totals.flows.total, "flow")} from ${
      count(inputs.length, "report")
    })\n`,
  );
  return EXIT.passed;
}

async function validate(args: string[]): Promise<number> {
  const parsed = command(
    args,
    VALIDATE_OPTIONS,
    new UsageError("no-paths", "No flow files given.", "Usage: flowrun validate <path>..."),
  );
  if (!parsed) return EXIT.passed;
  const { values, positionals } = parsed;
  const format = values.format ?? "text";
  if (format !== "text" && format !== "json") {
    throw new UsageError("bad-format", `Expected --format text or json, got "${format}".`);
  }
  const [suite, io, consoleMod] = await Promise.all([
    import("./lib/suite.ts"),
    import("./lib/io.ts"),
    import("./lib/report/console.ts"),
  ]);
  const { files, problems } = await suite.loadFlows(positionals, {
    env: io.readEnv,
    params: parseParams(values.var),
    checkEnv: !values["no-env"],
  });
  if (format === "json") {
    const list = problems.map(({ file, line, column, code, message, hint }) => ({
      file,
      line,
      column,
      code,
      message,
      hint,
    }));
    out(JSON.stringify(list, null, 2) + "\n");
  } else if (problems.length > 0) {
    const checked = `${files.length} file${files.length === 1 ? "" : "s"} checked`;
    out(
      consoleMod.formatProblems(problems, consoleMod.style(useColor(values["no-color"])), checked),
    );
  } else {
    out(`${files.length} flow file${files.length === 1 ? "" : "s"} checked: no problems.\n`);
  }
  return problems.length > 0 ? EXIT.usage : EXIT.passed;
}

async function convert(args: string[]): Promise<number> {
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
  const { values, positionals } = parse(rest, CONVERT_OPTIONS);
  if (values.help) {
    out(HELP);
    return EXIT.passed;
  }
  if (positionals.length !== 1) {
    throw new UsageError(
      "no-paths",
      "Expected exactly one HAR file.",
      "Usage: flowrun convert har <file.har> [-o FILE]",
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
  const [io, har] = await Promise.all([import("./lib/io.ts"), import("./lib/convert/har.ts")]);
  const [path] = positionals;
  if (values.output) await io.ensureWritable(values.output);
  let bytes: Uint8Array;
  try {
    bytes = await io.readBytes(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new UsageError(
        "no-such-path",
        `No file "${path}".`,
        "Check the path; it is relative to the working directory.",
      );
    }
    throw new UsageError("bad-har", `Cannot read "${path}": ${(error as Error).message}.`);
  }
  const { yaml, summary } = har.convertHar(bytes, {
    name: values.name,
    includeHosts: values["include-host"],
    excludeUrls,
    spelling,
    includeHtml: values["include-html"],
  });
  if (values.output) await save(values.output, yaml);
  else out(yaml);
  err(har.formatSummary(summary));
  return EXIT.passed;
}

/**
 * Runs the command line and returns the exit code; user errors are printed
 * without a stack trace.
 *
 * @example
 * ```ts ignore
 * import { main } from "./cli.ts";
 * Deno.exit(await main(["run", "examples/flows"]));
 * ```
 */
export async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  try {
    switch (command) {
      case undefined:
      case "help":
      case "--help":
      case "-h":
        out(HELP);
        return command === undefined ? EXIT.usage : EXIT.passed;
      case "--version":
      case "-V":
      case "version":
        out(`flowrun ${VERSION} (deno ${Deno.version.deno}, ${Deno.build.target})\n`);
        return EXIT.passed;
      case "run":
        return await (await import("./cli/run.ts")).run(rest);
      case "merge":
        return await merge(rest);
      case "convert":
        return await convert(rest);
      case "validate":
        return await validate(rest);
      case "report":
        return await renderReport(rest);
      default: {
        const close = suggest(command, [
          "run",
          "validate",
          "merge",
          "report",
          "convert",
          "help",
          "version",
        ]);
        throw new UsageError(
          "bad-command",
          `Unknown command "${command}".`,
          close ? `Did you mean "flowrun ${close}"?` : "See flowrun --help.",
        );
      }
    }
  } catch (error) {
    const io = await import("./lib/io.ts");
    if (error instanceof io.ArtifactWriteError) {
      // A write outside the run's artifacts (merge, report html, convert -o): one sentence, exit 4.
      err(`flowrun: ${error.message}\n`);
      return EXIT.artifacts;
    }
    if (error instanceof UsageError) {
      err(`error[${error.code}]: ${error.message}\n${error.hint ? `  hint: ${error.hint}\n` : ""}`);
      return EXIT.usage;
    }
    err(
      `flowrun: internal error (exit 3). Please report this with the output below.\n${
        (error as Error)?.stack ?? String(error)
      }\n`,
    );
    return EXIT.internal;
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
