/**
 * `flowrun validate <path>...`: every problem of the flow files, as text or
 * JSON, without sending anything.
 *
 * @module
 */
import { UsageError } from "../lib/model/errors.ts";
import { plural } from "../lib/_util/plural.ts";
import { command } from "./args.ts";
import { parseParams } from "./option_values.ts";
import { EXIT } from "./exit.ts";
import { out, useColor } from "./output.ts";

/** The options `flowrun validate` accepts; its `--help` lists each. */
export const VALIDATE_OPTIONS = {
  "no-env": { type: "boolean" },
  format: { type: "string" },
  var: { type: "string", multiple: true },
  color: { type: "boolean" },
  "no-color": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** Runs `flowrun validate`; resolves to the exit code. */
export async function validate(args: string[]): Promise<number> {
  const parsed = command(
    args,
    VALIDATE_OPTIONS,
    new UsageError("no-paths", "No flow files given.", "Usage: flowrun validate <path>..."),
    "validate",
  );
  if (!parsed) return EXIT.passed;
  const { values, positionals } = parsed;
  const format = values.format ?? "text";
  if (format !== "text" && format !== "json") {
    throw new UsageError("bad-format", `Expected --format text or json, got "${format}".`);
  }
  const [suite, io, consoleMod] = await Promise.all([
    import("../lib/load/suite.ts"),
    import("../lib/io/mod.ts"),
    import("../lib/report/console.ts"),
  ]);
  // Nothing runs: no flow needs to stay parsed once checked.
  const { files, problems } = await suite.loadFlowsDeferred(positionals, {
    env: io.readEnv,
    params: parseParams(values.var),
    checkEnv: !values["no-env"],
  }, 0);
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
    const checked = `${plural(files.length, "file")} checked`;
    out(
      consoleMod.formatProblems(problems, consoleMod.style(useColor(values)), checked),
    );
  } else {
    out(`${plural(files.length, "flow file")} checked: no problems.\n`);
  }
  return problems.length > 0 ? EXIT.usage : EXIT.passed;
}
