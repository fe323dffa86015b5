/**
 * Why an artifact (a report, the log, a CI summary) could not be written,
 * in one sentence with a stable code. Deno API family: none (it reads the
 * `code` of the errors `Deno.open`, `Deno.write` and `Deno.rename` throw).
 *
 * @module
 */
import { plainReason } from "./_reason.ts";

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
 * Why an artifact could not be written, in one sentence naming the path and
 * the reason (`Cannot write "out/junit.xml": No space left on device.`), with
 * no stack trace: a full disk is the machine's problem, not the runner's.
 * Every write function of `lib/io/` throws it, and only it.
 *
 * `code` is stable and kebab-case: `disk-full` (ENOSPC, EDQUOT, EFBIG),
 * `permission-denied`, `read-only`, `not-found` (a directory vanished),
 * `is-directory`, `broken-pipe`, `io-error`, `symlink-loop`,
 * `name-too-long`, or `write-failed` for anything else.
 *
 * @example
 * ```ts
 * import { ArtifactWriteError } from "./artifact_error.ts";
 * import { writeFileAtomic } from "./write.ts";
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
   * import { ArtifactWriteError } from "./artifact_error.ts";
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

/**
 * The error a write to a directory fails with, as the system would give it.
 *
 * @example
 * ```ts
 * import { ArtifactWriteError, isDirectoryError } from "./artifact_error.ts";
 * if (ArtifactWriteError.from("out", isDirectoryError()).code !== "is-directory") throw new Error();
 * ```
 */
export function isDirectoryError(): Error {
  return Object.assign(new Error("It is a directory"), { code: "EISDIR" });
}
