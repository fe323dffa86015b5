/**
 * What makes a schema unusable although the validator compiles it: nesting
 * too deep, or a reference to itself that never descends into the value.
 * Found at load time, without recursion, before anything is sent.
 *
 * @module
 */
import type { SchemaCheck } from "../model/flow.ts";
import { thousands } from "../_util/thousands.ts";

/**
 * Deepest nesting a schema check reads, in a JSON body and in a schema
 * itself: 1,000 levels. The validator recurses once or more per level, so a
 * body nested 10,000 deep against a recursive schema (a tree) exhausted the
 * stack.
 *
 * @example
 * ```ts
 * import { MAX_SCHEMA_DEPTH } from "./schema_problem.ts";
 * if (MAX_SCHEMA_DEPTH !== 1000) throw new Error();
 * ```
 */
export const MAX_SCHEMA_DEPTH = 1000;

/** Keywords whose subschemas apply to the same value: a cycle through them never ends. */
const IN_PLACE = ["allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas"];
/** Keywords whose subschemas apply to parts of the value (or are only definitions). */
const DESCENDING = [
  "properties",
  "patternProperties",
  "additionalProperties",
  "items",
  "prefixItems",
  "additionalItems",
  "contains",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
  "$defs",
  "definitions",
];
const REFERENCES = ["$ref", "$dynamicRef", "$recursiveRef"];
const MAPS = new Set([
  "properties",
  "patternProperties",
  "dependentSchemas",
  "$defs",
  "definitions",
]);
const ROOT = "file:///flowrun/schema.json";

type Node = Record<string, unknown>;

/** Every schema object of a document: where it is, the resources and anchors it names. */
interface SchemaIndex {
  readonly where: Map<Node, { pointer: string; base: string }>;
  readonly ids: Map<string, Node>;
  readonly anchors: Map<string, Node>;
  /** The schemas a check may start from, in the order met. */
  readonly roots: Node[];
}

/** One node waiting to be indexed: the node, its pointer, its parent's base, depth and key. */
type Pending = [unknown, string, string, number, string | undefined];

/**
 * Why a schema, or an OpenAPI document's schemas, cannot be used although
 * the validator compiles them: nesting deeper than
 * {@linkcode MAX_SCHEMA_DEPTH}, or a schema that refers to itself without
 * descending into the value (`{"$ref": "#"}`, a `$ref` cycle through
 * `allOf`), which recurses until the stack runs out on any value. A
 * recursive schema that descends (a tree whose `child` property is the node
 * again) is fine. Found without recursion.
 *
 * @example
 * ```ts
 * import { schemaProblem } from "./schema_problem.ts";
 * if (schemaProblem({ type: "object" }, "schema") !== undefined) throw new Error();
 * const loop = schemaProblem({ allOf: [{ $ref: "#" }] }, "schema");
 * if (!loop?.includes("refers to itself")) throw new Error(loop);
 * ```
 */
export function schemaProblem(document: unknown, kind: SchemaCheck["kind"]): string | undefined {
  const index = indexSchema(document, kind);
  if (typeof index === "string") return index;
  const cycle = findCycle(inPlaceGraph(index));
  if (!cycle) return undefined;
  const path = cycle.map((n) => index.where.get(n)?.pointer ?? "?").join(" → ");
  return `the schema at ${path} refers to itself without descending into the value, so ` +
    "checking any value would never end; make the reference go through a property or an item";
}

/** The document's index, or why it nests too deeply. */
function indexSchema(document: unknown, kind: SchemaCheck["kind"]): SchemaIndex | string {
  const index: SchemaIndex = { where: new Map(), ids: new Map(), anchors: new Map(), roots: [] };
  const stack: Pending[] = [[document, "#", ROOT, 0, undefined]];
  if (isNode(document)) index.ids.set(ROOT, document);
  while (stack.length > 0) {
    const [node, pointer, parentBase, depth, key] = stack.pop()!;
    if (node === null || typeof node !== "object") continue;
    if (depth >= MAX_SCHEMA_DEPTH) {
      return `it nests deeper than ${thousands(MAX_SCHEMA_DEPTH)} levels`;
    }
    const base = Array.isArray(node)
      ? parentBase
      : indexNode(index, node as Node, pointer, parentBase, kind === "openapi" && key === "schema");
    for (const [k, v] of Object.entries(node)) {
      // An OpenAPI document's examples are values, not schemas.
      if (kind === "openapi" && (k === "example" || k === "examples")) continue;
      const segment = k.replaceAll("~", "~0").replaceAll("/", "~1");
      stack.push([v, `${pointer}/${segment}`, base, depth + 1, k]);
    }
  }
  addRoots(index, document, kind);
  return index;
}

/** The roots met after the walk: a schema itself, an OpenAPI document's component schemas. */
function addRoots(index: SchemaIndex, document: unknown, kind: SchemaCheck["kind"]): void {
  if (kind === "schema" && isNode(document)) index.roots.push(document);
  const schemas = (document as Node | undefined)?.components as Node | undefined;
  if (kind === "openapi" && isNode(schemas?.schemas)) {
    for (const s of Object.values(schemas.schemas)) if (isNode(s)) index.roots.push(s);
  }
}

/** Records one schema object (its `$id`, anchors and place); the base its members resolve against. */
function indexNode(
  index: SchemaIndex,
  n: Node,
  pointer: string,
  parentBase: string,
  root: boolean,
): string {
  let base = parentBase;
  if (typeof n.$id === "string") {
    try {
      const url = new URL(n.$id, parentBase);
      url.hash = "";
      base = url.href;
      index.ids.set(base, n);
    } catch { /* an $id that is no URL: ajv reports it */ }
  }
  for (const anchor of [n.$anchor, n.$dynamicAnchor]) {
    if (typeof anchor === "string") index.anchors.set(`${base}#${anchor}`, n);
  }
  index.where.set(n, { pointer, base });
  if (root) index.roots.push(n);
  return base;
}

/** The schema a reference in `from` names, if the document holds it. */
function resolveRef(index: SchemaIndex, ref: string, from: Node): Node | undefined {
  let url: URL;
  try {
    url = new URL(ref, index.where.get(from)?.base ?? ROOT);
  } catch {
    return undefined;
  }
  const fragment = decodeURIComponent(url.hash.slice(1));
  url.hash = "";
  const resource = index.ids.get(url.href);
  if (!resource || fragment === "") return resource;
  if (!fragment.startsWith("/")) return index.anchors.get(`${url.href}#${fragment}`);
  let node: unknown = resource;
  for (const part of fragment.slice(1).split("/")) {
    const name = part.replaceAll("~1", "/").replaceAll("~0", "~");
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, name)) return undefined;
    node = (node as Node)[name];
  }
  return isNode(node) ? node : undefined;
}

/** Every schema reachable from the roots, with the schemas each applies to the same value. */
function inPlaceGraph(index: SchemaIndex): Map<Node, Node[]> {
  const inPlace = new Map<Node, Node[]>();
  const queue = [...index.roots];
  while (queue.length > 0) {
    const schema = queue.pop()!;
    if (inPlace.has(schema)) continue;
    const same: Node[] = [];
    inPlace.set(schema, same);
    for (const keyword of REFERENCES) {
      const ref = schema[keyword];
      const target = typeof ref === "string" ? resolveRef(index, ref, schema) : undefined;
      if (target) same.push(target);
    }
    for (const keyword of IN_PLACE) same.push(...subschemas(schema[keyword], MAPS.has(keyword)));
    queue.push(...same);
    for (const keyword of DESCENDING) queue.push(...subschemas(schema[keyword], MAPS.has(keyword)));
  }
  return inPlace;
}

function isNode(value: unknown): value is Node {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The schemas a keyword holds: one, a list, or a map of them (`properties`). */
function subschemas(value: unknown, map: boolean): Node[] {
  if (Array.isArray(value)) return value.filter(isNode);
  if (!isNode(value)) return [];
  return map ? Object.values(value).filter(isNode) : [value];
}

/** A cycle in the graph (its nodes, the first repeated at the end), found depth first without recursion. */
function findCycle(edges: Map<Node, Node[]>): Node[] | undefined {
  const state = new Map<Node, 1 | 2>(); // 1 on the current path, 2 done
  for (const start of edges.keys()) {
    if (state.has(start)) continue;
    const path: Node[] = [start];
    const next: number[] = [0];
    state.set(start, 1);
    while (path.length > 0) {
      const node = path[path.length - 1];
      const out = edges.get(node) ?? [];
      const i = next[next.length - 1]++;
      if (i >= out.length) {
        state.set(node, 2);
        path.pop();
        next.pop();
        continue;
      }
      const to = out[i];
      if (state.get(to) === 1) return [...path.slice(path.indexOf(to)), to];
      if (!state.has(to)) {
        state.set(to, 1);
        path.push(to);
        next.push(0);
      }
    }
  }
  return undefined;
}
