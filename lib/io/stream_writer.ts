/**
 * Writing a streamed artifact (the NDJSON log, a large report) as its lines
 * come, in order, hashed as written, appearing at its path only when closed.
 * Deno API family: `Deno.open`/`Deno.rename` (through `TempFile`; the
 * writes go to a `Deno.FsFile`).
 *
 * @module
 */
import { ArtifactWriteError } from "./artifact_error.ts";
import { boundBy, type WriteOptions } from "./interrupt.ts";
import { ScratchBuffer } from "./scratch_buffer.ts";
import { StreamHash } from "./_stream_hash.ts";
import { openStreamOutput, type StreamOutput } from "./_stream_output.ts";
import { writeAllTo } from "./_target.ts";

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

/** A {@linkcode StreamWriter} over an open {@linkcode StreamOutput}. */
class OutputStreamWriter implements StreamWriter {
  #path: string;
  #out: StreamOutput;
  #hash: StreamHash | undefined;
  #scratch = new ScratchBuffer();
  #size = 0;
  #buffer = "";
  #failure: ArtifactWriteError | undefined;
  // Writes go out one after another, in order, even when lines arrive from parallel flows.
  #queue: Promise<void> = Promise.resolve();
  #closing: Promise<WriteSummary> | undefined;

  constructor(path: string, out: StreamOutput, hash: boolean) {
    this.#path = path;
    this.#out = out;
    this.#hash = hash ? new StreamHash() : undefined;
  }

  get error(): ArtifactWriteError | undefined {
    return this.#failure;
  }

  // Fields, not methods: callers may pass `writer.write` on as a function.
  write = (text: string): Promise<void> => {
    if (this.#failure || this.#closing) return this.#queue;
    this.#buffer += text;
    return this.#buffer.length >= FLUSH_AT ? this.#flush() : Promise.resolve();
  };

  close = (): Promise<WriteSummary> => {
    this.#closing ??= this.#finish();
    return this.#closing;
  };

  abandon = async (reason: unknown): Promise<void> => {
    this.#failure ??= ArtifactWriteError.from(this.#path, reason);
    await this.close().catch(() => {});
  };

  #flush(): Promise<void> {
    if (this.#buffer === "") return this.#queue;
    const text = this.#buffer;
    this.#buffer = "";
    this.#queue = this.#queue.then(() => this.#writeOut(text));
    return this.#queue;
  }

  async #writeOut(text: string): Promise<void> {
    const { sink, bound } = this.#out;
    if (this.#failure || !sink) return;
    try {
      // Encoded when its turn comes, into one reused buffer: a report of 50 MB would otherwise
      // leave 50 MB of spent buffers for the collector, and the process's peak memory with it.
      const bytes = this.#scratch.encode(text);
      await writeAllTo(sink, bytes, bound);
      await this.#hash?.update(bytes);
      this.#size += bytes.length;
    } catch (error) {
      this.#failure = ArtifactWriteError.from(this.#path, error);
    }
  }

  async #finish(): Promise<WriteSummary> {
    await this.#flush();
    const { through, temp } = this.#out;
    try {
      through?.close();
    } catch {
      // Already closed; nothing left to lose.
    }
    if (temp && this.#failure) await temp.discard();
    else if (temp) await temp.commit().catch((error) => this.#fail(error));
    if (this.#failure) throw this.#failure;
    const path = this.#path, size = this.#size;
    return this.#hash ? { path, size, sha256: await this.#hash.hex() } : { path, size };
  }

  #fail(error: unknown): void {
    this.#failure = ArtifactWriteError.from(this.#path, error);
  }
}

/**
 * Opens a streamed artifact (the NDJSON log) at `path`, treated like
 * `writeFileAtomic` treats it: a regular file is written to a
 * temporary file beside it and renamed into place on close; a symlink's
 * target, a device, a FIFO or a standard stream is written through as the
 * lines come. Throws {@linkcode ArtifactWriteError} when it cannot even be
 * opened; after that, see {@linkcode StreamWriter}.
 *
 * @example
 * ```ts
 * import { openStreamWriter } from "./stream_writer.ts";
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
  let out: StreamOutput;
  try {
    out = await openStreamOutput(path, boundBy(path, options.interrupt));
  } catch (error) {
    throw ArtifactWriteError.from(path, error);
  }
  return new OutputStreamWriter(path, out, options.hash !== false);
}
