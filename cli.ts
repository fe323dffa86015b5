/**
 * The flowrun command line: arguments, console output and exit codes over the
 * library in `lib/`. Subcommands are imported when used, so `--help` and
 * `--version` load almost nothing.
 *
 * Exit codes: 0 every flow passed; 1 at least one flow failed; 2 usage or
 * flow-file error, nothing sent; 3 internal error of the runner.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { UsageError } from "./lib/errors.ts";
import { suggest } from "./lib/suggest.ts";
import { VERSION } from "./lib/version.ts";

/**
 * Exit codes, as documented in the README and `--help`.
 *
 * @example
 * ```ts
 * import { EXIT } from "./cli.ts";
 * if (EXIT.usage !== 2) throw new Error();
 * ```
 */
export const EXIT = { passed: 0, failed: 1, usage: 2, internal: 3 } as const;

const HELP = `flowrun ${VERSION} — run YAML API test flows

Usage:
  flowrun run <path>... [options]   run flow files, or directories of *.yaml/*.yml
  flowrun --help                    show this help
  flowrun --version                 show the version, Deno version and target

Options for run:
  --report-junit FILE   write a JUnit XML report (written even when flows fail)
  --report-json FILE    write a JSON report (schema/report.schema.json)
  --var NAME=VALUE      set a run parameter; overrides a flow var (repeatable)
  --run-id ID           the run id behind \${RUN_ID} (default: generated)
  --timeout MS          per-request timeout in milliseconds (default 30000)
  --verbose             also list passing assertions and captured names
  --no-color            no colours (also when NO_COLOR is set or stdout is not a terminal)

Exit codes:
  0  every flow passed
  1  at least one flow failed (assertion, status, capture or request error)
  2  usage or flow-file error; no request was sent
  3  internal error of the runner (please report it)
`;

const encoder = new TextEncoder();

/** Writes all of `text`; `writeSync` may write only part of a large buffer to a pipe. */
function writeAll(stream: { writeSync(p: Uint8Array): number }, text: string): void {
  let bytes = encoder.encode(text);
  while (bytes.length > 0) bytes = bytes.subarray(stream.writeSync(bytes));
}

const out = (text: string) => writeAll(Deno.stdout, text);
const err = (text: string) => writeAll(Deno.stderr, text);

function useColor(noColor: boolean | undefined): boolean {
  return !noColor && !Deno.env.get("NO_COLOR") && Deno.stdout.isTerminal();
}

const RUN_OPTIONS = {
  "report-junit": { type: "string" },
  "report-json": { type: "string" },
  var: { type: "string", multiple: true },
  "run-id": { type: "string" },
  timeout: { type: "string" },
  verbose: { type: "boolean" },
  "no-color": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

function parse<
  T extends Record<string, { type: "string" | "boolean"; multiple?: boolean; short?: string }>,
>(
  args: string[],
  options: T,
) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    const message = (error as Error).message;
    const option = /'(-{1,2}[^']+)'/.exec(message)?.[1];
    if (option && /unknown option/i.test(message)) {
      const close = suggest(option.replace(/^-+/, ""), Object.keys(options));
      throw new UsageError(
        "bad-option",
        `Unknown option "${option}".`,
        close ? `Did you mean "--${close}"?` : "See flowrun --help.",
      );
    }
    throw new UsageError("bad-option", `${message.replace(/\.$/, "")}.`, "See flowrun --help.");
  }
}

function parseParams(values: string[] = []): Map<string, string> {
  const params = new Map<string, string>();
  for (const item of values) {
    const eq = item.indexOf("=");
    const name = eq === -1 ? item : item.slice(0, eq);
    if (eq === -1 || !/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name)) {
      throw new UsageError(
        "bad-var",
        `Expected --var NAME=VALUE, got "${item}".`,
        "For example: --var base_url=http://localhost:8080",
      );
    }
    if (name === "RUN_ID") {
      throw new UsageError("bad-var", "RUN_ID cannot be set with --var.", "Use --run-id.");
    }
    params.set(name, item.slice(eq + 1));
  }
  return params;
}

async function run(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, RUN_OPTIONS);
  if (values.help) {
    out(HELP);
    return EXIT.passed;
  }
  if (positionals.length === 0) {
    throw new UsageError(
      "no-paths",
      "No flow files given.",
      "Usage: flowrun run <path>... (a flow file or a directory)",
    );
  }
  const runId = values["run-id"];
  if (runId !== undefined && !/^[A-Za-z0-9._-]{1,128}$/.test(runId)) {
    throw new UsageError(
      "bad-run-id",
      `Run id "${runId}" may only contain letters, digits, ".", "_" and "-".`,
    );
  }
  let timeoutMs: number | undefined;
  if (values.timeout !== undefined) {
    timeoutMs = Number(values.timeout);
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) {
      throw new UsageError(
        "bad-timeout",
        `Expected --timeout to be a positive number of milliseconds, got "${values.timeout}".`,
      );
    }
  }
  const params = parseParams(values.var);
  const color = useColor(values["no-color"]);

  const [
    { loadFlows },
    { runFlows },
    io,
    consoleMod,
    { junitReporter },
    { jsonReporter },
    { combineReporters },
  ] = await Promise.all([
    import("./lib/suite.ts"),
    import("./lib/run.ts"),
    import("./lib/io.ts"),
    import("./lib/report/console.ts"),
    import("./lib/report/junit.ts"),
    import("./lib/report/json.ts"),
    import("./lib/report/reporter.ts"),
  ]);
  const { flows, problems } = await loadFlows(positionals, { env: io.readEnv, params });
  if (problems.length > 0) {
    err(consoleMod.formatProblems(problems, consoleMod.style(color)));
    return EXIT.usage;
  }
  const reporters = [consoleMod.consoleReporter({ write: out, color, verbose: values.verbose })];
  const junitPath = values["report-junit"];
  const jsonPath = values["report-json"];
  if (junitPath) reporters.push(junitReporter((text) => io.writeFileAtomic(junitPath, text)));
  if (jsonPath) reporters.push(jsonReporter((text) => io.writeFileAtomic(jsonPath, text)));
  const result = await runFlows(flows, {
    env: io.readEnv,
    params,
    runId,
    timeoutMs,
    reporter: combineReporters(...reporters),
  });
  return result.status === "passed" ? EXIT.passed : EXIT.failed;
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
        return await run(rest);
      default: {
        const close = suggest(command, ["run", "help", "version"]);
        throw new UsageError(
          "bad-command",
          `Unknown command "${command}".`,
          close ? `Did you mean "flowrun ${close}"?` : "See flowrun --help.",
        );
      }
    }
  } catch (error) {
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
