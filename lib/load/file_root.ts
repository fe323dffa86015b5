/**
 * The guard on every file a flow names (an include, a check file, a file it sends, a data
 * file): it must lie inside the run's file roots ({@linkcode LoadOptions.fileRoots}), so a
 * flow cannot read, quote or send any file the machine can read.
 *
 * @module
 */
import { outsideFileRoots } from "../io/file_roots.ts";
import type { LoadOptions } from "./load_options.ts";

/**
 * Why `file` (the path a flow names, resolved against the flow file) may not be read, or
 * undefined when it may: outside every folder of the run's roots.
 *
 * @example
 * ```ts
 * import { outsideRoot } from "./file_root.ts";
 * const options = { fileRoots: { folders: [Deno.realPathSync(Deno.cwd())], given: false } };
 * if (outsideRoot("deno.json", options) !== undefined) throw new Error();
 * if (!outsideRoot("/etc/hostname", options)?.includes("outside the folders")) throw new Error();
 * ```
 */
export function outsideRoot(file: string, options: LoadOptions): string | undefined {
  const roots = options.fileRoots;
  if (roots === undefined || !outsideFileRoots(file, roots)) return undefined;
  const folders = roots.folders.join(", ");
  return `${file} is outside the folders this run's flows may read (${folders}); keep the ` +
    `files flows use inside ${roots.given ? "that folder" : "the project"}, or name a folder ` +
    "that holds them with --file-root DIR";
}
