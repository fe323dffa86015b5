/**
 * The properties of a JSON schema as the producers read them: through
 * `$ref`, `allOf` and the first `oneOf`/`anyOf` branch, not into arrays.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";

/** How deep a response is searched for a property: a wrapper object and its member. */
export const MAX_PROPERTY_DEPTH = 2;

/**
 * The shallowest property of a JSON schema (through `$ref`, `allOf` and the
 * first `oneOf`/`anyOf` branch, not into arrays) whose name `wanted` accepts,
 * as its path.
 *
 * @example
 * ```ts
 * import { findProperty } from "./schema_properties.ts";
 * const schema = { properties: { article: { properties: { slug: { type: "string" } } } } };
 * if (findProperty({}, schema, (n) => n === "slug")?.join(".") !== "article.slug") throw new Error();
 * if (findProperty({}, { type: "array", items: schema }, (n) => n === "slug") !== undefined) throw new Error();
 * ```
 */
export function findProperty(
  doc: unknown,
  schema: unknown,
  wanted: (name: string, schema: Node) => boolean,
  depth = MAX_PROPERTY_DEPTH,
  visit?: (path: string[]) => void,
): string[] | undefined {
  let level: [string[], unknown][] = [[[], schema]];
  for (let d = 0; d < depth && level.length > 0; d++) {
    const next: [string[], unknown][] = [];
    for (const [path, node] of level) {
      for (const [name, prop] of properties(doc, node)) {
        if (wanted(name, prop)) return [...path, name];
        visit?.([...path, name]);
        next.push([[...path, name], prop]);
      }
    }
    level = next;
  }
  return undefined;
}

/**
 * The properties of an object schema, its `allOf` parts' and first `oneOf`/`anyOf` branch's.
 *
 * @example
 * ```ts
 * import { properties } from "./schema_properties.ts";
 * const schema = { allOf: [{ properties: { id: {} } }], properties: { name: {} } };
 * if (properties({}, schema).map(([n]) => n).join() !== "name,id") throw new Error();
 * ```
 */
export function properties(doc: unknown, schema: unknown, seen = 0): [string, Node][] {
  const s = deref(doc, schema);
  if (!isNode(s) || seen > 8) return [];
  const out: [string, Node][] = [];
  if (isNode(s.properties)) {
    for (const [name, p] of Object.entries(s.properties)) {
      const prop = deref(doc, p);
      if (isNode(prop)) out.push([name, prop]);
    }
  }
  const parts = [
    ...(Array.isArray(s.allOf) ? s.allOf : []),
    ...[s.oneOf, s.anyOf].filter(Array.isArray).map((list) => list[0]),
  ];
  for (const part of parts) out.push(...properties(doc, part, seen + 1));
  return out;
}

/**
 * The properties of an object schema a request sends: not a `readOnly` one, which OpenAPI gives
 * to the answer only, its `required` too. drf-spectacular's one schema for both showed a task's
 * read-only list of its comments (each naming the task) as required: read as comments a task
 * create needs, a cycle with the comment's `task`, which was sent `1` before any task was made.
 *
 * @example
 * ```ts
 * import { sentProperties } from "./schema_properties.ts";
 * const schema = { properties: { id: { readOnly: true }, title: {}, notes: { readOnly: true } } };
 * if (sentProperties({}, schema).map(([n]) => n).join() !== "title") throw new Error();
 * ```
 */
export function sentProperties(doc: unknown, schema: unknown): [string, Node][] {
  return properties(doc, schema).filter(([, p]) => p.readOnly !== true);
}

/** How deep `allOf` is followed for the names a schema requires. */
const MAX_ALLOF_DEPTH = 8;

/**
 * The names `schema` requires at its top, through `allOf`, as written.
 *
 * @example
 * ```ts
 * import { requiredNames } from "./schema_properties.ts";
 * const schema = { required: ["a"], allOf: [{ required: ["b"] }] };
 * if ([...requiredNames({}, schema)].join() !== "a,b") throw new Error();
 * ```
 */
export function requiredNames(doc: unknown, schema: unknown, depth = 0): Set<string> {
  const s = deref(doc, schema);
  const found = new Set<string>();
  if (!isNode(s) || depth > MAX_ALLOF_DEPTH) return found;
  for (const name of Array.isArray(s.required) ? s.required : []) {
    if (typeof name === "string") found.add(name);
  }
  for (const part of Array.isArray(s.allOf) ? s.allOf : []) {
    for (const name of requiredNames(doc, part, depth + 1)) found.add(name);
  }
  return found;
}
