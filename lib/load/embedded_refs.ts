/**
 * A schema made on its own as JSON Schema and pasted into an OpenAPI
 * document keeps its `definitions` (or `$defs`) with it and names them
 * `#/definitions/User`: a pointer into itself. Read from the document's
 * root it points to nothing, and `convert openapi` left out every
 * operation that reached it (LoopBack 4's `getJsonSchemaRef(User)` answers
 * `{$ref: "#/definitions/User", definitions: {User: …}}`: a blog API's
 * sign-up and administrators' create were left out, and its summary asked
 * for an account "no operation registers"). Where the document's root
 * holds nothing at that pointer and a schema around the `$ref` holds the
 * definition it names, the `$ref` is rewritten to that schema's member,
 * the innermost first: evidence of where the definition is, not a guess by
 * name. A `$ref` the root answers stays the root's (Swagger 2.0's own
 * `definitions`), and one nothing holds stays, to be left out or refused.
 * Read so both where `convert openapi` reads the document and where an
 * `openapi:` check compiles it.
 *
 * @module
 */
type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => typeof v === "object" && v !== null && !Array.isArray(v);

// The JSON Schema keywords a schema keeps its own definitions under.
const HOLDERS = ["definitions", "$defs"];

// Values that are data, not schema: a "$ref" key inside them is no reference.
const DATA_KEYS = new Set(["example", "default", "enum", "const"]);

/** The member of `root` at the local pointer's segments, if there is one. */
function memberAt(root: unknown, segments: readonly string[]): unknown {
  let node = root;
  for (const segment of segments) {
    if (!isNode(node) || !Object.hasOwn(node, segment)) return undefined;
    node = node[segment];
  }
  return node;
}

/** A `$ref`'s segments (`#/definitions/User` → `["definitions", "User"]`) if it names a kept definition. */
function definitionSegments(ref: unknown): string[] | undefined {
  if (typeof ref !== "string" || !ref.startsWith("#/")) return undefined;
  let text = ref.slice(2);
  try {
    text = decodeURIComponent(text);
  } catch {
    // A malformed escape is read as written.
  }
  const segments = text.split("/").map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"));
  return segments.length >= 2 && HOLDERS.includes(segments[0]) ? segments : undefined;
}

const escaped = (segment: string) => segment.replaceAll("~", "~0").replaceAll("/", "~1");

/** A schema around the current node that keeps definitions, and where it is. */
interface Holder {
  node: Node;
  where: string[];
}

/** The rewritten `$ref` for `node`'s, when the root misses it and a holder (innermost first) has it. */
function rewritten(document: unknown, node: Node, holders: readonly Holder[]): string | undefined {
  const segments = definitionSegments(node.$ref);
  if (segments === undefined || memberAt(document, segments) !== undefined) return undefined;
  for (let i = holders.length - 1; i >= 0; i--) {
    if (memberAt(holders[i].node, segments) === undefined) continue;
    return `#/${[...holders[i].where, ...segments].map(escaped).join("/")}`;
  }
  return undefined;
}

/** Whether `node` (not the document's root) keeps definitions of its own. */
function keepsDefinitions(node: Node, where: readonly string[]): boolean {
  return where.length > 0 && HOLDERS.some((key) => isNode(node[key]));
}

/**
 * Rewrites (in place) each local `$ref` into a pasted schema's own
 * `definitions` or `$defs` that the document's root does not answer, to
 * the pointer of the schema around it that holds the definition.
 *
 * @example
 * ```ts
 * import { pointEmbeddedRefs } from "./embedded_refs.ts";
 * const schema = { $ref: "#/definitions/User", definitions: { User: { type: "object" } } };
 * const doc = { paths: { "/u": { get: { responses: { "200": { description: "ok",
 *   content: { "application/json": { schema } } } } } } } };
 * pointEmbeddedRefs(doc);
 * if (schema.$ref !== "#/paths/~1u/get/responses/200/content/application~1json/schema/definitions/User") {
 *   throw new Error(schema.$ref);
 * }
 * ```
 */
export function pointEmbeddedRefs(document: unknown): void {
  const stack: [unknown, string[], Holder[]][] = [[document, [], []]];
  while (stack.length > 0) {
    const [node, where, around] = stack.pop()!;
    if (Array.isArray(node)) {
      node.forEach((value, i) => stack.push([value, [...where, String(i)], around]));
      continue;
    }
    if (!isNode(node)) continue;
    const holders = keepsDefinitions(node, where) ? [...around, { node, where }] : around;
    const ref = rewritten(document, node, holders);
    if (ref !== undefined) node.$ref = ref;
    for (const [key, value] of Object.entries(node)) {
      if (!DATA_KEYS.has(key)) stack.push([value, [...where, key], holders]);
    }
  }
}
