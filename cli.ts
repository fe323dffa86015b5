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
import { UsageError } from "./lib/model/errors.ts";
import { suggest } from "./lib/_util/suggest.ts";
import { VERSION } from "./lib/model/version.ts";
import { EXIT } from "./cli/exit.ts";
import { HELP } from "./cli/help.ts";
import { err, out } from "./cli/output.ts";
import { listenForInterrupts } from "./cli/signals.ts";
import { subcommand } from "./cli/subcommands.ts";

export { EXIT };

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
      case "run": {
        // Listening starts before the run's modules load: a signal then still leaves its artifacts.
        const interrupts = listenForInterrupts();
        try {
          return await (await subcommand("run")).run(rest, interrupts);
        } finally {
          interrupts.dispose();
        }
      }
      case "merge":
        return await (await subcommand("merge")).merge(rest);
      case "convert":
        return await (await subcommand("convert")).convert(rest);
      case "validate":
        return await (await subcommand("validate")).validate(rest);
      case "report":
        return await (await subcommand("report")).renderReport(rest);
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
    const io = await import("./lib/io/mod.ts");
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
