/**
 * `--auth-file FILE`: read only by runs that give it, its YAML loaded by the
 * loader's `loadAuthFile` (its problems are the run's load problems, so
 * `validate` and `run` give the same). A `--vars-file` whose `auth:` is a
 * block gives the run's auth the same way ({@linkcode readRunAuth}).
 *
 * @module
 */
import * as io from "../../lib/io/mod.ts";
import { yamlEngine } from "../../lib/load/yaml_engine.ts";
import { UsageError } from "../../lib/model/errors.ts";
import type { AuthFileResult } from "../../lib/load/auth_file.ts";

/**
 * Reads and loads an auth file; one that cannot be read is a {@linkcode UsageError}.
 *
 * @example
 * ```ts
 * import { readAuthFile } from "./auth_file.ts";
 * try {
 *   await readAuthFile("no/such/auth.yaml", () => undefined);
 *   throw new Error("expected a usage error");
 * } catch (error) {
 *   if (!(error as Error).message.startsWith("--auth-file no/such/auth.yaml")) throw error;
 * }
 * ```
 */
export async function readAuthFile(
  path: string,
  env: (name: string) => string | undefined,
  allowCommands = false,
  checkEnv = true,
): Promise<AuthFileResult> {
  let text: string;
  try {
    text = await io.readText(path);
  } catch (error) {
    const code = error instanceof io.InputFileError && error.code !== "file-read"
      ? error.code
      : "file-read";
    throw new UsageError(
      code,
      `--auth-file ${path}: ${(error as Error).message.replace(/\.$/, "")}.`,
      "Check the path: it is relative to the current directory.",
    );
  }
  await yamlEngine.load();
  const { loadAuthFile } = await import("../../lib/load/auth_file.ts");
  return loadAuthFile(text, path, { env, allowCommands, checkEnv, foreign: "the auth file" });
}

/** A `--vars-file` with an `auth:` block: its path and its text. */
export interface VarsFileAuth {
  file: string;
  text: string;
}

/**
 * The run's auth: the `--auth-file`'s block, or the `auth:` block of a
 * `--vars-file`, loaded alike; undefined when there is neither. Both, or
 * two vars files with a block, are a `run-auth-twice` problem at the
 * block given second (a vars file's; the `--auth-file` counts as first).
 *
 * @example
 * ```ts
 * import { readRunAuth } from "./auth_file.ts";
 * if (await readRunAuth(undefined, [], () => undefined) !== undefined) throw new Error();
 * const block = { file: "vars.yaml", text: 'k: v\nauth:\n  api_key: {name: x-key, value: "${k}"}\n' };
 * const one = await readRunAuth(undefined, [block], () => undefined);
 * if (one?.auth?.kind !== "api_key") throw new Error(JSON.stringify(one));
 * const two = await readRunAuth(undefined, [block, block], () => undefined);
 * if (two?.problems[0]?.code !== "run-auth-twice") throw new Error(JSON.stringify(two));
 * ```
 */
export async function readRunAuth(
  authFile: string | undefined,
  varsAuth: readonly VarsFileAuth[],
  env: (name: string) => string | undefined,
  allowCommands = false,
  checkEnv = true,
): Promise<AuthFileResult | undefined> {
  if (authFile === undefined && varsAuth.length === 0) return undefined;
  const results = authFile === undefined
    ? []
    : [await readAuthFile(authFile, env, allowCommands, checkEnv)];
  if (varsAuth.length === 0) return results[0];
  await yamlEngine.load();
  const { loadVarsFileAuth } = await import("../../lib/load/auth_file.ts");
  varsAuth.forEach(({ file, text }, i) => {
    const also = authFile !== undefined
      ? `--auth-file ${authFile}`
      : i > 0
      ? `--vars-file ${varsAuth[0].file}'s auth: block`
      : undefined;
    results.push(
      loadVarsFileAuth(
        text,
        file,
        { env, allowCommands, checkEnv, foreign: "the vars file" },
        also,
      ),
    );
  });
  const problems = results.flatMap((r) => r.problems);
  return problems.length > 0 ? { problems } : results[0];
}
