/**
 * The conversion's own model, shared by its stages: steps as they are built
 * (request templates, captures, checks, loops), where captured values come
 * from, and small helpers over recorded JSON and URLs.
 *
 * @module
 */
import type { HarRecord } from "./har_model.ts";
import type { UniqueNames } from "./names.ts";
import type { YNode, YScalar } from "./yaml_out.ts";

/**
 * A path into a JSON body: object keys, array indexes, and filters that pick
 * a list element by a field that tells it apart (`[?@.name == 'Ruby']`).
 */
export type JsonPath = (string | number | { key: string; value: string })[];

/** Where a captured value comes from: the JSON body, a cookie the response set, a header, … */
export type Source =
  | { kind: "json"; path: JsonPath }
  | { kind: "cookie"; name: string }
  | { kind: "header"; name: string; query?: string }
  | { kind: "regex"; name: string; pattern: string };

export interface Producer {
  step: Step;
  source: Source;
  secret: boolean;
}

export interface Check {
  path: JsonPath;
  op: "type" | "equals";
  value: YScalar;
}

export interface Step {
  name: string;
  records: HarRecord[];
  /** The record whose request is sent. */
  first: HarRecord;
  /** The record whose response is asserted on (the last poll). */
  last: HarRecord;
  noun: string;
  method: string;
  url: string;
  headers: [string, string][];
  body?: YNode;
  /** A urlencoded body as `form:` fields (then `body` is unset). */
  form?: YNode;
  /** A `multipart:` body: field → template, file → `{file, content_type?, filename?}`. */
  multipart?: YNode;
  /** Template values of the request body's top-level fields, for `equals`. */
  sent: Map<string, { raw: unknown; template: YNode }>;
  captures: [string, Source][];
  captureNames: UniqueNames;
  captureByPath: Map<string, string>;
  uses: Set<string>;
  checks: Check[];
  loop?: { maxAttempts: number; sleepMs: number; path: JsonPath; value: YScalar; values: string[] };
  /** Comment lines written over the step after its recorded request (`--verify`'s findings). */
  remarks?: string[];
}

export interface EnvVar {
  about: string;
  fallback?: string;
}

/**
 * Deepest nesting of recorded JSON the conversion reads (objects and arrays):
 * far past real API bodies, and every stage that reads a body recurses once
 * per level. A deeper body is kept as recorded text and not read for values.
 *
 * @example
 * ```ts
 * import { MAX_WALK_DEPTH } from "./model.ts";
 * if (MAX_WALK_DEPTH !== 64) throw new Error();
 * ```
 */
export const MAX_WALK_DEPTH = 64;

/** A recorded JSON body that nests deeper than {@linkcode MAX_WALK_DEPTH}. */
export class TooDeepJson extends SyntaxError {
  readonly code = "too-deep";
  constructor() {
    super(`the JSON nests deeper than ${MAX_WALK_DEPTH} levels`);
  }
}

/**
 * `JSON.parse(text)` for a recorded body, throwing {@linkcode TooDeepJson}
 * when the value nests deeper than {@linkcode MAX_WALK_DEPTH}: callers that
 * fall back to the text for JSON that does not parse keep a deep body as
 * text too. The depth is measured without recursion.
 *
 * @example
 * ```ts
 * import { parseBody, TooDeepJson } from "./model.ts";
 * if (parseBody('{"a":[1]}').a[0] !== 1) throw new Error();
 * let deep = false;
 * try {
 *   parseBody("[".repeat(5000) + "]".repeat(5000));
 * } catch (error) {
 *   deep = error instanceof TooDeepJson;
 * }
 * if (!deep) throw new Error();
 * ```
 */
// deno-lint-ignore no-explicit-any
export function parseBody(text: string): any {
  const value = JSON.parse(text);
  if (depthPast(value, MAX_WALK_DEPTH)) throw new TooDeepJson();
  return value;
}

/** Whether `value` nests objects or arrays more than `limit` deep. */
function depthPast(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (depth >= limit) return true;
    for (const item of Array.isArray(v) ? v : Object.values(v)) stack.push([item, depth + 1]);
  }
  return false;
}

/**
 * Walks JSON leaves with their paths; stops after `limit` leaves (huge
 * bodies) and does not go below {@linkcode MAX_WALK_DEPTH} levels.
 */
export function walk(
  value: unknown,
  visit: (path: JsonPath, key: string, leaf: unknown) => void,
  limit = 5000,
): void {
  let count = 0;
  const go = (v: unknown, path: JsonPath, key: string) => {
    if (count >= limit || path.length > MAX_WALK_DEPTH) return;
    if (Array.isArray(v)) v.forEach((item, i) => go(item, [...path, i], key));
    else if (typeof v === "object" && v !== null) {
      for (const [k, item] of Object.entries(v)) go(item, [...path, k], k);
    } else {
      count++;
      visit(path, key, v);
    }
  };
  go(value, [], "");
}

export const valueKey = (v: unknown) => `${typeof v}:${String(v)}`;

export function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll("+", " "));
  } catch {
    return text;
  }
}
