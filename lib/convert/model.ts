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

/** Where a captured value comes from: the JSON body, or a cookie the response set. */
export type Source =
  | { kind: "json"; path: JsonPath }
  | { kind: "cookie"; name: string }
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
  /** Template values of the request body's top-level fields, for `equals`. */
  sent: Map<string, { raw: unknown; template: YNode }>;
  captures: [string, Source][];
  captureNames: UniqueNames;
  captureByPath: Map<string, string>;
  uses: Set<string>;
  checks: Check[];
  loop?: { maxAttempts: number; sleepMs: number; path: JsonPath; value: YScalar; values: string[] };
}

export interface EnvVar {
  about: string;
  fallback?: string;
}

/** Walks JSON leaves with their paths; stops after `limit` leaves (huge bodies). */
export function walk(
  value: unknown,
  visit: (path: JsonPath, key: string, leaf: unknown) => void,
  limit = 5000,
): void {
  let count = 0;
  const go = (v: unknown, path: JsonPath, key: string) => {
    if (count >= limit) return;
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
