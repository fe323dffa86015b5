/**
 * `flowrun validate <path>...`: every problem of the flow files, as text or
 * JSON, without sending anything. It takes every option of `run` that
 * changes what is loaded and loads as `run` does (cli/run/load_step.ts),
 * so it finds exactly the problems `run` would stop at.
 *
 * @module
 */
import { UsageError } from "../lib/model/errors.ts";
import { plural } from "../lib/_util/plural.ts";
import { command } from "./args.ts";
import { EXIT } from "./exit.ts";
import { err, out, redactor, useColor } from "./output.ts";
import {
  LOAD_OPTIONS,
  loadOptionsOf,
  loadPlan,
  loadProblems,
  readLoadInputs,
} from "./run/load_step.ts";

/** The options `flowrun validate` accepts; its `--help` lists each. */
export const VALIDATE_OPTIONS = {
  ...LOAD_OPTIONS,
  "no-env": { type: "boolean" },
  format: { type: "string" },
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
    // As for run: setup and teardown flows alone are a run to check.
    (values) => Boolean(values.setup?.length || values.teardown?.length),
  );
  if (!parsed) return EXIT.passed;
  const { values, positionals } = parsed;
  const format = values.format ?? "text";
  if (format !== "text" && format !== "json") {
    throw new UsageError("bad-format", `Expected --format text or json, got "${format}".`);
  }
  const [suite, io, invalid, warnings] = await Promise.all([
    import("../lib/load/suite.ts"),
    import("../lib/io/mod.ts"),
    import("./run/invalid.ts"),
    import("./run/warnings.ts"),
  ]);
  const plan = { ...loadPlan(values, positionals, io.readEnv), checkEnv: !values["no-env"] };
  const inputs = await readLoadInputs(plan, redactor);
  // Nothing runs: no flow needs to stay parsed once checked.
  const loaded = await suite.loadFlowsDeferred(positionals, {
    ...loadOptionsOf(plan, inputs),
    checkEnv: !values["no-env"],
  }, 0);
  for (const warning of warnings.loadWarnings(loaded.warnings, plan.params)) err(warning);
  const { files } = loaded;
  const problems = await loadProblems(plan, loaded);
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
      invalid.problemsText(problems, useColor(values), checked),
    );
  } else {
    out(`${plural(files.length, "flow file")} checked: no problems.\n`);
  }
  return problems.length > 0 ? EXIT.usage : EXIT.passed;
}
