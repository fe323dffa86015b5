/**
 * The collections whose items a document's paths address by a parameter
 * (`/projects/{projectId}` → `project`), as nouns: a request body's
 * property named for one (`project`, `projects`) names an item that must
 * exist, so a document's example of it is not sent unasked
 * (`ExampleMaker.withExamples`).
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";

/**
 * A name as a noun to compare: `projectId`, `projects` and `project` are `project`.
 *
 * @example
 * ```ts
 * import { plainNoun } from "./collection_nouns.ts";
 * if (plainNoun("projectId") !== "project" || plainNoun("projects") !== "project") throw new Error();
 * ```
 */
export function plainNoun(name: string): string {
  const plain = name.toLowerCase().replace(/[_-]/g, "");
  const bare = plain.length > 2 && plain.endsWith("id") ? plain.slice(0, -2) : plain;
  return bare.endsWith("s") ? bare.slice(0, -1) : bare;
}

/**
 * The collections of the document's paths whose items a parameter addresses, as nouns.
 *
 * @example
 * ```ts
 * import { collectionNouns } from "./collection_nouns.ts";
 * const nouns = collectionNouns({ paths: { "/projects/{projectId}/values": {} } });
 * if (!nouns.has("project") || nouns.has("value")) throw new Error();
 * ```
 */
export function collectionNouns(doc: unknown): Set<string> {
  // Read once per document: a maker is made per flow, and a document may have thousands.
  const known = isNode(doc) ? nounsOf.get(doc) : undefined;
  if (known) return known;
  const paths = isNode(doc) && isNode(doc.paths) ? Object.keys(doc.paths) : [];
  const out = new Set<string>();
  for (const path of paths) {
    const segments = path.split("/");
    segments.forEach((segment, i) => {
      if (!segment.startsWith("{") && segments[i + 1]?.startsWith("{")) out.add(plainNoun(segment));
    });
  }
  if (isNode(doc)) nounsOf.set(doc, out);
  return out;
}

/** Each document's collection nouns (see {@linkcode collectionNouns}). */
const nounsOf = new WeakMap<Node, Set<string>>();
