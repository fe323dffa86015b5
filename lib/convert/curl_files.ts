/**
 * The files a curl command names, as the converter sees them: a file it
 * refuses (outside the working directory, or past what one conversion
 * reads) is said so once, where the command names it, instead of only
 * "could not be read"; a file sent by reference (`-F f=@file`,
 * `--data-binary @file`, `-T file`) is checked for without being read.
 *
 * @module
 */
import type { CurlRequest } from "./curl_options.ts";

/** How the converter reaches the files a command names (`@file`, `<file`, `-T file`). */
export interface CurlFiles {
  /** The file's text, `undefined` when it does not exist, cannot be read or is refused. */
  read(path: string): string | undefined;
  /**
   * The path a flow written beside the output reads the same file by;
   * `sent` for a file the flow sends (a body, a form's file), which may be
   * an empty placeholder beside the flow when the file is not there.
   */
  rebase(path: string, sent?: boolean): string;
  /** Whether the file the flow sends by reference will be there (without reading it). */
  exists?(path: string): boolean;
  /**
   * Why the file is not read, when it is refused (it is outside the working
   * directory, or past what a conversion reads) or, for a file the flow
   * sends by reference, missing (an empty placeholder is sent instead): for
   * a file whose content the flow would hold, one it sends by reference, or
   * one an option of the step reads (a TLS certificate).
   */
  refused?(path: string, by: "content" | "reference" | "option"): string | undefined;
  /**
   * Bytes the conversion made (a body a pipe gzips), written beside the flow
   * under `name` or a free name like it, `about` saying what they are; the
   * path the command sends them by. Without it such bytes are not carried.
   */
  keep?(name: string, bytes: Uint8Array, about: string): string;
  /** Whether an earlier command of the text wrote the file, so its text is known (`curl_made_files.ts`). */
  written?(path: string): boolean;
}

/**
 * The file a command's body is sent from, as the step's `body_file`:
 * `--data-binary @F` alone (its bytes as they are), and `-d @F` or
 * `--json @F` alone whose file is refused for being outside the working
 * directory or is not there, so the flow sends its placeholder, and the
 * file once it is put there. `undefined` for any other body.
 *
 * @example
 * ```ts
 * import { bodyFile } from "./curl_files.ts";
 * import { readCurlArgs } from "./curl_options.ts";
 * const notes: string[] = [];
 * if (bodyFile(readCurlArgs(["a.test", "--data-binary", "@a.bin"]), undefined, notes) !== "a.bin") throw new Error();
 * const outside = { read: () => undefined, rebase: (p: string) => p, refused: () => "outside" };
 * if (bodyFile(readCurlArgs(["a.test", "--json", "@/etc/x.json"]), outside, notes) !== "/etc/x.json") throw new Error();
 * if (bodyFile(readCurlArgs(["a.test", "-d", "@in.txt"]), undefined, notes) !== undefined) throw new Error();
 * ```
 */
export function bodyFile(
  req: CurlRequest,
  files: CurlFiles | undefined,
  notes: string[],
): string | undefined {
  const path = fileBody(req);
  // A file the text wrote is read as its text: there is no file to send by reference.
  if (path !== undefined && files?.written?.(path)) return undefined;
  return path ?? refusedBody(req, files, notes);
}

/** `--data-binary @file` alone: the body is the file's bytes, sent as they are. */
function fileBody(req: CurlRequest): string | undefined {
  const [piece, more] = req.data;
  if (!piece || more || req.get || piece.kind !== "binary") return undefined;
  return /^@[^-]/.test(piece.text) || /^@-./.test(piece.text) ? piece.text.slice(1) : undefined;
}

/**
 * `-d @F` or `--json @F` alone whose file is refused (outside the working
 * directory) or not there: sent from the file's placeholder beside the
 * flow, as `--data-binary @F` is, so the flow sends the file once it is put
 * there, where its text in the body would be lost for good.
 */
function refusedBody(
  req: CurlRequest,
  files: CurlFiles | undefined,
  notes: string[],
): string | undefined {
  const [piece, more] = req.data;
  if (!piece || more || req.get || piece.given || !/^(data|json)$/.test(piece.kind)) {
    return undefined;
  }
  const path = /^@(?!-$)(.+)$/s.exec(piece.text)?.[1];
  if (path === undefined || files?.refused?.(path, "reference") === undefined) return undefined;
  if (piece.kind === "data") {
    notes.push(
      `curl removes the line breaks of -d @${path}; the flow sends the file as it is (use --data-binary to match).`,
    );
  }
  return path;
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
  const say = (path: string, by: "content" | "reference" | "option") => {
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
    rebase(path, sent) {
      say(path, sent ? "reference" : "option");
      return files.rebase(path, sent);
    },
    exists: files.exists && ((path) => files.exists!(path)),
    refused: files.refused && ((path, by) => files.refused!(path, by)),
    keep: files.keep && ((name, bytes, about) => files.keep!(name, bytes, about)),
    written: files.written && ((path) => files.written!(path)),
  };
}
