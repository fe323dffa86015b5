/**
 * The only library module that touches the file system and the process
 * environment, so everything else stays pure and testable.
 *
 * @module
 */
import { UsageError } from "./errors.ts";

/** Joins with `/`, dropping `./` and duplicate separators. */
function join(...parts: string[]): string {
  return parts.join("/").replace(/\/+/g, "/").replace(/^(\.\/)+/, "");
}

/**
 * Turns a path into the form reports use: relative to the working directory
 * when inside it, `/`-separated.
 *
 * @example
 * ```ts
 * import { displayPath } from "./io.ts";
 * if (displayPath(`${Deno.cwd()}/flows/a.yaml`) !== "flows/a.yaml") throw new Error();
 * if (displayPath("./flows//a.yaml") !== "flows/a.yaml") throw new Error();
 * ```
 */
export function displayPath(path: string): string {
  const normal = path.replaceAll("\\", "/");
  const cwd = Deno.cwd().replaceAll("\\", "/").replace(/\/$/, "");
  if (normal.startsWith(cwd + "/")) return join(normal.slice(cwd.length + 1));
  return normal.startsWith("/") ? normal.replace(/\/+/g, "/") : join(normal);
}

const FLOW_FILE = /\.ya?ml$/i;

async function walk(dir: string, out: string[]): Promise<void> {
  const entries: Deno.DirEntry[] = [];
  for await (const entry of Deno.readDir(dir)) entries.push(entry);
  for (const entry of entries) {
    // Hidden folders and node_modules hold tool configuration, never flows.
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory) await walk(path, out);
    else if (entry.isFile && FLOW_FILE.test(entry.name)) out.push(path);
  }
}

/**
 * Expands paths into flow files: a file is taken as is, a directory is
 * searched recursively for `*.yaml` and `*.yml`. The result is in sorted
 * path order without duplicates. Throws {@linkcode UsageError} for a path
 * that does not exist or a directory without flows.
 *
 * @example
 * ```ts
 * import { discoverFlowFiles } from "./io.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/b`);
 * await Deno.writeTextFile(`${dir}/b/2.yml`, "");
 * await Deno.writeTextFile(`${dir}/a.yaml`, "");
 * await Deno.writeTextFile(`${dir}/notes.txt`, "");
 * const files = await discoverFlowFiles([dir]);
 * await Deno.remove(dir, { recursive: true });
 * if (files.map((f) => f.slice(dir.length)).join() !== "/a.yaml,/b/2.yml") throw new Error(files.join());
 * ```
 */
export async function discoverFlowFiles(paths: readonly string[]): Promise<string[]> {
  const found = new Set<string>();
  for (const path of paths) {
    let info: Deno.FileInfo;
    try {
      info = await Deno.stat(path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) {
        throw new UsageError(
          "no-such-path",
          `No file or directory "${path}".`,
          "Check the path; it is relative to the working directory.",
        );
      }
      throw error;
    }
    if (info.isDirectory) {
      const files: string[] = [];
      await walk(path, files);
      if (files.length === 0) {
        throw new UsageError("no-flows", `No flow files (*.yaml, *.yml) under "${path}".`);
      }
      for (const f of files) found.add(displayPath(f));
    } else found.add(displayPath(path));
  }
  // Code-point order on "/"-separated paths gives every machine the same order.
  return [...found].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Reads a text file as UTF-8.
 *
 * @example
 * ```ts
 * import { readText } from "./io.ts";
 * const file = await Deno.makeTempFile();
 * await Deno.writeTextFile(file, "name: x");
 * if ((await readText(file)) !== "name: x") throw new Error();
 * await Deno.remove(file);
 * ```
 */
export async function readText(path: string): Promise<string> {
  return await Deno.readTextFile(path);
}

/**
 * Writes a file atomically: the text goes to a temporary file beside the
 * target, which is then renamed over it, so a reader never sees half a
 * report. Missing parent directories are created.
 *
 * @example
 * ```ts
 * import { writeFileAtomic } from "./io.ts";
 * const dir = await Deno.makeTempDir();
 * await writeFileAtomic(`${dir}/out/report.json`, "{}\n");
 * if ((await Deno.readTextFile(`${dir}/out/report.json`)) !== "{}\n") throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const slash = path.replaceAll("\\", "/").lastIndexOf("/");
  const dir = slash > 0 ? path.slice(0, slash) : slash === 0 ? "/" : ".";
  await Deno.mkdir(dir, { recursive: true });
  const temp = `${path}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    await Deno.writeTextFile(temp, text);
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}

/**
 * Reads an environment variable; `undefined` when unset.
 *
 * @example
 * ```ts
 * import { readEnv } from "./io.ts";
 * if (readEnv("FLOWRUN_SURELY_UNSET_VARIABLE") !== undefined) throw new Error();
 * ```
 */
export function readEnv(name: string): string | undefined {
  return Deno.env.get(name);
}
