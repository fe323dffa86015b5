/**
 * A temporary file beside a regular file's path, renamed over it once
 * complete, so a reader never sees half a report. Deno API family:
 * `Deno.open`/`Deno.rename` (with `Deno.mkdir`, `Deno.chmod` and
 * `Deno.remove` around them).
 *
 * @module
 */
import { parentOf, tempBeside } from "./paths.ts";

/**
 * A temporary file that becomes `path` on {@linkcode TempFile.commit}, or
 * leaves nothing behind on {@linkcode TempFile.discard}.
 *
 * @example
 * ```ts
 * import { TempFile } from "./_temp_file.ts";
 * const dir = await Deno.makeTempDir();
 * const kept = await TempFile.create(`${dir}/out/a.txt`);
 * await kept.file.write(new TextEncoder().encode("a"));
 * await kept.commit();
 * const dropped = await TempFile.create(`${dir}/out/b.txt`);
 * await dropped.discard();
 * const names = [...Deno.readDirSync(`${dir}/out`)].map((e) => e.name);
 * await Deno.remove(dir, { recursive: true });
 * if (names.join() !== "a.txt") throw new Error(names.join());
 * ```
 */
export class TempFile {
  /** The open temporary file, for writing. */
  readonly file: Deno.FsFile;
  #temp: string;
  #path: string;
  #mode: number | undefined;

  private constructor(file: Deno.FsFile, temp: string, path: string, mode: number | undefined) {
    this.file = file;
    this.#temp = temp;
    this.#path = path;
    this.#mode = mode;
  }

  /**
   * Creates the temporary file beside `path` (and `path`'s missing folders);
   * `mode` is the permissions `path` will have (an existing file's, kept).
   */
  static async create(path: string, mode?: number): Promise<TempFile> {
    await Deno.mkdir(parentOf(path), { recursive: true });
    const temp = tempBeside(path);
    const file = await Deno.open(temp, { write: true, createNew: true });
    return new TempFile(file, temp, path, mode);
  }

  /**
   * Flushes the bytes to disk (some file systems report a full disk only
   * then), closes the file and renames it over `path`. On failure the
   * temporary file is removed and the error thrown; `path` is as it was.
   */
  async commit(): Promise<void> {
    try {
      try {
        await this.file.syncData();
      } finally {
        this.#close();
      }
      if (this.#mode !== undefined && Deno.build.os !== "windows") {
        await Deno.chmod(this.#temp, this.#mode & 0o7777);
      }
      await Deno.rename(this.#temp, this.#path);
    } catch (error) {
      await this.discard();
      throw error;
    }
  }

  /** Closes and removes the temporary file; never throws. */
  async discard(): Promise<void> {
    this.#close();
    await Deno.remove(this.#temp).catch(() => {});
  }

  #close(): void {
    try {
      this.file.close();
    } catch {
      // Already closed; nothing left to lose.
    }
  }
}
