/**
 * A response body as it arrives, held in growing blocks and moved to a
 * temporary file (a {@linkcode ByteSpill}) once past the memory cap, with only
 * its head kept for reports.
 *
 * @module
 */
import type { ByteSpill } from "../model/spill.ts";
import { formatBytes, MAX_BODY_MEMORY_BYTES } from "./body_limits.ts";
import { RequestError } from "./request_error.ts";
import type { SpilledBody } from "./response.ts";
import { heldBody, type HeldBytes } from "./held_bytes.ts";

/** How much of a spilled body is kept in memory as its head, for reports. */
const SPILLED_HEAD_BYTES = 64 * 1024;

/**
 * A {@linkcode ByteSpill} that frees its file on `close`.
 *
 * @example
 * ```ts
 * import type { ClosableSpill } from "./body_blocks.ts";
 * const spill: ClosableSpill = { put: (bytes) => () => bytes, close() {} };
 * if (spill.put(new Uint8Array([1]))()[0] !== 1) throw new Error();
 * ```
 */
export type ClosableSpill = ByteSpill & { close(): void };

/**
 * A body as it arrives, copied into blocks of up to 1 MiB (small at first, so
 * a small body takes little): held in memory up to `memoryCap`, then moved to
 * a spill, block by block, with only its head kept.
 *
 * @example
 * ```ts
 * import { BodyBlocks } from "./body_blocks.ts";
 * const body = new BodyBlocks(1024, () => { throw new Error("a small body is never spilled"); });
 * body.add(new TextEncoder().encode("hello, "));
 * body.add(new TextEncoder().encode("world"));
 * if (body.finish() !== "hello, world" || body.size !== 12) throw new Error();
 * ```
 */
export class BodyBlocks {
  size = 0;
  #blocks: Uint8Array[] = [];
  #block: Uint8Array<ArrayBuffer> = new Uint8Array(0);
  #used = 0;
  #spill?: ClosableSpill;
  #pieces: (() => Uint8Array)[] = [];
  #head?: Uint8Array;

  constructor(readonly memoryCap: number, readonly openSpill: () => ClosableSpill) {}

  /** A chunk read elsewhere, copied in. */
  add(chunk: Uint8Array): void {
    for (let at = 0; at < chunk.length;) {
      if (this.#used === this.#block.length) this.#next();
      const n = Math.min(chunk.length - at, this.#block.length - this.#used);
      this.#block.set(chunk.subarray(at, at + n), this.#used);
      this.#used += n;
      at += n;
    }
    this.size += chunk.length;
  }

  /** Where the next read goes: the free part of the current block, at most `most` bytes. */
  room(most: number): Uint8Array<ArrayBuffer> {
    if (this.#used === this.#block.length) this.#next();
    const free = Math.max(1, Math.min(this.#block.length - this.#used, most));
    return new Uint8Array(this.#block.buffer as ArrayBuffer, this.#used, free);
  }

  /** A read into {@linkcode room} returned `view`: its buffer is the block's, moved. */
  filled(view: Uint8Array): void {
    this.#block = new Uint8Array(view.buffer as ArrayBuffer);
    this.#used += view.byteLength;
    this.size += view.byteLength;
  }

  /** The body: its text when held (with its bytes when they are not UTF-8), else the spilled body. */
  finish(): string | HeldBytes | SpilledBody {
    this.#seal();
    if (!this.#spill) {
      // The blocks stay until the text is made: a body that is not UTF-8 keeps its bytes.
      const blocks = this.#blocks;
      this.#blocks = [];
      const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: false });
      const parts = blocks.map((block) => decoder.decode(block, { stream: true }));
      parts.push(decoder.decode());
      return heldBody(parts.join(""), blocks[0], () => joined(blocks, this.size));
    }
    const pieces = this.#pieces;
    const spill = this.#spill;
    const body: SpilledBody = {
      bytes: this.size,
      memoryCap: this.memoryCap,
      head: new TextDecoder().decode(this.#head ?? EMPTY),
      reason:
        `the response body is ${formatBytes(this.size)}, more than the ${
          formatBytes(this.memoryCap)
        } held in memory for checks, so it was kept in a temporary file: checks of status, ` +
        `headers and cookies run, the body's are refused (raise --max-body-memory, ` +
        `up to ${formatBytes(MAX_BODY_MEMORY_BYTES)}, to check it)`,
      *chunks() {
        for (const piece of pieces) yield piece();
      },
      close: () => spill.close(),
    };
    // A response dropped without `close` (an earlier attempt of a polled step) frees its file too.
    SPILLS.register(body, spill);
    return body;
  }

  /** Frees what is held: the body will not be used. */
  discard(): void {
    this.#blocks = [];
    this.#block = EMPTY;
    this.#spill?.close();
  }

  /** A fresh block: twice what is held so far, from 16 KiB to 1 MiB. */
  #next(): void {
    this.#seal();
    this.#block = new Uint8Array(Math.min(BLOCK_MAX, Math.max(16 * 1024, this.size)));
    this.#used = 0;
  }

  /** Keeps the current block's bytes, and spills what is held once past the memory cap. */
  #seal(): void {
    if (this.#used > 0) this.#blocks.push(this.#block.subarray(0, this.#used));
    this.#block = EMPTY;
    this.#used = 0;
    if (!this.#spill && this.size <= this.memoryCap) return;
    try {
      if (!this.#spill) {
        this.#head = this.#headOf(this.#blocks);
        this.#spill = this.openSpill();
      }
      for (const block of this.#blocks) this.#pieces.push(this.#spill.put(block));
    } catch (error) {
      throw new RequestError(
        "body-too-large",
        `The response body is larger than ${
          formatBytes(this.memoryCap)
        } (what is held in memory) and could not be kept in a temporary file: ${
          (error as Error).message
        }; free disk space or set TMPDIR to a writable directory.`,
      );
    }
    this.#blocks = [];
  }

  /** The first {@linkcode SPILLED_HEAD_BYTES} bytes of `blocks`, copied. */
  #headOf(blocks: Uint8Array[]): Uint8Array {
    const head = new Uint8Array(Math.min(SPILLED_HEAD_BYTES, this.size));
    let at = 0;
    for (const block of blocks) {
      if (at === head.length) break;
      const n = Math.min(block.length, head.length - at);
      head.set(block.subarray(0, n), at);
      at += n;
    }
    return head;
  }
}

const BLOCK_MAX = 1024 * 1024;

/** The blocks as one array of `size` bytes. */
function joined(blocks: readonly Uint8Array[], size: number): Uint8Array {
  if (blocks.length === 1) return blocks[0];
  const out = new Uint8Array(size);
  let at = 0;
  for (const block of blocks) {
    out.set(block, at);
    at += block.length;
  }
  return out;
}
const SPILLS = new FinalizationRegistry<ClosableSpill>((spill) => spill.close());
const EMPTY = new Uint8Array(0);
