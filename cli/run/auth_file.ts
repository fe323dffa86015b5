/**
 * `--auth-file FILE`: read only by runs that give it, its YAML loaded by the
 * loader's `loadAuthFile` (its problems are the run's load problems, so
 * `validate` and `run` give the same).
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
  return loadAuthFile(text, path, { env, allowCommands });
}
