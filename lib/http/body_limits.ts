/**
 * How much of a response body is read and how much is held in memory: the
 * caps, their defaults, and the byte counts the messages about them write.
 *
 * @module
 */
import { plural } from "../_util/plural.ts";

/**
 * The default cap on a response body, in bytes after decompression: 10 MiB.
 *
 * @example
 * ```ts
 * import { DEFAULT_MAX_BODY_BYTES } from "./body_limits.ts";
 * if (DEFAULT_MAX_BODY_BYTES !== 10 * 1024 * 1024) throw new Error();
 * ```
 */
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

/**
 * A byte count as people write it: `10 MiB`, `512 KiB`, `1000 bytes`.
 *
 * @example
 * ```ts
 * import { formatBytes } from "./body_limits.ts";
 * if (formatBytes(10 * 1024 * 1024) !== "10 MiB" || formatBytes(1536) !== "1.5 KiB") throw new Error();
 * if (formatBytes(1) !== "1 byte" || formatBytes(1000) !== "1000 bytes") throw new Error();
 * ```
 */
export function formatBytes(bytes: number): string {
  const units: [string, number][] = [["GiB", 2 ** 30], ["MiB", 2 ** 20], ["KiB", 2 ** 10]];
  for (const [unit, size] of units) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(2))} ${unit}`;
  }
  return plural(bytes, "byte");
}

/**
 * The default most body bytes held in memory, for checks that read the body:
 * 64 MiB. A larger body (up to the cap) is kept in a temporary file instead;
 * parsed as JSON for checks, a body takes several times its size, and a few
 * requests at a time at this size stay within a CI machine's memory.
 *
 * @example
 * ```ts
 * import { DEFAULT_BODY_MEMORY_BYTES } from "./body_limits.ts";
 * if (DEFAULT_BODY_MEMORY_BYTES !== 64 * 1024 * 1024) throw new Error();
 * ```
 */
export const DEFAULT_BODY_MEMORY_BYTES = 64 * 1024 * 1024;

/**
 * The most `bodyMemoryBytes` can be: 500 MiB, under the longest string
 * JavaScript holds (2^29 - 24 UTF-16 units), which a body is decoded into.
 *
 * @example
 * ```ts
 * import { MAX_BODY_MEMORY_BYTES } from "./body_limits.ts";
 * if (MAX_BODY_MEMORY_BYTES >= 2 ** 29 - 24) throw new Error();
 * ```
 */
export const MAX_BODY_MEMORY_BYTES = 500 * 1024 * 1024;
