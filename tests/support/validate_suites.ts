/**
 * Converted suites validated as their summaries' commands run them: a
 * folder holding the run's one sign-in (`.sign_in.yaml`, a setup flow:
 * lib/convert/openapi/sign_in_once.ts) is validated with `--setup` and
 * alone, since two setup flows handing out one name are refused together;
 * the other folders 200 a process.
 *
 * @module
 */
import { type CliRun, runCli } from "./cli.ts";

/** The setup flow a converted suite's printed command passes, in its folder. */
export const SIGN_IN_FILE = ".sign_in.yaml";

/** Whether `dir` holds a converted suite's setup flow. */
export function signsInOnce(dir: string): boolean {
  try {
    return Deno.statSync(`${dir}/${SIGN_IN_FILE}`).isFile;
  } catch {
    return false;
  }
}

/**
 * One `flowrun validate` run per folder with a setup flow, and per 200 other folders, each with
 * `args` (`--no-env`, `--format json`).
 *
 * @example
 * ```ts
 * import { validateSuites } from "./validate_suites.ts";
 * if ((await validateSuites([], [])).length !== 0) throw new Error();
 * ```
 */
export async function validateSuites(dirs: string[], args: string[]): Promise<CliRun[]> {
  const runs: CliRun[] = [];
  const plain = dirs.filter((d) => !signsInOnce(d));
  for (const dir of dirs.filter(signsInOnce)) {
    runs.push(await runCli(["validate", ...args, dir, "--setup", `${dir}/${SIGN_IN_FILE}`]));
  }
  for (let i = 0; i < plain.length; i += 200) {
    runs.push(await runCli(["validate", ...args, ...plain.slice(i, i + 200)]));
  }
  return runs;
}
