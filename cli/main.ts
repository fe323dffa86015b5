/**
 * The flowrun command line: routes a command to its module and turns user
 * errors into one message without a stack trace. Subcommands are imported
 * when used, so `--help` and `--version` load almost nothing. `cli.ts`
 * starts it from source, or from the bundle when that is current.
 *
 * Exit codes: 0 every flow passed; 1 at least one flow failed; 2 usage or
 * flow-file error, nothing sent; 3 internal error of the runner; 4 the run
 * finished but a requested artifact could not be written; 130/143
 * interrupted by SIGINT/SIGTERM (artifacts still written).
 *
 * @module
 */
import { UsageError } from "../lib/model/errors.ts";
import { suggest } from "../lib/_util/suggest.ts";
import { VERSION } from "../lib/model/version.ts";
import { EXIT } from "./exit.ts";
import { HELP } from "./help.ts";
import { err, out } from "./output.ts";
import { listenForInterrupts } from "./signals.ts";
import { subcommand } from "./subcommands.ts";
import { commandHelp } from "./usage.ts";

export { EXIT };

/** Runs `flowrun run`, listening for signals before the run's modules load. */
async function run(rest: string[]): Promise<number> {
  // Listening starts before the run's modules load: a signal then still leaves its artifacts.
  const interrupts = listenForInterrupts();
  try {
    return await (await subcommand("run")).run(rest, interrupts);
  } finally {
    interrupts.dispose();
  }
}

/** Prints the help, or with a command (`flowrun help run`) that command's help. */
async function help(rest: string[]): Promise<number> {
  const [command] = rest;
  if (command === undefined || command.startsWith("-")) {
    out(HELP);
    return EXIT.passed;
  }
  const known = COMMANDS.get(command);
  if (!known) throw unknownCommand(command);
  if (command === "help") return await help([]);
  return await known(["--help"]);
}

/** Prints the version of flowrun and of the Deno it runs on (`version --help`: its usage). */
function version(rest: string[]): number {
  if (rest[0] === "--help" || rest[0] === "-h") {
    out(commandHelp("version", {}));
    return EXIT.passed;
  }
  out(`flowrun ${VERSION} (deno ${Deno.version.deno}, ${Deno.build.target})\n`);
  return EXIT.passed;
}

/** Each command by the names it answers to; subcommands' modules are imported when called. */
const COMMANDS = new Map<string, (rest: string[]) => number | Promise<number>>([
  ["help", help],
  ["--help", () => help([])],
  ["-h", () => help([])],
  ["--version", version],
  ["-V", version],
  ["version", version],
  ["run", run],
  ["merge", async (rest) => await (await subcommand("merge")).merge(rest)],
  ["convert", async (rest) => await (await subcommand("convert")).convert(rest)],
  ["validate", async (rest) => await (await subcommand("validate")).validate(rest)],
  ["report", async (rest) => await (await subcommand("report")).renderReport(rest)],
  ["send", async (rest) => await (await subcommand("send")).send(rest)],
  ["export", async (rest) => await (await subcommand("export")).exportCommand(rest)],
]);

/** The commands an unknown one is compared with, for "did you mean". */
const SUGGESTED = [
  "run",
  "validate",
  "merge",
  "report",
  "convert",
  "send",
  "export",
  "help",
  "version",
];

/** An unknown command, with the closest known one as the hint. */
function unknownCommand(command: string): UsageError {
  const close = suggest(command, SUGGESTED);
  return new UsageError(
    "bad-command",
    `Unknown command "${command}".`,
    close ? `Did you mean "flowrun ${close}"?` : "See flowrun --help.",
  );
}

/**
 * The exit code of an error that ended a command, printed: an artifact
 * that could not be written (exit 4), a usage error (exit 2, no stack
 * trace), else an internal error with its stack (exit 3).
 */
async function failed(error: unknown): Promise<number> {
  const io = await import("../lib/io/artifact_error.ts");
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

/**
 * Runs the command line and returns the exit code; user errors are printed
 * without a stack trace.
 *
 * @example
 * ```ts ignore
 * import { main } from "./main.ts";
 * Deno.exit(await main(["run", "examples/flows"]));
 * ```
 */
export async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  try {
    if (command === undefined) {
      // No command at all is a usage mistake: the help, and exit 2.
      out(HELP);
      return EXIT.usage;
    }
    const known = COMMANDS.get(command);
    if (!known) throw unknownCommand(command);
    return await known(rest);
  } catch (error) {
    return await failed(error);
  }
}
