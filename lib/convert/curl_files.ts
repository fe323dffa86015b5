/**
 * The files a curl command names, as the converter sees them: a file it
 * refuses (outside the working directory, or past what one conversion
 * reads) is said so once, where the command names it, instead of only
 * "could not be read"; a file sent by reference (`-F f=@file`,
 * `--data-binary @file`, `-T file`) is checked for without being read.
 *
 * @module
 */
/** How the converter reaches the files a command names (`@file`, `<file`, `-T file`). */
export interface CurlFiles {
  /** The file's text, `undefined` when it does not exist, cannot be read or is refused. */
  read(path: string): string | undefined;
  /** The path a flow written beside the output reads the same file by. */
  rebase(path: string): string;
  /** Whether the file the flow sends by reference will be there (without reading it). */
  exists?(path: string): boolean;
  /**
   * Why the file is not read, when it is refused rather than missing (it is
   * outside the working directory, or past what a conversion reads), for a
   * file whose content the flow would hold or one it sends by reference.
   */
  refused?(path: string, by: "content" | "reference"): string | undefined;
}

/**
 * Whether the file a flow sends by reference will be there: asked without
 * reading it when the files can say so.
 *
 * @example
 * ```ts
 * import { fileThere } from "./curl_files.ts";
 * const files = { read: () => undefined, rebase: (p: string) => p, exists: () => true };
 * if (!fileThere(files, "big.iso")) throw new Error();
 * if (fileThere({ read: () => undefined, rebase: (p: string) => p }, "gone.txt")) throw new Error();
 * ```
 */
export function fileThere(files: CurlFiles, path: string): boolean {
  return files.exists ? files.exists(path) : files.read(path) !== undefined;
}

/**
 * `files` for one command, each refusal it meets added to `notes` once per
 * file (why the file was not read, and what the flow holds instead).
 *
 * @example
 * ```ts
 * import { explained } from "./curl_files.ts";
 * const notes: string[] = [];
 * const files = explained({
 *   read: () => undefined,
 *   rebase: (p: string) => p,
 *   refused: (p: string) => `The file "${p}" is outside the working directory.`,
 * }, notes);
 * files.read("/etc/passwd");
 * files.read("/etc/passwd");
 * if (notes.length !== 1 || !notes[0].includes("/etc/passwd")) throw new Error(notes.join());
 * ```
 */
export function explained(files: CurlFiles, notes: string[]): CurlFiles {
  const said = new Set<string>();
  const say = (path: string, by: "content" | "reference") => {
    const why = files.refused?.(path, by);
    if (why === undefined || said.has(why)) return;
    said.add(why);
    notes.push(why);
  };
  return {
    read(path) {
      const text = files.read(path);
      if (text === undefined) say(path, "content");
      return text;
    },
    rebase(path) {
      say(path, "reference");
      return files.rebase(path);
    },
    exists: files.exists && ((path) => files.exists!(path)),
    refused: files.refused && ((path, by) => files.refused!(path, by)),
  };
}
