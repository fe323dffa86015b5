/**
 * Reading input files (flows, what they include or send, the command line's
 * files) only when they are regular files within a size limit, so a FIFO, a
 * device or a file that never ends gives one clear problem instead of a hang.
 * Deno API family: `Deno.stat`/`Deno.open` for reading (and their `Sync`
 * forms).
 *
 * @module
 */
import { MAX_INPUT_BYTES } from "../model/limits.ts";
import { inputFailure } from "./input_error.ts";
import { checkInput } from "./_input_kind.ts";
import { BoundedBytes } from "./_bounded_bytes.ts";

/** How much one read may take. */
export interface ReadOptions {
  /**
   * The most bytes the file may hold (default {@linkcode MAX_INPUT_BYTES});
   * past it the read stops and throws `input-too-large`.
   */
  limit?: number;
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
 * import { readBytesSync } from "./read.ts";
 * import type { InputFileError } from "./input_error.ts";
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
    const got = new BoundedBytes(path, info.size, limit);
    for (let into = got.next(); got.took(into, file.readSync(into)); into = got.next());
    return got.result();
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
 * import { readBytes } from "./read.ts";
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
 * import { readText } from "./read.ts";
 * import type { InputFileError } from "./input_error.ts";
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
