/**
 * The compiled form of a flow's JSONPath expressions, as `compilePath` in
 * `expr/path.ts` makes them when a flow is loaded. Types only: the loaded
 * flow holds them, and compiling and evaluating live in `expr/`.
 *
 * @module
 */
// @ts-types="npm:json-p3@2.3.1"
import type { JSONPathQuery } from "json-p3";
import type { Template } from "./template.ts";

/** Which document `$` denotes. */
export type PathRoot = "response" | "body";

/** A compiled path. */
export interface CompiledPath {
  /** The path as written. */
  source: string;
  root: PathRoot;
  /** RFC 9535 singular query: selects at most one node, so it yields a value, not a list. */
  singular: boolean;
  /**
   * A plain member chain (`$.json.items[0].id`): the names and indices, in
   * order. Compiled and evaluated by `expr/path.ts` without json-p3.
   */
  chain?: readonly (string | number)[];
  /** Any other path, compiled by json-p3. */
  query?: JSONPathQuery;
  /**
   * The path has a filter (`[?…]`), whose cost the body sets (a `..` inside
   * one costs the square of its size, `match()` may backtrack): it is
   * evaluated on the helper thread, under the time limit of `matches`.
   */
  filtered?: boolean;
  /**
   * For a filtered path: how many filters, descendant segments and queries
   * it holds (each can multiply the work by the document's size), or
   * `Infinity` when it calls `match()` or `search()`, whose cost no size
   * bounds. See `cheapHere` in `expr/path.ts`.
   */
  weight?: number;
  /**
   * Set when the path holds `${…}` expressions (`[?@.name == 'Widget ${RUN_ID}']`):
   * they are resolved when the step runs, see `resolvePath` in `expr/path.ts`.
   */
  template?: Template;
}
