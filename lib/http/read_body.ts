/**
 * Reading a response body whole, within its caps: a body past the cap is
 * cancelled as soon as it passes it, a body past the memory cap goes to a
 * temporary file.
 *
 * @module
 */
import { BodyBlocks, type ClosableSpill } from "./body_blocks.ts";
import { formatBytes } from "./body_limits.ts";
import { RequestError } from "./request_error.ts";
import type { SpilledBody } from "./response.ts";
import { heldBody, type HeldBytes } from "./held_bytes.ts";

/**
 * Reads a body chunk by chunk, so a body past the cap (a gzip bomb, an
 * endless stream) is cancelled as soon as it passes, instead of buffered.
 * Each chunk is copied out at once: the runtime hands out decompressed
 * bodies 4 KiB at a time, each a view on a 64 KiB buffer, so keeping the
 * chunks kept 16 times the body (180 MB at a 10 MiB cap, 13 GB for 1 GiB).
 * A body past `memoryCap` goes to a temporary file, not memory.
 *
 * @example
 * ```ts
 * import { readBody } from "./read_body.ts";
 * const response = new Response("hello");
 * const noSpill = () => { throw new Error("not spilled"); };
 * const body = await readBody(response, { "content-length": "5" }, 1024, 1024, noSpill);
 * if (body !== "hello") throw new Error();
 * ```
 */
export async function readBody(
  response: Response,
  headers: Record<string, string>,
  cap: number,
  memoryCap: number,
  spill: () => ClosableSpill,
): Promise<string | HeldBytes | SpilledBody> {
  if (!response.body) return "";
  // A body sent as is with a length within the limits is read whole: it cannot grow past its
  // length, and most API responses are small ones like that.
  const length = Number(headers["content-length"] ?? Number.NaN);
  if (length <= Math.min(cap, memoryCap) && !Object.hasOwn(headers, "content-encoding")) {
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.byteLength <= cap) return heldBody(UTF8.decode(bytes), bytes, () => bytes);
    throw tooLarge(cap);
  }
  if (length > cap && !Object.hasOwn(headers, "content-encoding")) {
    // Announced as too large: nothing of it is worth reading.
    await response.body.cancel().catch(() => {});
    throw tooLarge(cap);
  }
  const body = new BodyBlocks(memoryCap, spill);
  const byob = bytesReader(response.body);
  try {
    return await (byob
      ? readInto(byob, body, cap)
      : readCopies(response.body.getReader(), body, cap));
  } catch (error) {
    body.discard();
    throw error;
  }
}

/** A reader that fills buffers it is given, when the stream is a byte stream (fetch's is). */
function bytesReader(stream: ReadableStream<Uint8Array>): ReadableStreamBYOBReader | undefined {
  try {
    return stream.getReader({ mode: "byob" });
  } catch {
    // A stream of chunks (the insecure client's): read as they come.
    return undefined;
  }
}

/**
 * Reads straight into the body's blocks, never more than one byte past the
 * cap. Reading the runtime's chunks instead left a 64 KiB buffer for each
 * 4 KiB of a decompressed body, garbage until the next collection: 130 MB
 * of memory to read a 10 MiB body.
 */
async function readInto(
  reader: ReadableStreamBYOBReader,
  body: BodyBlocks,
  cap: number,
): Promise<string | HeldBytes | SpilledBody> {
  while (true) {
    const { done, value } = await reader.read(body.room(cap + 1 - body.size));
    // The block's buffer comes back with the end too (empty), or the body's end is lost with it.
    if (value) body.filled(value);
    if (done) return body.finish();
    if (body.size > cap) {
      await reader.cancel().catch(() => {});
      throw tooLarge(cap);
    }
  }
}

/** Reads a stream of chunks, copying each into the body's blocks. */
async function readCopies(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  body: BodyBlocks,
  cap: number,
): Promise<string | HeldBytes | SpilledBody> {
  while (true) {
    const { done, value } = await reader.read();
    if (done) return body.finish();
    if (body.size + value.byteLength > cap) {
      await reader.cancel().catch(() => {});
      throw tooLarge(cap);
    }
    body.add(value);
  }
}
/** Decodes a whole body (no streaming state, so one decoder serves every response). */
const UTF8 = new TextDecoder("utf-8", { fatal: false, ignoreBOM: false });

function tooLarge(cap: number): RequestError {
  return new RequestError(
    "body-too-large",
    `The response body is larger than ${
      formatBytes(cap)
    } (the cap); raise it with --max-body or check the endpoint.`,
  );
}
