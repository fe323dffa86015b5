/**
 * The bounds `flowrun convert postman` works within, so a huge or hostile
 * collection fails with one sentence instead of running out of memory or
 * time (docs/flow-format.md, "Limits", lists each).
 *
 * @module
 */

/**
 * The largest collection or environment file read: 64 MiB.
 *
 * @example
 * ```ts
 * import { MAX_POSTMAN_BYTES } from "./limits.ts";
 * if (MAX_POSTMAN_BYTES !== 64 * 1024 * 1024) throw new Error();
 * ```
 */
export const MAX_POSTMAN_BYTES = 64 * 1024 * 1024;

/**
 * The deepest folder nesting read: 32 levels (Postman's own UI makes a
 * handful; deeper is a generated file the walk must not recurse through).
 *
 * @example
 * ```ts
 * import { MAX_FOLDER_DEPTH } from "./limits.ts";
 * if (MAX_FOLDER_DEPTH !== 32) throw new Error();
 * ```
 */
export const MAX_FOLDER_DEPTH = 32;

/**
 * The largest script translated: 64 KiB of source. A longer one is kept
 * whole as an untranslated comment, so the parser never sees it.
 *
 * @example
 * ```ts
 * import { MAX_SCRIPT_CHARS } from "./limits.ts";
 * if (MAX_SCRIPT_CHARS !== 65536) throw new Error();
 * ```
 */
export const MAX_SCRIPT_CHARS = 64 * 1024;

/**
 * How deep the translator follows nested statements and expressions: 64
 * levels; deeper code is left untranslated rather than risking the stack.
 *
 * @example
 * ```ts
 * import { MAX_SCRIPT_DEPTH } from "./limits.ts";
 * if (MAX_SCRIPT_DEPTH !== 64) throw new Error();
 * ```
 */
export const MAX_SCRIPT_DEPTH = 64;
