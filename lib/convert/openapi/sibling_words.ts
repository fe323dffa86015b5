/**
 * The values a document's own paths give a path parameter: the words other
 * paths put at its place, under the same literal prefix
 * (`/resources/{resourceType}/_providers` beside `/resources/routes` and
 * `/resources/waypoints/{id}`: `routes`, `waypoints`). A server routes
 * those words to the parameter's place, so each names a thing of its kind
 * (Signal K's resources API). Two words at least, so they are a family of
 * values: one alone (`/users/me` beside `/users/{id}`) is another resource.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { patternRegExp, tameTest } from "./pattern.ts";

/** The template of the document's path item that holds the operation `op`. */
function templateOf(doc: unknown, op: Node): string | undefined {
  const paths = isNode(doc) && isNode(doc.paths) ? doc.paths : {};
  return Object.keys(paths).find((template) => {
    const item = paths[template];
    return isNode(item) && Object.values(item).includes(op);
  });
}

/**
 * The first word other paths of `doc` put at the place of `param` in the
 * path of `op` (an operation node of `doc`), when they put two or more.
 *
 * @example
 * ```ts
 * import { siblingWord } from "./sibling_words.ts";
 * const op = { responses: {} };
 * const doc = { paths: {
 *   "/resources/routes": {}, "/resources/waypoints/{id}": {}, "/resources/{type}/_providers": { get: op },
 * } };
 * if (siblingWord(doc, op, "type") !== "routes") throw new Error();
 * if (siblingWord(doc, op, "other") !== undefined) throw new Error();
 * ```
 */
export function siblingWord(doc: unknown, op: Node | undefined, param: string): string | undefined {
  const template = op && templateOf(doc, op);
  if (!template || !isNode(doc) || !isNode(doc.paths)) return undefined;
  const segments = template.split("/");
  const at = segments.indexOf(`{${param}}`);
  if (at < 0 || segments.slice(0, at).some((s) => s.includes("{"))) return undefined;
  const words: string[] = [];
  for (const other of Object.keys(doc.paths)) {
    const parts = other.split("/");
    const word = parts[at];
    if (parts.length <= at || !word || word.includes("{") || words.includes(word)) continue;
    if (segments.slice(0, at).every((s, i) => parts[i] === s)) words.push(word);
  }
  return words.length >= 2 ? words[0] : undefined;
}

/** Whether a text schema (or one of no type) takes `word`: its pattern, when it has one, matches. */
function fitsText(schema: unknown, word: string): boolean {
  if (!isNode(schema)) return true;
  if (schema.type !== undefined && schema.type !== "string") return false;
  if (typeof schema.pattern !== "string") return true;
  // The document's pattern, tried as the checks try it, under the time limit.
  const re = patternRegExp(schema.pattern);
  return re !== undefined && tameTest(re, schema.pattern, word) === true;
}

/**
 * The {@linkcode siblingWord} of the path parameter `p` of `op`, when its
 * `schema` (undefined: the document gives a value) takes it.
 *
 * @example
 * ```ts
 * import { placeWord } from "./sibling_words.ts";
 * const op = { responses: {} };
 * const doc = { paths: { "/r/a": {}, "/r/b": {}, "/r/{t}/x": { get: op } } };
 * const p = { name: "t", in: "path" };
 * if (placeWord(doc, op, p, { type: "string" }) !== "a") throw new Error();
 * if (placeWord(doc, op, p, { type: "integer" }) !== undefined) throw new Error();
 * ```
 */
export function placeWord(
  doc: unknown,
  op: Node | undefined,
  p: Node,
  schema: unknown,
): string | undefined {
  if (schema === undefined || p.in !== "path") return undefined;
  const word = siblingWord(doc, op, String(p.name));
  return word !== undefined && fitsText(schema, word) ? word : undefined;
}
