/**
 * The I/O stage under its old name, while importers move to `./mod.ts`.
 *
 * @module
 */
export * from "./mod.ts";
