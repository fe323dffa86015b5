/**
 * The syntax tree's node, as acorn gives it (ESTree): its own module so that a rewrite of the
 * tree parse.ts applies (early_return.ts) and the parser share it without importing each other.
 *
 * @module
 */

/** An ESTree node as acorn gives it; the translator reads the fields each node type has. */
// deno-lint-ignore no-explicit-any
export type Node = { type: string; start: number; end: number; [field: string]: any };
