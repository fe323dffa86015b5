/**
 * Artifact files the CLI writes (reports, merged results, converted
 * flows), masked by the process's redactor like the console. Apart from
 * output.ts so that the file-writing modules are not part of what
 * `flowrun --version` loads.
 *
 * @module
 */
import { writeFileAtomic } from "../lib/io/write.ts";
import { redactor } from "./output.ts";

/**
 * Writes an artifact file, masked after its final encoding like the console,
 * and returns the bytes written (so the manifest hashes what this run wrote).
 *
 * @example
 * ```ts ignore
 * import { save } from "./save.ts";
 * const bytes = await save("out/report.json", "{}\n");
 * ```
 *
 * `interrupt`, once aborted, bounds a write that goes through a FIFO or device.
 */
export async function save(
  path: string,
  text: string,
  interrupt?: AbortSignal,
): Promise<Uint8Array> {
  return await writeFileAtomic(path, redactor.redactOutput(text), { interrupt });
}
