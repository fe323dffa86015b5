/**
 * An artifact written over a flow file would destroy the test it reports
 * on: such a path is refused before anything is sent, also through a
 * symlink or another spelling of the same path.
 *
 * @module
 */
import { UsageError } from "../../lib/model/errors.ts";
import type { ArtifactPaths } from "./artifacts.ts";

/** The real path of a file, or undefined when it does not exist (yet). */
async function realPath(path: string): Promise<string | undefined> {
  try {
    return await Deno.realPath(path);
  } catch {
    return undefined;
  }
}

/**
 * Throws an `unwritable` usage error when an artifact path is one of the
 * flow files.
 *
 * @example
 * ```ts
 * import { refuseFlowFilesAsOutputs } from "./outputs.ts";
 * const file = await Deno.makeTempFile({ suffix: ".yaml" });
 * await refuseFlowFilesAsOutputs({ json: "no/such/report.json" }, [file]);
 * try {
 *   await refuseFlowFilesAsOutputs({ json: file }, [file]);
 *   throw new Error("not refused");
 * } catch (error) {
 *   if ((error as { code?: string }).code !== "unwritable") throw error;
 * } finally {
 *   await Deno.remove(file);
 * }
 * ```
 */
export async function refuseFlowFilesAsOutputs(
  paths: ArtifactPaths,
  files: readonly string[],
): Promise<void> {
  const outputs = new Map<string, string>();
  for (const path of Object.values(paths)) {
    const real = path && await realPath(path);
    if (real) outputs.set(real, path!);
  }
  if (outputs.size === 0) return;
  for (const file of files) {
    const real = await realPath(file);
    const output = real && outputs.get(real);
    if (output) {
      throw new UsageError(
        "unwritable",
        `Cannot write a report to "${output}": it is the flow file "${file}".`,
        "Choose a report path outside the flow files; nothing was sent.",
      );
    }
  }
}
