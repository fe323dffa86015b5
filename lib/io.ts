/**
 * The only library module that touches the file system and the process
 * environment, so everything else stays pure and testable.
 *
 * @module
 */
import { UsageError } from "./errors.ts";
import { compareCodePoints } from "./shard.ts";

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

/** `path` relative to `root`, both as given on the command line. */
function relativeTo(root: string, path: string): string {
  const r = join(root).replace(/\/$/, "");
  const p = join(path);
  if (r === "." || r === "") return p;
  return p.startsWith(r + "/") ? p.slice(r.length + 1) : p;
}

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
      if (!target) continue; // A dangling link leads nowhere.
      ({ isDirectory, isFile } = target);
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

/**
 * Expands paths into flow files: a file is taken as is, a directory is
 * searched recursively for `*.yaml` and `*.yml`. The result is in sorted
 * path order without duplicates. Throws {@linkcode UsageError} for a path
 * that does not exist or a directory without flows.
 *
 * @example
 * ```ts
 * import { discoverFlowEntries } from "./io.ts";
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
      for (const f of files) {
        const file = displayPath(f);
        if (!found.has(file)) found.set(file, { file, key: relativeTo(path, f) });
      }
    } else {
      const file = displayPath(path);
      if (!found.has(file)) found.set(file, { file, key: file.slice(file.lastIndexOf("/") + 1) });
    }
  }
  // Code-point order on "/"-separated paths gives every machine the same order.
  return [...found.values()].sort((a, b) => compareCodePoints(a.file, b.file));
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
  const target = await resolveTarget(path);
  if (target.stream !== undefined) {
    if (target.stream) await writeAllTo(target.stream, new TextEncoder().encode(text));
    return;
  }
  if (target.special) {
    const file = await Deno.open(target.path, { write: true });
    try {
      await writeAllTo(file, new TextEncoder().encode(text));
    } finally {
      file.close();
    }
    return;
  }
  path = target.path;
  await Deno.mkdir(parentOf(path), { recursive: true });
  const temp = `${path}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    await Deno.writeTextFile(temp, text);
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}

/** Something bytes can be written to. */
interface Sink {
  write(p: Uint8Array): Promise<number>;
}

const STANDARD: Record<string, () => Sink | null> = {
  "/dev/stdout": () => Deno.stdout,
  "/dev/stderr": () => Deno.stderr,
  "/dev/null": () => null,
};

/** The directory part of a path (`.` for a bare name). */
function parentOf(path: string): string {
  const slash = path.replaceAll("\\", "/").lastIndexOf("/");
  return slash > 0 ? path.slice(0, slash) : slash === 0 ? "/" : ".";
}

async function writeAllTo(file: Sink, bytes: Uint8Array): Promise<void> {
  while (bytes.length > 0) bytes = bytes.subarray(await file.write(bytes));
}

/**
 * Where writing `path` really goes. A symlink is followed (its target is
 * written, atomically beside it, and the link stays a link); a device, FIFO or
 * socket (`/dev/null`, `/dev/stdout`, a named pipe) is `special`: written
 * through, never replaced by a renamed file.
 */
async function resolveTarget(
  path: string,
): Promise<{ path: string; special: boolean; stream?: Sink | null }> {
  // The standard streams by name: Deno asks for --allow-all to open anything in /dev, and
  // /dev/stdout resolves to a pipe that has no path. /dev/null takes nothing at all.
  if (path in STANDARD) return { path, special: true, stream: STANDARD[path]() };
  let current = path;
  for (let hops = 0; hops < 40; hops++) {
    const info = await Deno.lstat(current).catch(() => undefined);
    if (!info) return { path: current, special: false };
    if (info.isSymlink) {
      const link = await Deno.readLink(current);
      current = link.startsWith("/") ? link : `${parentOf(current)}/${link}`;
      continue;
    }
    return { path: current, special: !info.isFile && !info.isDirectory };
  }
  throw new Error("too many levels of symbolic links");
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

/**
 * Checks, before anything is sent, that a report can be written at `path`:
 * creates missing parent directories and writes and removes a probe file
 * beside the target. Throws {@linkcode UsageError} (`unwritable`) otherwise.
 *
 * @example
 * ```ts
 * import { ensureWritable } from "./io.ts";
 * const dir = await Deno.makeTempDir();
 * await ensureWritable(`${dir}/new/dir/report.json`);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function ensureWritable(path: string): Promise<void> {
  try {
    const target = await resolveTarget(path);
    // A device or pipe is written through when the run ends; opening a FIFO now would block.
    if (target.special) return;
    const info = await Deno.stat(target.path).catch(() => undefined);
    if (info?.isDirectory) throw new Error("it is a directory");
    path = target.path;
    await Deno.mkdir(parentOf(path), { recursive: true });
    const probe = `${path}.${crypto.randomUUID().slice(0, 8)}.probe`;
    await Deno.writeTextFile(probe, "");
    await Deno.remove(probe);
  } catch (error) {
    throw new UsageError(
      "unwritable",
      `Cannot write "${path}": ${(error as Error).message.replace(/\.$/, "")}.`,
      "Choose a path in a directory you can write to; nothing was sent.",
    );
  }
}

/** A file written as a stream that appears at its path only when closed. */
export interface StreamWriter {
  /** Appends text; buffered, so memory stays flat however long the run. */
  write(text: string): Promise<void>;
  /** Flushes, closes and renames into place. */
  close(): Promise<void>;
}

/**
 * Opens a streamed file (the NDJSON log) that is written to a temporary file
 * beside `path` and renamed into place on close, like the reports.
 *
 * @example
 * ```ts
 * import { openStreamWriter } from "./io.ts";
 * const dir = await Deno.makeTempDir();
 * const log = await openStreamWriter(`${dir}/run.log`);
 * await log.write("a\n");
 * await log.write("b\n");
 * await log.close();
 * if ((await Deno.readTextFile(`${dir}/run.log`)) !== "a\nb\n") throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function openStreamWriter(path: string): Promise<StreamWriter> {
  const target = await resolveTarget(path);
  if (target.stream !== undefined) {
    const stream = target.stream;
    return {
      write: async (text) => {
        if (stream) await writeAllTo(stream, new TextEncoder().encode(text));
      },
      close: () => Promise.resolve(),
    };
  }
  path = target.path;
  if (!target.special) await Deno.mkdir(parentOf(path), { recursive: true });
  // A device or pipe gets the lines directly; a file is renamed into place when complete.
  const temp = target.special ? path : `${path}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  const file = await Deno.open(
    temp,
    target.special ? { write: true } : { write: true, create: true, truncate: true },
  );
  const encoder = new TextEncoder();
  let buffer = "";
  const flush = async () => {
    const bytes = encoder.encode(buffer);
    buffer = "";
    await writeAllTo(file, bytes);
  };
  return {
    async write(text) {
      buffer += text;
      if (buffer.length >= 64 * 1024) await flush();
    },
    async close() {
      try {
        await flush();
      } finally {
        file.close();
      }
      if (!target.special) await Deno.rename(temp, path);
    },
  };
}

/**
 * Reads a file's bytes (for checksums).
 *
 * @example
 * ```ts
 * import { readBytes } from "./io.ts";
 * const file = await Deno.makeTempFile();
 * await Deno.writeTextFile(file, "abc");
 * if ((await readBytes(file)).length !== 3) throw new Error();
 * await Deno.remove(file);
 * ```
 */
export async function readBytes(path: string): Promise<Uint8Array> {
  return await Deno.readFile(path);
}
