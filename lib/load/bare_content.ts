/**
 * A `content` map holding `schema` where a media type belongs
 * (`content: {schema: …}`) is a Media Type Object whose media type was left
 * out: code copied from an early LoopBack 4 tutorial answers a sign-up so
 * (`content: {schema: getJsonSchemaRef(User)}`), and a blog API's sign-up
 * answer, read as naming no JSON, gave no account `id`: two of its paths
 * became placeholders. Such a map is read under the one media type the
 * document's other maps of the same side name (its answers', or its
 * request bodies'): the document's own evidence of what it sends and
 * answers, `application/json` there. A document naming several, or none,
 * leaves it as it is, and so does a map naming a media type beside it.
 * Read so both where `convert openapi` reads the document and where an
 * `openapi:` check compiles it.
 *
 * @module
 */
type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => typeof v === "object" && v !== null && !Array.isArray(v);

// A Media Type Object's own members.
const MEDIA_KEYS = new Set(["schema", "example", "examples", "encoding"]);

// Keys under which a member named `content` is no content map: a schema's
// properties, or data.
const NOT_CONTENT = new Set(["properties", "example", "examples", "default", "enum", "const"]);

// Keys above a content map that describes what is sent, not answered.
const REQUEST_SIDE = new Set(["requestBody", "requestBodies", "parameters"]);

/** A content map found in the document, and whether it describes a request body. */
interface Found {
  map: Node;
  request: boolean;
}

/** Every content map of `document`, with the side (request or answer) it describes. */
function contentMaps(document: unknown): Found[] {
  const found: Found[] = [];
  const stack: [unknown, string[]][] = [[document, []]];
  while (stack.length > 0) {
    const [node, where] = stack.pop()!;
    if (Array.isArray(node)) node.forEach((v, i) => stack.push([v, [...where, String(i)]]));
    if (!isNode(node)) continue;
    for (const [key, value] of Object.entries(node)) {
      if (NOT_CONTENT.has(key)) continue;
      if (key === "content" && isNode(value)) {
        const request = where.some((k) => REQUEST_SIDE.has(k));
        found.push({ map: value, request });
      }
      stack.push([value, [...where, key]]);
    }
  }
  return found;
}

/** Whether `map` is a Media Type Object's members with no media type around them. */
function isBare(map: Node): boolean {
  const keys = Object.keys(map);
  return isNode(map.schema) && keys.every((key) => MEDIA_KEYS.has(key));
}

/** The one media type the named maps of a side use, if they agree on one. */
function onlyType(maps: readonly Found[], request: boolean): string | undefined {
  const types = new Set<string>();
  for (const found of maps) {
    if (found.request !== request || isBare(found.map)) continue;
    for (const key of Object.keys(found.map)) if (key.includes("/")) types.add(key);
  }
  return types.size === 1 ? [...types][0] : undefined;
}

/**
 * Moves (in place) each bare content map's members under the one media
 * type the document's other content maps of the same side name.
 *
 * @example
 * ```ts
 * import { nameBareContent } from "./bare_content.ts";
 * const bare = { schema: { type: "object" } };
 * const doc = { paths: { "/a": {
 *   post: { responses: { "200": { description: "made", content: bare } } },
 *   get: { responses: { "200": { description: "one", content: { "application/json": { schema: {} } } } } },
 * } } };
 * nameBareContent(doc);
 * if (Object.keys(doc.paths["/a"].post.responses["200"].content).join() !== "application/json") {
 *   throw new Error();
 * }
 * ```
 */
export function nameBareContent(document: unknown): void {
  const maps = contentMaps(document);
  const types = { request: onlyType(maps, true), answer: onlyType(maps, false) };
  for (const { map, request } of maps) {
    const type = request ? types.request : types.answer;
    if (type === undefined || !isBare(map)) continue;
    const media = { ...map };
    for (const key of Object.keys(map)) delete map[key];
    map[type] = media;
  }
}
