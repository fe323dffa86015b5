/**
 * Finding flow files: the paths given on the command line expanded into the
 * `*.yaml`/`*.yml` files under them, in one order on every machine. Deno API
 * family: `Deno.readDir` (with `Deno.stat` and `Deno.realPath`).
 *
 * @module
 */
import { UsageError } from "../model/errors.ts";
import { compareCodePoints } from "../_util/compare.ts";
import { displayPath, join, relativeTo } from "./paths.ts";

const FLOW_FILE = /\.ya?ml$/i;

async function walk(dir: string, out: string[], seen = new Set<string>()): Promise<void> {
  // Symlinked folders are followed (monorepos link shared suites), each real folder once,
  // so a link back up the tree cannot loop.
  const real = await Deno.realPath(dir);
  if (seen.has(real)) return;
  seen.add(real);
  const entries: Deno.DirEntry[] = [];
  for await (const entry of Deno.readDir(dir)) entries.push(entry);
  for (const entry of entries) {
    // Hidden folders and node_modules hold tool configuration, never flows.
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const path = join(dir, entry.name);
    let { isDirectory, isFile } = entry;
    if (entry.isSymlink) {
      const target = await Deno.stat(path).catch(() => undefined);
      // A dangling link named like a flow is kept, so reading it reports the broken link
      // instead of the flow silently dropping out of the run.
      if (!target) isFile = FLOW_FILE.test(entry.name);
      else ({ isDirectory, isFile } = target);
    }
    if (isDirectory) await walk(path, out, seen);
    else if (isFile && FLOW_FILE.test(entry.name)) out.push(path);
  }
}

/** A discovered flow file. */
export interface FlowEntry {
  /** The path as reports show it: relative to the working directory, `/`-separated. */
  file: string;
  /**
   * The path relative to the path argument it was found under (the file
   * name for a file given directly): what sharding sorts on, so machines with
   * different working directories compute the same split.
   */
  key: string;
}

/** What `stat` says of a path argument; undefined when it will not say (read as a flow file). */
async function describe(path: string): Promise<Deno.FileInfo | undefined> {
  try {
    return await Deno.stat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new UsageError(
        "no-such-path",
        `No file or directory "${path}".`,
        "Check the path; it is relative to the working directory.",
      );
    }
    // A symlink loop (or a file the system will not describe) is taken as a flow file, as in a
    // directory: reading it gives the one positioned problem saying why.
    return undefined;
  }
}

/** The flow files under a directory argument, keyed relative to it. */
async function entriesUnder(path: string): Promise<FlowEntry[]> {
  const files: string[] = [];
  await walk(path, files);
  if (files.length === 0) {
    throw new UsageError("no-flows", `No flow files (*.yaml, *.yml) under "${path}".`);
  }
  return files.map((f) => ({ file: displayPath(f), key: relativeTo(path, f) }));
}

/**
 * Expands paths into flow files: a file is taken as is, a directory is
 * searched recursively for `*.yaml` and `*.yml`. The result is in sorted
 * path order without duplicates. Throws {@linkcode UsageError} for a path
 * that does not exist or a directory without flows.
 *
 * @example
 * ```ts
 * import { discoverFlowEntries } from "./discover.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/b`);
 * await Deno.writeTextFile(`${dir}/b/2.yml`, "");
 * await Deno.writeTextFile(`${dir}/a.yaml`, "");
 * await Deno.writeTextFile(`${dir}/notes.txt`, "");
 * const entries = await discoverFlowEntries([dir]);
 * await Deno.remove(dir, { recursive: true });
 * if (entries.map((e) => e.key).join() !== "a.yaml,b/2.yml") throw new Error();
 * ```
 */
export async function discoverFlowEntries(paths: readonly string[]): Promise<FlowEntry[]> {
  const found = new Map<string, FlowEntry>();
  for (const path of paths) {
    const info = await describe(path);
    let entries: FlowEntry[];
    if (info?.isDirectory) entries = await entriesUnder(path);
    else {
      const file = displayPath(path);
      entries = [{ file, key: file.slice(file.lastIndexOf("/") + 1) }];
    }
    for (const entry of entries) if (!found.has(entry.file)) found.set(entry.file, entry);
  }
  // Code-point order on "/"-separated paths gives every machine the same order.
  return [...found.values()].sort((a, b) => compareCodePoints(a.file, b.file));
}
