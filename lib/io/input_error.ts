/**
 * Why an input file was not read, as one clause each caller places in its
 * own sentence. Deno API family: `Deno.errors` (the system's refusals put in
 * plain words).
 *
 * @module
 */
import { plainReason } from "./_reason.ts";

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
 * import { InputFileError } from "./input_error.ts";
 * import { readBytesSync } from "./read.ts";
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

/** What Linux's kernel file systems hold, as {@linkcode notRegular} names it. */
export const KERNEL = "a kernel interface file";
const KERNEL_REASON = `it is ${KERNEL}, not a regular file`;

/** `n` bytes in MiB for a message: `10 MiB`, `12.5 MiB`, or bytes below 1 MiB. */
function sizeText(n: number): string {
  if (n < 1024 * 1024) return `${n} bytes`;
  const mib = n / 1024 / 1024;
  return `${Number.isInteger(mib) ? mib : mib.toFixed(1)} MiB`;
}

/**
 * The `input-too-large` error: with the size `stat` gave, or without one
 * when the file grew past `limit` as it was read.
 *
 * @example
 * ```ts
 * import { tooLarge } from "./input_error.ts";
 * const error = tooLarge("big.json", 10 * 1024 * 1024, 12.5 * 1024 * 1024);
 * if (error.message !== "it is 12.5 MiB, more than the 10 MiB limit") throw error;
 * if (tooLarge("x", 2).message !== "it is larger than the 2 bytes limit") throw new Error();
 * ```
 */
export function tooLarge(path: string, limit: number, size?: number): InputFileError {
  return new InputFileError(
    path,
    "input-too-large",
    size === undefined
      ? `it is larger than the ${sizeText(limit)} limit`
      : `it is ${sizeText(size)}, more than the ${sizeText(limit)} limit`,
    { size },
  );
}

/** The system's refusal in the words of an input's reason. */
function systemReason(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  if (error instanceof Deno.errors.NotFound) return "no such file";
  if (error instanceof Deno.errors.PermissionDenied) return "permission denied";
  if (error instanceof Deno.errors.FilesystemLoop || code === "ELOOP") {
    return "it is a symbolic link loop (too many levels of links)";
  }
  if (error instanceof Deno.errors.IsADirectory) return "it is a directory, not a regular file";
  return plainReason(error).replace(/^[A-Z](?![A-Z])/, (c) => c.toLowerCase());
}

/**
 * Why a stat or open of an input failed, as an {@linkcode InputFileError}
 * (one that already is passes through).
 *
 * @example
 * ```ts
 * import { inputFailure } from "./input_error.ts";
 * const error = inputFailure("a.yaml", new Deno.errors.NotFound("gone"));
 * if (error.code !== "file-read" || error.message !== "no such file") throw error;
 * ```
 */
export function inputFailure(path: string, error: unknown): InputFileError {
  if (error instanceof InputFileError) return error;
  // Deno itself refuses kernel and device files (`/proc`, `/sys`, `/dev`) without --allow-all,
  // whose advice ("run again with --allow-all") is the wrong one for an input.
  if (error instanceof Deno.errors.NotCapable && /requires all access/i.test(error.message)) {
    return new InputFileError(path, "not-a-regular-file", KERNEL_REASON, { cause: error });
  }
  const kind = error instanceof Deno.errors.IsADirectory ? "not-a-regular-file" : "file-read";
  return new InputFileError(path, kind, systemReason(error), { cause: error });
}
