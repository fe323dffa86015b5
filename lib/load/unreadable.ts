/**
 * Why a flow file, or a file read as one (an included flow, a check file),
 * could not be read: its problem code and the reason, with a flow file's
 * codes (`file-too-large` past its cap, `file-read` for text that is not
 * UTF-8).
 *
 * @module
 */
import { InputFileError } from "../io/input_error.ts";

/**
 * The problem of a file that could not be read or decoded.
 *
 * @example
 * ```ts
 * import { unreadable } from "./unreadable.ts";
 * if (unreadable(new TypeError("bad")).message !== "it is not UTF-8 text") throw new Error();
 * ```
 */
export function unreadable(error: unknown): { code: string; message: string } {
  // A fatal TextDecoder throws a TypeError for bytes that are not UTF-8.
  if (error instanceof TypeError) return { code: "file-read", message: "it is not UTF-8 text" };
  const code = error instanceof InputFileError ? error.code : "file-read";
  return {
    code: code === "input-too-large" ? "file-too-large" : code,
    message: (error as Error).message,
  };
}
