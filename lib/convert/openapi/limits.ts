/**
 * The bounds of `convert openapi`: how many files a document's `$ref`s may
 * bring in and how many bytes they hold together, how long a chain of files or of `$ref` to `$ref` may be, and
 * how deep and large an example generated from a schema may grow, so a
 * recursive schema or a document made to explode ends, in time linear in
 * its size. docs/flow-format.md's Limits table lists each.
 *
 * @example
 * ```ts
 * import { MAX_EXAMPLE_DEPTH, MAX_OPENAPI_BYTES, MAX_OPENAPI_FILES } from "./limits.ts";
 * if (MAX_OPENAPI_FILES < 2 || MAX_EXAMPLE_DEPTH < 2 || MAX_OPENAPI_BYTES < 1) throw new Error();
 * ```
 *
 * @module
 */

/**
 * Most files one document may be made of, the document included. Real documents kept as a file
 * per operation and schema are thousands (DigitalOcean's public API: about 2,900).
 */
export const MAX_OPENAPI_FILES = 10_000;

/** Most bytes all the files of one document may hold together (each is also under its own cap). */
export const MAX_OPENAPI_BYTES = 128 * 1024 * 1024;

/** Most files in one chain of `$ref`s (the document, a file it names, a file that one names, …). */
export const MAX_FILE_CHAIN = 16;

/** Most `$ref`s followed one after another before a value is reached. */
export const MAX_REF_CHAIN = 32;

/** Deepest level of an example generated from a schema: a recursive schema stops here. */
export const MAX_EXAMPLE_DEPTH = 8;

/**
 * Most `allOf` parts inside parts merged into one object (a part naming itself is read once; this
 * bounds the stack for a chain of distinct parts, 10,000 long in a hostile document).
 */
export const MAX_ALLOF_NESTING = 256;

/** Most values in one generated example: a schema whose examples would explode stops here. */
export const MAX_EXAMPLE_NODES = 2_000;
