/**
 * The only library module that touches the file system and the process
 * environment, so everything else stays pure and testable.
 *
 * @module
 */
import { UsageError } from "../model/errors.ts";
import { compareCodePoints } from "../_util/compare.ts";
import { MAX_INPUT_BYTES, MAX_RECORDING_BYTES } from "../model/limits.ts";
import type { ByteSpill } from "../model/spill.ts";

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
  // Only Windows separates with `\`; elsewhere it is a character of the name (`a\b.yaml`).
  const slashes = (p: string) => Deno.build.os === "windows" ? p.replaceAll("\\", "/") : p;
  const normal = slashes(path);
  const cwd = slashes(Deno.cwd()).replace(/\/$/, "");
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
    let info: Deno.FileInfo | undefined;
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
      // A symlink loop (or a file the system will not describe) is taken as a flow file, as in a
      // directory: reading it gives the one positioned problem saying why.
    }
    if (info?.isDirectory) {
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
 * Why an input file was not read. `message` is a clause that names no path
 * (`it is a FIFO (named pipe), not a regular file`), so each caller places it
 * in its own sentence: the flow key or command-line option that named the
 * file, with its position.
 *
 * `code` is stable and kebab-case, and doubles as the problem code:
 * `not-a-regular-file` (a directory, FIFO, device or socket, after following
 * symlinks), `input-too-large` (past the reader's limit), or `file-read` (no
 * such file, no permission, a symlink loop, an I/O error).
 *
 * @example
 * ```ts
 * import { InputFileError, readBytesSync } from "./io.ts";
 * try {
 *   readBytesSync("/dev/zero");
 *   throw new Error("a device was read");
 * } catch (error) {
 *   if (!(error instanceof InputFileError) || error.code !== "not-a-regular-file") throw error;
 *   if (error.message !== "it is a character device, not a regular file") throw error;
 * }
 * ```
 */
export class InputFileError extends Error {
  /** `not-a-regular-file`, `input-too-large` or `file-read`. */
  readonly code: "not-a-regular-file" | "input-too-large" | "file-read";
  /** The path as the caller gave it. */
  readonly path: string;
  /** For `input-too-large`: the size the file said it had, when it said (a growing file does not). */
  readonly size?: number;

  /** Creates the error; `cause` keeps the system's error for debugging. */
  constructor(
    path: string,
    code: InputFileError["code"],
    reason: string,
    options?: { cause?: unknown; size?: number },
  ) {
    super(reason, { cause: options?.cause });
    this.name = "InputFileError";
    this.code = code;
    this.path = path;
    if (options?.size !== undefined) this.size = options.size;
    // Whoever prints it as a crash still prints one line.
    this.stack = `${this.name}: ${this.message}`;
  }
}

/** How much one read may take. */
export interface ReadOptions {
  /**
   * The most bytes the file may hold (default {@linkcode MAX_INPUT_BYTES});
   * past it the read stops and throws `input-too-large`.
   */
  limit?: number;
}

/** `n` bytes in MiB for a message: `10 MiB`, `12.5 MiB`, or bytes below 1 MiB. */
function sizeText(n: number): string {
  if (n < 1024 * 1024) return `${n} bytes`;
  const mib = n / 1024 / 1024;
  return `${Number.isInteger(mib) ? mib : mib.toFixed(1)} MiB`;
}

/** Why a stat or open of an input failed, as an {@linkcode InputFileError}. */
function inputFailure(path: string, error: unknown): InputFileError {
  if (error instanceof InputFileError) return error;
  // Deno itself refuses kernel and device files (`/proc`, `/sys`, `/dev`) without --allow-all,
  // whose advice ("run again with --allow-all") is the wrong one for an input.
  if (error instanceof Deno.errors.NotCapable && /requires all access/i.test(error.message)) {
    return new InputFileError(path, "not-a-regular-file", KERNEL_REASON, { cause: error });
  }
  const code = (error as { code?: unknown })?.code;
  const reason = error instanceof Deno.errors.NotFound
    ? "no such file"
    : error instanceof Deno.errors.PermissionDenied
    ? "permission denied"
    : error instanceof Deno.errors.FilesystemLoop || code === "ELOOP"
    ? "it is a symbolic link loop (too many levels of links)"
    : error instanceof Deno.errors.IsADirectory
    ? "it is a directory, not a regular file"
    : plainReason(error).replace(/^[A-Z](?![A-Z])/, (c) => c.toLowerCase());
  const kind = error instanceof Deno.errors.IsADirectory ? "not-a-regular-file" : "file-read";
  return new InputFileError(path, kind, reason, { cause: error });
}

/** What a file that is not regular is, or undefined for a regular file. */
function notRegular(info: Deno.FileInfo): string | undefined {
  if (info.isFile) return kernelFiles().has(info.dev) ? KERNEL : undefined;
  if (info.isDirectory) return "a directory";
  if (info.isFifo) return "a FIFO (named pipe)";
  if (info.isCharDevice) return "a character device";
  if (info.isBlockDevice) return "a block device";
  if (info.isSocket) return "a socket";
  return "not a regular file";
}

let kernel: Set<number> | undefined;
const KERNEL = "a kernel interface file";
const KERNEL_REASON = `it is ${KERNEL}, not a regular file`;

/**
 * The devices of Linux's kernel file systems (procfs, sysfs and those
 * mounted under it, such as tracefs): their "regular" files can read for
 * ever (`/proc/kmsg`, `trace_pipe`) or say they are empty, so none is an
 * input. Found once per process, from the mount points' own `stat`.
 */
function kernelFiles(): Set<number> {
  if (kernel) return kernel;
  kernel = new Set();
  if (Deno.build.os !== "linux") return kernel;
  for (const dir of ["/proc", "/sys", "/sys/kernel/tracing", "/sys/kernel/debug"]) {
    try {
      kernel.add(Deno.statSync(dir).dev);
    } catch {
      // Not mounted here.
    }
  }
  return kernel;
}

/**
 * Checks what `stat` says before anything is opened: opening a FIFO would
 * wait for a writer for ever, and a device never ends. (A path swapped for a
 * FIFO between this check and the open still blocks: only someone who can
 * write the directory at that moment can do that.)
 */
function checkInput(path: string, info: Deno.FileInfo, limit: number): void {
  const kind = notRegular(info);
  if (kind !== undefined) {
    throw new InputFileError(
      path,
      "not-a-regular-file",
      kind === "not a regular file"
        ? "it is not a regular file"
        : `it is ${kind}, not a regular file`,
    );
  }
  if (info.size > limit) throw tooLarge(path, limit, info.size);
}

function tooLarge(path: string, limit: number, size?: number): InputFileError {
  return new InputFileError(
    path,
    "input-too-large",
    size === undefined
      ? `it is larger than the ${sizeText(limit)} limit`
      : `it is ${sizeText(size)}, more than the ${sizeText(limit)} limit`,
    { size },
  );
}

/**
 * The bytes of a bounded read as they come: a buffer of the size `stat` gave
 * (so a held file costs exactly its length), then a one-byte probe that sees
 * the end, or that the file grew; past `limit` bytes the read is refused, so
 * a file that grows after its `stat` (or a `/proc` file that says it is
 * empty) still stops there.
 */
class BoundedBytes {
  #bytes: Uint8Array<ArrayBuffer>;
  #n = 0;
  #probe = new Uint8Array(1);
  #path: string;
  #limit: number;

  constructor(path: string, size: number, limit: number) {
    this.#path = path;
    this.#limit = limit;
    this.#bytes = new Uint8Array(Math.min(limit + 1, size === 0 ? 64 * 1024 : size));
  }

  /** Where the next read goes: the rest of the buffer, or the probe when it is full. */
  next(): Uint8Array {
    return this.#n < this.#bytes.length ? this.#bytes.subarray(this.#n) : this.#probe;
  }

  /** Counts what the last read into {@linkcode next} gave; false at the end of the file. */
  took(into: Uint8Array, got: number | null): boolean {
    if (got === null || got === 0) return false;
    if (into === this.#probe) {
      if (this.#n + 1 > this.#limit) throw tooLarge(this.#path, this.#limit);
      const more = new Uint8Array(Math.min(this.#limit + 1, Math.max(this.#n * 2, 64 * 1024)));
      more.set(this.#bytes);
      more[this.#n] = this.#probe[0];
      this.#bytes = more;
    }
    this.#n += got;
    if (this.#n > this.#limit) throw tooLarge(this.#path, this.#limit);
    return true;
  }

  /** Exactly the bytes read. */
  result(): Uint8Array<ArrayBuffer> {
    return this.#n === this.#bytes.length ? this.#bytes : this.#bytes.slice(0, this.#n);
  }
}

/** Reads at most `limit + 1` bytes through `read`; exactly the bytes read are returned. */
function boundedReadSync(
  path: string,
  size: number,
  limit: number,
  read: (into: Uint8Array) => number | null,
): Uint8Array<ArrayBuffer> {
  const got = new BoundedBytes(path, size, limit);
  for (let into = got.next(); got.took(into, read(into)); into = got.next());
  return got.result();
}

/**
 * Reads an input file whole, if it is a regular file (after following
 * symlinks) of at most `limit` bytes (default {@linkcode MAX_INPUT_BYTES}):
 * a directory, FIFO, device or socket is refused before it is opened, and
 * the read stops one byte past the limit. Synchronous, for the loader
 * (which reads flow files and what they include or send where it meets
 * them). Throws {@linkcode InputFileError} and nothing else.
 *
 * @example
 * ```ts
 * import { InputFileError, readBytesSync } from "./io.ts";
 * const file = await Deno.makeTempFile();
 * await Deno.writeTextFile(file, "abc");
 * if (readBytesSync(file).length !== 3) throw new Error();
 * try {
 *   readBytesSync(file, { limit: 2 });
 *   throw new Error("read past the limit");
 * } catch (error) {
 *   if ((error as InputFileError).message !== "it is 3 bytes, more than the 2 bytes limit") throw error;
 * }
 * await Deno.remove(file);
 * try {
 *   readBytesSync(file);
 *   throw new Error("read a removed file");
 * } catch (error) {
 *   if ((error as Error).message !== "no such file") throw error;
 * }
 * ```
 */
export function readBytesSync(path: string, options: ReadOptions = {}): Uint8Array<ArrayBuffer> {
  const limit = options.limit ?? MAX_INPUT_BYTES;
  let file: Deno.FsFile | undefined;
  try {
    const info = Deno.statSync(path);
    checkInput(path, info, limit);
    file = Deno.openSync(path, { read: true });
    const open = file;
    return boundedReadSync(path, info.size, limit, (into) => open.readSync(into));
  } catch (error) {
    throw inputFailure(path, error);
  } finally {
    file?.close();
  }
}

/**
 * Reads an input file's bytes as {@linkcode readBytesSync} does (regular
 * files only, up to `limit` bytes), without blocking the process while the
 * disk answers. Throws {@linkcode InputFileError} and nothing else.
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
export async function readBytes(path: string, options: ReadOptions = {}): Promise<Uint8Array> {
  const limit = options.limit ?? MAX_INPUT_BYTES;
  let file: Deno.FsFile | undefined;
  try {
    const info = await Deno.stat(path);
    checkInput(path, info, limit);
    file = await Deno.open(path, { read: true });
    const got = new BoundedBytes(path, info.size, limit);
    for (let into = got.next(); got.took(into, await file.read(into)); into = got.next());
    return got.result();
  } catch (error) {
    throw inputFailure(path, error);
  } finally {
    file?.close();
  }
}

/**
 * Reads an input file as UTF-8 text (a malformed sequence becomes U+FFFD),
 * under the rules of {@linkcode readBytes}: a regular file of at most
 * `limit` bytes. Throws {@linkcode InputFileError} and nothing else.
 *
 * @example
 * ```ts
 * import { InputFileError, readText } from "./io.ts";
 * const file = await Deno.makeTempFile();
 * await Deno.writeTextFile(file, "name: x");
 * if ((await readText(file)) !== "name: x") throw new Error();
 * await Deno.remove(file);
 * const dir = await Deno.makeTempDir();
 * try {
 *   await readText(dir);
 *   throw new Error("a directory was read");
 * } catch (error) {
 *   if ((error as InputFileError).code !== "not-a-regular-file") throw error;
 * }
 * await Deno.remove(dir);
 * ```
 */
export async function readText(path: string, options: ReadOptions = {}): Promise<string> {
  return new TextDecoder().decode(await readBytes(path, options));
}

/**
 * Why an artifact could not be written, in one sentence naming the path and
 * the reason (`Cannot write "out/junit.xml": No space left on device.`), with
 * no stack trace: a full disk is the machine's problem, not the runner's.
 * Every write function of this module throws it, and only it.
 *
 * `code` is stable and kebab-case: `disk-full` (ENOSPC, EDQUOT, EFBIG),
 * `permission-denied`, `read-only`, `not-found` (a directory vanished),
 * `is-directory`, `broken-pipe`, `io-error`, `symlink-loop`,
 * `name-too-long`, or `write-failed` for anything else.
 *
 * @example
 * ```ts
 * import { ArtifactWriteError, writeFileAtomic } from "./io.ts";
 * try {
 *   await writeFileAtomic("/dev/full", "{}\n");
 *   throw new Error("a full device took the bytes");
 * } catch (error) {
 *   if (!(error instanceof ArtifactWriteError) || error.code !== "disk-full") throw error;
 *   if (error.message !== 'Cannot write "/dev/full": No space left on device.') throw error;
 * }
 * ```
 */
export class ArtifactWriteError extends Error {
  /** A stable kebab-case code, e.g. `disk-full`. */
  readonly code: string;
  /** The path as the caller gave it. */
  readonly path: string;
  /** The reason as a clause without the path or a final period, e.g. `No space left on device`. */
  readonly reason: string;
  /** The system's error code when there was one (`ENOSPC`). */
  readonly errno?: string;

  /** Creates the error for `path`; `cause` keeps the original error for debugging. */
  constructor(
    path: string,
    reason: string,
    code = "write-failed",
    options?: { errno?: string; cause?: unknown },
  ) {
    super(`Cannot write "${path}": ${reason}.`, { cause: options?.cause });
    this.name = "ArtifactWriteError";
    this.code = code;
    this.path = path;
    this.reason = reason;
    if (options?.errno) this.errno = options.errno;
    // Whoever prints it as a crash still prints one sentence.
    this.stack = `${this.name}: ${this.message}`;
  }

  /**
   * Wraps any error of a write to `path`; an `ArtifactWriteError` is
   * returned as it is.
   *
   * @example
   * ```ts
   * import { ArtifactWriteError } from "./io.ts";
   * const cause = Object.assign(new Error("Read-only file system (os error 30): open 'x'"), { code: "EROFS" });
   * const error = ArtifactWriteError.from("out/report.json", cause);
   * if (error.code !== "read-only" || error.reason !== "Read-only file system") throw error;
   * ```
   */
  static from(path: string, error: unknown): ArtifactWriteError {
    if (error instanceof ArtifactWriteError) return error;
    const code = (error as { code?: unknown })?.code;
    const errno = typeof code === "string" ? code : undefined;
    const known = errno === undefined ? undefined : REASONS[errno];
    if (known) return new ArtifactWriteError(path, known[1], known[0], { errno, cause: error });
    return new ArtifactWriteError(path, plainReason(error), "write-failed", {
      errno,
      cause: error,
    });
  }
}

/** The system's errors in plain words, with the code reported for them. */
const REASONS: Record<string, [code: string, reason: string]> = {
  ENOSPC: ["disk-full", "No space left on device"],
  EDQUOT: ["disk-full", "Disk quota exceeded"],
  EFBIG: ["disk-full", "File too large"],
  EACCES: ["permission-denied", "Permission denied"],
  EPERM: ["permission-denied", "Operation not permitted"],
  EROFS: ["read-only", "Read-only file system"],
  ENOENT: ["not-found", "No such file or directory"],
  ENOTDIR: ["not-found", "A part of the path is not a directory"],
  EISDIR: ["is-directory", "It is a directory"],
  EPIPE: ["broken-pipe", "Broken pipe (nothing reads it any more)"],
  EIO: ["io-error", "Input/output error"],
  ELOOP: ["symlink-loop", "Too many levels of symbolic links"],
  ENAMETOOLONG: ["name-too-long", "File name too long"],
};

/**
 * A system error's message as a clause: without the error number and the
 * repeated operation and path Deno appends (`… (os error 28): write '/x'`).
 */
function plainReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const plain = message.replace(/\s*\(os error \d+\).*$/s, "").replace(/[.:\s]+$/, "").trim();
  return plain ? plain[0].toUpperCase() + plain.slice(1) : "Unknown error";
}

/** Something bytes can be written to. */
interface Sink {
  write(p: Uint8Array): Promise<number>;
}

/**
 * The standard streams by name: Deno asks for --allow-all to open anything in
 * /dev, and /dev/stdout of a piped process resolves to a pipe without a
 * path. `null` discards.
 */
const STANDARD: Record<string, () => Sink | null> = {
  "/dev/stdout": () => Deno.stdout,
  "/dev/stderr": () => Deno.stderr,
  "/dev/fd/1": () => Deno.stdout,
  "/dev/fd/2": () => Deno.stderr,
  "/proc/self/fd/1": () => Deno.stdout,
  "/proc/self/fd/2": () => Deno.stderr,
  "/dev/null": () => null,
};

/** The directory part of a path (`.` for a bare name). */
function parentOf(path: string): string {
  const slash = path.replaceAll("\\", "/").lastIndexOf("/");
  return slash > 0 ? path.slice(0, slash) : slash === 0 ? "/" : ".";
}

/** A wait that may end: an open or a write raced against the run's interrupt. */
type Bound = <T>(work: Promise<T>) => Promise<T>;

const UNBOUNDED: Bound = (work) => work;

async function writeAllTo(file: Sink, bytes: Uint8Array, bound = UNBOUNDED): Promise<void> {
  while (bytes.length > 0) bytes = bytes.subarray(await bound(file.write(bytes)));
}

/**
 * Once a run is interrupted, how long one open or one write of an artifact
 * that is written through (a FIFO, a device, a standard stream) may still
 * wait before it is given up: a FIFO nobody reads would hold the process for
 * ever, and a signal must end the run within a second or two.
 *
 * @example
 * ```ts
 * import { INTERRUPTED_WRITE_MS } from "./io.ts";
 * if (INTERRUPTED_WRITE_MS !== 1000) throw new Error();
 * ```
 */
export const INTERRUPTED_WRITE_MS = 1000;

/**
 * Races each wait against `interrupt`: a wait still pending
 * {@linkcode INTERRUPTED_WRITE_MS} after the interrupt (or after it began,
 * when it began later) rejects with an `interrupted`
 * {@linkcode ArtifactWriteError}. What it waited for is left behind; the
 * process ends without it.
 */
function boundBy(path: string, interrupt: AbortSignal | undefined): Bound {
  if (!interrupt) return UNBOUNDED;
  return <T>(work: Promise<T>): Promise<T> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let arm = () => {};
    const givenUp = new Promise<never>((_, reject) => {
      arm = () => {
        timer = setTimeout(() => {
          reject(
            new ArtifactWriteError(
              path,
              `Nothing took the bytes within ${INTERRUPTED_WRITE_MS / 1000} s of the interrupt`,
              "interrupted",
            ),
          );
        }, INTERRUPTED_WRITE_MS);
      };
    });
    if (interrupt.aborted) arm();
    else interrupt.addEventListener("abort", arm, { once: true });
    return Promise.race([work, givenUp]).finally(() => {
      clearTimeout(timer);
      interrupt.removeEventListener("abort", arm);
    });
  };
}

/**
 * Opens a device or FIFO for writing, within `bound`: a FIFO's open waits
 * for a reader. An open given up is closed if it ever completes.
 */
async function openThrough(path: string, bound: Bound): Promise<Deno.FsFile> {
  const opening = Deno.open(path, { write: true });
  try {
    return await bound(opening);
  } catch (error) {
    opening.then((file) => file.close(), () => {});
    throw error;
  }
}

/** How a write may be bounded. */
export interface WriteOptions {
  /**
   * The run's interrupt: once aborted, a write that goes through (a FIFO, a
   * device, a standard stream) is given up when nothing takes its bytes for
   * {@linkcode INTERRUPTED_WRITE_MS}, with an `interrupted`
   * {@linkcode ArtifactWriteError}.
   */
  interrupt?: AbortSignal;
}

/**
 * Where writing a path really goes:
 * - `stream`: a standard stream (or `/dev/null`, `sink: null`), also behind a symlink;
 * - `special`: a device, FIFO or socket, written through and never replaced;
 * - `file`: a regular file or a missing path (a symlink's target, so the link
 *   stays a link), replaced atomically; `mode` is the existing file's, kept.
 */
type Target =
  | { kind: "stream"; path: string; sink: Sink | null }
  | { kind: "special"; path: string }
  | { kind: "file"; path: string; mode?: number; isDirectory?: boolean };

/** How many symlinks in a row are followed, as Linux does. */
const MAX_LINKS = 40;

async function resolveTarget(path: string): Promise<Target> {
  let current = path;
  for (let hops = 0; hops <= MAX_LINKS; hops++) {
    if (Object.hasOwn(STANDARD, current)) {
      return { kind: "stream", path: current, sink: STANDARD[current]() };
    }
    const info = await Deno.lstat(current).catch(() => undefined);
    if (!info) return { kind: "file", path: current };
    if (info.isSymlink) {
      const link = await Deno.readLink(current);
      current = link.startsWith("/") || /^[A-Za-z]:[\\/]/.test(link)
        ? link
        : `${parentOf(current)}/${link}`;
      continue;
    }
    if (info.isFile) return { kind: "file", path: current, mode: info.mode ?? undefined };
    if (info.isDirectory) return { kind: "file", path: current, isDirectory: true };
    return { kind: "special", path: current };
  }
  throw Object.assign(new Error("Too many levels of symbolic links"), { code: "ELOOP" });
}

/** A temporary name beside `path`, so the final rename stays on one file system. */
function tempBeside(path: string): string {
  return `${path}.${crypto.randomUUID().slice(0, 8)}.tmp`;
}

/** Writes `bytes` to a temporary file beside `path`, flushed to disk, then renames it over. */
async function replaceFile(path: string, bytes: Uint8Array, mode?: number): Promise<void> {
  await Deno.mkdir(parentOf(path), { recursive: true });
  const temp = tempBeside(path);
  try {
    const file = await Deno.open(temp, { write: true, createNew: true });
    try {
      await writeAllTo(file, bytes);
      // Some file systems report a full disk only when the data is flushed.
      await file.syncData();
    } finally {
      file.close();
    }
    if (mode !== undefined && Deno.build.os !== "windows") await Deno.chmod(temp, mode & 0o7777);
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}

/**
 * Writes an artifact and returns the exact bytes written, so a checksum is
 * of what this run wrote, never of a file read back that another run may
 * have replaced since.
 *
 * A regular file (or a missing path) is written atomically: to a temporary
 * file beside it, flushed, then renamed over it, keeping the old file's
 * permissions, so a reader never sees half a report. Missing parent
 * directories are created. Anything else is written *through*, never
 * replaced or deleted: a symlink's target is written (atomically beside the
 * target when that is a regular file; the link stays), a device or FIFO
 * (`/dev/null`, a named pipe) gets the bytes, and `/dev/stdout` and
 * `/dev/stderr` go to the process's own streams.
 *
 * Throws {@linkcode ArtifactWriteError} and nothing else; a failed write
 * leaves an existing file as it was and no temporary file behind.
 *
 * @example
 * ```ts
 * import { writeFileAtomic } from "./io.ts";
 * const dir = await Deno.makeTempDir();
 * const bytes = await writeFileAtomic(`${dir}/out/report.json`, "{}\n");
 * if ((await Deno.readTextFile(`${dir}/out/report.json`)) !== "{}\n") throw new Error();
 * if (bytes.length !== 3) throw new Error();
 * await Deno.symlink(`${dir}/out/report.json`, `${dir}/latest.json`);
 * await writeFileAtomic(`${dir}/latest.json`, "[]\n");
 * if (!(await Deno.lstat(`${dir}/latest.json`)).isSymlink) throw new Error("the link was replaced");
 * if ((await Deno.readTextFile(`${dir}/out/report.json`)) !== "[]\n") throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: WriteOptions = {},
): Promise<Uint8Array> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const bound = boundBy(path, options.interrupt);
  try {
    const target = await resolveTarget(path);
    if (target.kind === "stream") {
      if (target.sink) await writeAllTo(target.sink, bytes, bound);
    } else if (target.kind === "special") {
      const file = await openThrough(target.path, bound);
      try {
        await writeAllTo(file, bytes, bound);
      } finally {
        file.close();
      }
    } else if (target.isDirectory) {
      throw Object.assign(new Error("It is a directory"), { code: "EISDIR" });
    } else await replaceFile(target.path, bytes, target.mode);
  } catch (error) {
    throw ArtifactWriteError.from(path, error);
  }
  return bytes;
}

/**
 * Writes `text` to `path` only when nothing is there yet, creating its
 * folder: a file the user already put in place (the real upload a converted
 * flow sends) is never replaced. Resolves to whether it wrote; throws
 * {@linkcode ArtifactWriteError} when it cannot.
 *
 * @example
 * ```ts
 * import { writeNewFile } from "./io.ts";
 * const dir = await Deno.makeTempDir();
 * if (!(await writeNewFile(`${dir}/uploads/a.txt`, "one"))) throw new Error();
 * if (await writeNewFile(`${dir}/uploads/a.txt`, "two")) throw new Error();
 * if ((await Deno.readTextFile(`${dir}/uploads/a.txt`)) !== "one") throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeNewFile(path: string, text: string): Promise<boolean> {
  const slash = path.lastIndexOf("/");
  try {
    if (slash > 0) await Deno.mkdir(path.slice(0, slash), { recursive: true });
    await Deno.writeTextFile(path, text, { createNew: true });
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) return false;
    throw ArtifactWriteError.from(path, error);
  }
}

/**
 * Appends text to `path` (a CI job summary): a regular file is appended to
 * (created when missing); a symlink is followed; a FIFO or device is written
 * through and a standard stream gets the text, each within
 * `options.interrupt` (see {@linkcode WriteOptions}). Throws
 * {@linkcode ArtifactWriteError} and nothing else.
 *
 * @example
 * ```ts
 * import { appendText } from "./io.ts";
 * const dir = await Deno.makeTempDir();
 * await appendText(`${dir}/summary.md`, "a\n");
 * await appendText(`${dir}/summary.md`, "b\n");
 * if ((await Deno.readTextFile(`${dir}/summary.md`)) !== "a\nb\n") throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function appendText(
  path: string,
  text: string,
  options: WriteOptions = {},
): Promise<void> {
  const bytes = new TextEncoder().encode(text);
  const bound = boundBy(path, options.interrupt);
  try {
    const target = await resolveTarget(path);
    if (target.kind === "stream") {
      if (target.sink) await writeAllTo(target.sink, bytes, bound);
      return;
    }
    if (target.kind === "file" && target.isDirectory) {
      throw Object.assign(new Error("It is a directory"), { code: "EISDIR" });
    }
    const special = target.kind === "special";
    const file = special
      ? await openThrough(target.path, bound)
      : await Deno.open(target.path, { append: true, create: true });
    try {
      await writeAllTo(file, bytes, special ? bound : UNBOUNDED);
    } finally {
      file.close();
    }
  } catch (error) {
    throw ArtifactWriteError.from(path, error);
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

/**
 * Checks, before anything is sent, that a report can be written at `path`:
 * creates missing parent directories and writes and removes a probe file
 * beside the target (beside a symlink's target). A device, FIFO or standard
 * stream is not probed: it is written through at the end, and opening a
 * FIFO now would wait for a reader. Throws {@linkcode UsageError}
 * (`unwritable`) with the plain reason otherwise.
 *
 * @example
 * ```ts
 * import { ensureWritable } from "./io.ts";
 * const dir = await Deno.makeTempDir();
 * await ensureWritable(`${dir}/new/dir/report.json`);
 * await ensureWritable("/dev/null");
 * try {
 *   await ensureWritable(dir);
 *   throw new Error("a directory passed");
 * } catch (error) {
 *   if (!(error as Error).message.endsWith(": it is a directory.")) throw error;
 * }
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function ensureWritable(path: string): Promise<void> {
  let reason: string;
  try {
    const target = await resolveTarget(path);
    if (target.kind !== "file") return;
    if (target.isDirectory) reason = "it is a directory";
    else {
      await Deno.mkdir(parentOf(target.path), { recursive: true });
      const probe = `${target.path}.${crypto.randomUUID().slice(0, 8)}.probe`;
      await Deno.writeFile(probe, new Uint8Array(0), { createNew: true });
      await Deno.remove(probe);
      return;
    }
  } catch (error) {
    reason = ArtifactWriteError.from(path, error).reason;
  }
  throw new UsageError(
    "unwritable",
    `Cannot write "${path}": ${reason}.`,
    "Choose a path in a directory you can write to; nothing was sent.",
  );
}

/**
 * Refuses, before anything is sent, a report path that is one of the input
 * files (a flow file): writing it would destroy the test it reports on.
 * Paths are compared as files, not as strings: through symlinks, `..`,
 * other spellings and hard links (same device and inode; the real path where
 * the system has no inodes). Paths that do not exist yet are never the same
 * as an input. Throws {@linkcode UsageError} (`unwritable`) naming both.
 *
 * @example
 * ```ts
 * import { refuseInputsAsOutputs } from "./io.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/login.yaml`, "name: login\n");
 * await Deno.link(`${dir}/login.yaml`, `${dir}/report.json`);
 * try {
 *   await refuseInputsAsOutputs([`${dir}/report.json`], [`${dir}/login.yaml`]);
 *   throw new Error("a hard link to a flow file passed");
 * } catch (error) {
 *   if (!(error as Error).message.includes("it is the flow file")) throw error;
 * }
 * await refuseInputsAsOutputs([`${dir}/new.json`, "/dev/null"], [`${dir}/login.yaml`]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function refuseInputsAsOutputs(
  outputs: readonly string[],
  inputs: readonly string[],
): Promise<void> {
  const identity = async (path: string): Promise<string | undefined> => {
    try {
      const info = await Deno.stat(path);
      if (!info.isFile) return undefined; // A device or pipe is written through, not replaced.
      if (info.ino !== null && info.dev !== null) return `inode:${info.dev}:${info.ino}`;
      return `path:${await Deno.realPath(path)}`;
    } catch {
      return undefined;
    }
  };
  const byIdentity = new Map<string, string>();
  for (const output of outputs) {
    const id = await identity(output);
    if (id !== undefined && !byIdentity.has(id)) byIdentity.set(id, output);
  }
  if (byIdentity.size === 0) return;
  for (const input of inputs) {
    const id = await identity(input);
    const output = id === undefined ? undefined : byIdentity.get(id);
    if (output !== undefined) {
      throw new UsageError(
        "unwritable",
        `Cannot write a report to "${output}": it is the flow file "${input}".`,
        "Choose a report path outside the flow files; nothing was sent.",
      );
    }
  }
}

/** What a stream writer wrote, for the manifest: never read back from the file. */
export interface WriteSummary {
  /** The path as given to {@linkcode openStreamWriter}. */
  path: string;
  /** Bytes written. */
  size: number;
  /** SHA-256 of those bytes, 64 lower-case hex digits; absent when opened with `hash: false`. */
  sha256?: string;
}

/** How {@linkcode openStreamWriter} writes. */
export interface StreamWriterOptions extends WriteOptions {
  /**
   * Hash the bytes as they are written, for the manifest (default true).
   * Without a manifest the hash is work for nothing: about 40 µs a flow of a
   * JSON report, and `node:crypto`'s import once a stream passes 1 MiB.
   */
  hash?: boolean;
}

/**
 * A file written as a stream (the NDJSON log), that appears at its path only
 * when closed. A failed write never rejects: the first failure is recorded,
 * nothing more is written, and {@linkcode StreamWriter.close} reports it, so
 * a full log disk cannot stop a run or the reports meant for other disks.
 */
export interface StreamWriter {
  /** Appends text; buffered, so memory stays flat however long the run. Never rejects. */
  write(text: string): Promise<void>;
  /** The first write failure, once there was one; nothing is written after it. */
  readonly error: ArtifactWriteError | undefined;
  /**
   * Flushes, closes and renames into place; returns the size and (unless
   * opened with `hash: false`) the SHA-256 of the bytes written. Rejects
   * with the recorded (or a new) {@linkcode ArtifactWriteError} instead,
   * leaving an existing file as it was and no temporary file behind.
   * Calling it again gives the same outcome.
   */
  close(): Promise<WriteSummary>;
  /**
   * Gives the file up because what was to be written could not be made:
   * nothing appears at the path (an existing file stays as it was) and no
   * temporary file is left behind. Never rejects.
   */
  abandon(reason: unknown): Promise<void>;
}

/** Past this many buffered characters the buffer is written out. */
const FLUSH_AT = 64 * 1024;

/**
 * Up to this many bytes, a stream's bytes are kept and hashed on close with
 * Web Crypto; past it they are hashed as they are written, with
 * `node:crypto`. Bounds the memory a writer holds.
 */
const HASH_HELD_MAX = 1024 * 1024;

/** What a stream's hash needs of `node:crypto`'s `Hash`. */
interface IncrementalHash {
  update(bytes: Uint8Array): unknown;
  digest(encoding: "hex"): string;
}

/** Buffers up to this size are kept for reuse; a larger piece of work gets a buffer of its own. */
const REUSED_MAX = 1024 * 1024;

/**
 * One buffer, reused from call to call, for text encoded as UTF-8 or bytes
 * joined into one run: the bytes returned are valid until the next call.
 * Writers that encode or batch every piece of a large report would
 * otherwise leave their size in spent buffers for the collector.
 *
 * @example
 * ```ts
 * import { ScratchBuffer } from "./io.ts";
 * const buffer = new ScratchBuffer();
 * const a = buffer.encode("héllo");
 * if (a.length !== 6 || a[1] !== 0xc3) throw new Error();
 * if (new TextDecoder().decode(buffer.encode("x".repeat(70_000))).length !== 70_000) throw new Error();
 * const joined = buffer.join([new Uint8Array([1, 2]), new Uint8Array([3])], 3);
 * if (joined.join() !== "1,2,3") throw new Error();
 * ```
 */
export class ScratchBuffer {
  #bytes = new Uint8Array(0);
  #encoder = new TextEncoder();

  /** `text` as UTF-8. */
  encode(text: string): Uint8Array {
    // Three bytes per UTF-16 unit at most, so encodeInto never stops short.
    const bytes = this.#room(text.length * 3);
    if (!bytes) return this.#encoder.encode(text);
    const { written } = this.#encoder.encodeInto(text, bytes);
    return bytes.subarray(0, written);
  }

  /** `pieces`, `total` bytes in all, one after the other. */
  join(pieces: Iterable<Uint8Array>, total: number): Uint8Array {
    const bytes = (this.#room(total) ?? new Uint8Array(total)).subarray(0, total);
    let at = 0;
    for (const piece of pieces) {
      bytes.set(piece, at);
      at += piece.length;
    }
    return bytes;
  }

  /** The shared buffer with at least `size` bytes, or undefined past `REUSED_MAX`. */
  #room(size: number): Uint8Array | undefined {
    if (size > REUSED_MAX) return undefined;
    if (size > this.#bytes.length) {
      this.#bytes = new Uint8Array(
        Math.min(REUSED_MAX, Math.max(size, 64 * 1024, this.#bytes.length * 2)),
      );
    }
    return this.#bytes;
  }
}

/**
 * The SHA-256 of a stream's bytes, fed as they are written and never read
 * back. `node:crypto` (the only streaming SHA-256 built in) costs a fresh
 * process about 30 ms to import, since any `node:` builtin starts Deno's Node
 * compatibility layer; Web Crypto's `digest`, built in and fast, takes its
 * input whole. So the first {@linkcode HASH_HELD_MAX} bytes are kept (the
 * arrays written, not copies) and hashed with Web Crypto on close: most
 * artifacts end there, without the import. A longer stream imports
 * `node:crypto` when it passes the mark, hashes what was kept, lets it go and
 * goes on chunk by chunk, so memory stays flat however long the stream.
 *
 * Measured on Deno 2.9.6, 2 CPUs: a SHA-256 in plain TypeScript reached
 * 90–150 MB/s (64 MiB in 64 KiB chunks) and 15–30 MB/s in a fresh process
 * while the JIT warms up, so it costs more than the import from about 1 MB;
 * `node:crypto` hashes about 1,350 MB/s, Web Crypto about 550 MB/s.
 */
class StreamHash {
  #held: Uint8Array[] = [];
  #heldBytes = 0;
  #hash: IncrementalHash | undefined;

  /** Adds bytes; the caller may reuse `bytes` once this resolves (what is kept is a copy). */
  async update(bytes: Uint8Array): Promise<void> {
    if (!this.#hash) {
      if (this.#heldBytes + bytes.length <= HASH_HELD_MAX) {
        this.#held.push(bytes.slice());
        this.#heldBytes += bytes.length;
        return;
      }
      const { createHash } = await import("node:crypto");
      const hash = createHash("sha256");
      for (const held of this.#held) hash.update(held);
      this.#held = [];
      this.#heldBytes = 0;
      this.#hash = hash;
    }
    this.#hash.update(bytes);
  }

  /** The digest of every byte added, as 64 lower-case hex digits. Call it once. */
  async hex(): Promise<string> {
    if (this.#hash) return this.#hash.digest("hex");
    const all = new Uint8Array(this.#heldBytes);
    let at = 0;
    for (const held of this.#held) {
      all.set(held, at);
      at += held.length;
    }
    this.#held = [];
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", all));
    return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
  }
}

/**
 * Opens a streamed artifact (the NDJSON log) at `path`, treated like
 * {@linkcode writeFileAtomic} treats it: a regular file is written to a
 * temporary file beside it and renamed into place on close; a symlink's
 * target, a device, a FIFO or a standard stream is written through as the
 * lines come. Throws {@linkcode ArtifactWriteError} when it cannot even be
 * opened; after that, see {@linkcode StreamWriter}.
 *
 * @example
 * ```ts
 * import { openStreamWriter } from "./io.ts";
 * const dir = await Deno.makeTempDir();
 * const log = await openStreamWriter(`${dir}/run.log`);
 * await log.write("a\n");
 * await log.write("b\n");
 * const { size } = await log.close();
 * if ((await Deno.readTextFile(`${dir}/run.log`)) !== "a\nb\n" || size !== 4) throw new Error();
 *
 * const givenUp = await openStreamWriter(`${dir}/report.json`);
 * await givenUp.write("{");
 * await givenUp.abandon(new Error("could not render"));
 * if ([...Deno.readDirSync(dir)].length !== 1) throw new Error("a file was left behind");
 * await Deno.remove(dir, { recursive: true });
 *
 * const full = await openStreamWriter("/dev/full");
 * await full.write("x".repeat(100_000)); // does not reject
 * if (full.error?.code !== "disk-full") throw new Error("the failure was not recorded");
 * try {
 *   await full.close();
 *   throw new Error("close hid the failure");
 * } catch (error) {
 *   if (error !== full.error) throw error;
 * }
 * ```
 */
export async function openStreamWriter(
  path: string,
  options: StreamWriterOptions = {},
): Promise<StreamWriter> {
  let target: Target;
  let sink: Sink | null;
  let file: Deno.FsFile | undefined;
  let temp: string | undefined;
  const bound = boundBy(path, options.interrupt);
  try {
    target = await resolveTarget(path);
    if (target.kind === "stream") sink = target.sink;
    else if (target.kind === "special") sink = file = await openThrough(target.path, bound);
    else if (target.isDirectory) {
      throw Object.assign(new Error("It is a directory"), { code: "EISDIR" });
    } else {
      await Deno.mkdir(parentOf(target.path), { recursive: true });
      temp = tempBeside(target.path);
      sink = file = await Deno.open(temp, { write: true, createNew: true });
    }
  } catch (error) {
    throw ArtifactWriteError.from(path, error);
  }
  const finalPath = target.path;
  const mode = target.kind === "file" ? target.mode : undefined;
  const scratch = new ScratchBuffer();
  const hash = options.hash === false ? undefined : new StreamHash();
  let size = 0;
  let buffer = "";
  let failure: ArtifactWriteError | undefined;
  // Writes go out one after another, in order, even when lines arrive from parallel flows.
  let queue: Promise<void> = Promise.resolve();
  let closing: Promise<WriteSummary> | undefined;

  const flush = (): Promise<void> => {
    if (buffer === "") return queue;
    const text = buffer;
    buffer = "";
    queue = queue.then(async () => {
      if (failure || !sink) return;
      try {
        // Encoded when its turn comes, into one reused buffer: a report of 50 MB would otherwise
        // leave 50 MB of spent buffers for the collector, and the process's peak memory with it.
        const bytes = scratch.encode(text);
        // A regular file is a temporary one: its writes end; what goes through may not.
        await writeAllTo(sink, bytes, temp === undefined ? bound : UNBOUNDED);
        await hash?.update(bytes);
        size += bytes.length;
      } catch (error) {
        failure = ArtifactWriteError.from(path, error);
      }
    });
    return queue;
  };

  const finish = async (): Promise<WriteSummary> => {
    await flush();
    try {
      if (!failure && file && temp !== undefined) await file.syncData();
    } catch (error) {
      failure = ArtifactWriteError.from(path, error);
    }
    try {
      file?.close();
    } catch {
      // Already closed; nothing left to lose.
    }
    if (!failure && temp !== undefined) {
      try {
        if (mode !== undefined && Deno.build.os !== "windows") {
          await Deno.chmod(temp, mode & 0o7777);
        }
        await Deno.rename(temp, finalPath);
      } catch (error) {
        failure = ArtifactWriteError.from(path, error);
      }
    }
    if (failure) {
      if (temp !== undefined) await Deno.remove(temp).catch(() => {});
      throw failure;
    }
    return hash ? { path, size, sha256: await hash.hex() } : { path, size };
  };

  return {
    get error() {
      return failure;
    },
    write(text) {
      if (failure || closing) return queue;
      buffer += text;
      return buffer.length >= FLUSH_AT ? flush() : Promise.resolve();
    },
    close() {
      closing ??= finish();
      return closing;
    },
    async abandon(reason) {
      failure ??= ArtifactWriteError.from(path, reason);
      closing ??= finish();
      await closing.catch(() => {});
    },
  };
}

/**
 * A flow cache kept as one file per entry in `dir` (created when the first
 * entry is written; safe to delete at any time). The directory is listed
 * once, so a miss costs no failed read. Entries are written in the
 * background; `flush` waits for them. A read or write that fails is a miss
 * or skipped, never an error of the run; an entry cut short (a crash while
 * writing, two runs writing at once) is not valid JSON, so it is a miss too,
 * and is written again.
 *
 * @example
 * ```ts
 * import { flowCacheIn } from "./io.ts";
 * const dir = await Deno.makeTempDir();
 * const cache = flowCacheIn(`${dir}/cache`);
 * cache.write("k1", "{}");
 * await cache.flush();
 * const back = flowCacheIn(`${dir}/cache`).read("k1");
 * await Deno.remove(dir, { recursive: true });
 * if (back !== "{}" || cache.read("k2") !== undefined) throw new Error();
 * ```
 */
export function flowCacheIn(dir: string): {
  read(key: string): string | undefined;
  write(key: string, text: string): void;
  flush(): Promise<void>;
} {
  const path = (key: string) => `${dir}/${key}.json`;
  let names: Set<string> | undefined;
  let made: Promise<unknown> | undefined;
  const writes: Promise<unknown>[] = [];
  return {
    read(key) {
      if (!names) {
        try {
          names = new Set(Array.from(Deno.readDirSync(dir), (e) => e.name));
        } catch {
          names = new Set();
        }
      }
      if (!names.has(`${key}.json`)) return undefined;
      try {
        // Read like any input: a FIFO or device put in the cache folder is a miss, never a hang.
        return new TextDecoder().decode(readBytesSync(path(key), { limit: MAX_RECORDING_BYTES }));
      } catch {
        return undefined;
      }
    },
    write(key, text) {
      // A cache that cannot be written is only slower.
      made ??= Deno.mkdir(dir, { recursive: true }).catch(() => {});
      writes.push(made.then(() => replaceEntry(path(key), text)).catch(() => {}));
    },
    async flush() {
      await Promise.all(writes.splice(0));
    },
  };
}

/**
 * Writes a cache entry beside its path and renames it over: whatever the
 * path already is (a FIFO would hold the run waiting for a reader, a symlink
 * would be written through to its target) is replaced, never opened.
 */
async function replaceEntry(path: string, text: string): Promise<void> {
  const temp = tempBeside(path);
  try {
    await Deno.writeTextFile(temp, text, { createNew: true });
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}

/** A reader of bytes that stay in memory (made apart, so other readers do not keep them). */
function inMemory(bytes: Uint8Array): () => Uint8Array {
  return () => bytes;
}

/** Bytes of a spill are written out in batches of about this many. */
const SPILL_BATCH = 256 * 1024;

/**
 * A temporary file where bytes wait until they are needed: the loader sets
 * aside each flow it will parse again later, so a suite of ten thousand
 * files does not hold them all in memory while it runs. The file is removed
 * as soon as it is open where the system allows it (nothing is left behind
 * by a crash or a signal), else on `close`. Bytes that cannot be written
 * stay in memory; the run never fails for the spill, unless it is `strict`
 * (a response body too large for memory), when `put` throws instead.
 *
 * @example
 * ```ts
 * import { byteSpill } from "./io.ts";
 * const spill = byteSpill();
 * const a = spill.put(new TextEncoder().encode("name: a\n"));
 * const b = spill.put(new Uint8Array(300_000).fill(98));
 * if (new TextDecoder().decode(a()) !== "name: a\n" || b().length !== 300_000 || b()[299_999] !== 98) {
 *   throw new Error();
 * }
 * spill.close();
 * ```
 */
export function byteSpill(
  options: { prefix?: string; strict?: boolean } = {},
): ByteSpill & { close(): void } {
  let file: Deno.FsFile | undefined;
  let path: string | undefined;
  let failure: unknown;
  // Opened at the first put: most runs never set anything aside.
  const open = (): boolean => {
    try {
      path = Deno.makeTempFileSync({ prefix: options.prefix ?? "flowrun-flows-" });
      file = Deno.openSync(path, { read: true, write: true });
      Deno.removeSync(path);
      path = undefined;
    } catch (error) {
      // Windows keeps an open file; without a temporary directory, bytes stay in memory.
      failure = error;
    }
    return file !== undefined;
  };
  // Bytes not on disk yet (or never, once a write failed), by offset.
  const held = new Map<number, Uint8Array>();
  let heldBytes = 0;
  let written = 0;
  let writable: boolean | undefined;
  // One buffer for every batch (written synchronously, so free again at once).
  const scratch = new ScratchBuffer();
  const flush = () => {
    const bytes = scratch.join(held.values(), heldBytes);
    try {
      file!.seekSync(written, Deno.SeekMode.Start);
      for (let done = 0; done < bytes.length;) done += file!.writeSync(bytes.subarray(done));
    } catch (error) {
      // The disk said no: what is held stays in memory, and nothing more is spilled.
      writable = false;
      failure = error;
      return;
    }
    written += bytes.length;
    held.clear();
    heldBytes = 0;
  };
  const readBack = (offset: number, length: number): Uint8Array => {
    const bytes = new Uint8Array(length);
    file!.seekSync(offset, Deno.SeekMode.Start);
    for (let got = 0; got < length;) {
      const n = file!.readSync(bytes.subarray(got));
      if (n === null) throw new Error("The flow spill ended early.");
      got += n;
    }
    return bytes;
  };
  return {
    put(bytes) {
      writable ??= open();
      if (!writable && options.strict) throw failure ?? new Error("The spill is closed.");
      if (!writable) return inMemory(bytes);
      const length = bytes.length;
      if (length === 0) return inMemory(bytes);
      const offset = written + heldBytes;
      held.set(offset, bytes);
      heldBytes += length;
      if (heldBytes >= SPILL_BATCH) flush();
      if (!writable && options.strict) throw failure;
      // Two numbers, never the bytes: a closure here that named `bytes` would keep them all.
      return () => held.get(offset) ?? readBack(offset, length);
    },
    close() {
      held.clear();
      writable = false;
      try {
        file?.close();
      } catch {
        // Already closed.
      }
      file = undefined;
      try {
        if (path) Deno.removeSync(path);
      } catch {
        // Gone already, or held by another process: a temporary file is never worth an error.
      }
      path = undefined;
    },
  };
}

/** How requests reach a server: extra trusted CAs, a client certificate, a proxy. */
export interface ClientOptions {
  /** PEM certificates trusted besides the system's. */
  caCerts?: string[];
  /** A PEM client certificate and its key, for servers that require one (mutual TLS). */
  cert?: string;
  /** The PEM private key of `cert`. */
  key?: string;
  /** An `http://`, `https://` or `socks5://` proxy URL. */
  proxy?: string;
}

const clients = new Map<string, Deno.HttpClient>();

/**
 * An HTTP client for `fetch` (its `client` option) with these options,
 * made once per distinct set and kept for the process.
 *
 * @example
 * ```ts
 * import { closeHttpClients, httpClient } from "./io.ts";
 * const a = httpClient({ proxy: "http://127.0.0.1:3128" });
 * if (a !== httpClient({ proxy: "http://127.0.0.1:3128" })) throw new Error("one client per set");
 * closeHttpClients();
 * ```
 */
export function httpClient(options: ClientOptions): Deno.HttpClient {
  const key = JSON.stringify([options.caCerts, options.cert, options.key, options.proxy]);
  let client = clients.get(key);
  if (!client) {
    client = createClient(options);
    clients.set(key, client);
  }
  return client;
}

/**
 * Builds a client with these options and closes it at once: the runtime's
 * error when it refuses them (a certificate it cannot decode, a key that is
 * not the certificate's, a proxy URL it cannot use), else `undefined`. The
 * run asks before it sends anything, so no request meets that error.
 *
 * @example
 * ```ts
 * import { httpClientError } from "./io.ts";
 * if (httpClientError({ proxy: "http://127.0.0.1:3128" }) !== undefined) throw new Error();
 * if (!httpClientError({ proxy: "http://127.0.0.1:99999" })) throw new Error("a port past 65535");
 * ```
 */
export function httpClientError(options: ClientOptions): Error | undefined {
  try {
    createClient(options).close();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

function createClient(options: ClientOptions): Deno.HttpClient {
  return Deno.createHttpClient({
    ...(options.caCerts ? { caCerts: options.caCerts } : {}),
    ...(options.cert && options.key ? { cert: options.cert, key: options.key } : {}),
    ...(options.proxy ? { proxy: { url: proxyUrl(options.proxy) } } : {}),
  });
}

/**
 * A proxy URL as a URL parser reads it (RFC 3986, WHATWG): the runtime
 * refuses a space, `"` or a non-ASCII letter in a password, and splits
 * `user:pa@ss@host` at the first `@`, sending `pa`. Percent-encoded as the
 * parser does, the password arrives whole, decoded, in `Proxy-Authorization`.
 */
function proxyUrl(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

/**
 * Closes the clients {@linkcode httpClient} made (at the end of a run).
 *
 * @example
 * ```ts
 * import { closeHttpClients } from "./io.ts";
 * closeHttpClients();
 * ```
 */
export function closeHttpClients(): void {
  for (const client of clients.values()) client.close();
  clients.clear();
}
