/**
 * A `default` answer the document writes word for word for every operation
 * that documents no 2xx is a generator's stand-in, not a statement of what
 * any one of them answers: `hapi-swagger` writes `default: {schema: {type:
 * string}, description: "Successful"}` for each route that declares no
 * response schema, and a hotel booking API's routes answer objects (a
 * created room type, a listing `{results, totalItems}`) under it. Such an
 * answer is undescribed: a create's id is searched for in it
 * (`undescribed_answer.ts`), and no read is taken for one answering a text
 * (`parent_text.ts`), which had put a whole listing in an item's path.
 *
 * @module
 */
import { isNode, type Node, OPENAPI_METHODS } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";

/** The operation's `default` answer as text, when it documents no 2xx; else undefined. */
function onlyDefault(doc: unknown, op: Node): string | undefined {
  const responses = isNode(op.responses) ? op.responses : {};
  if (Object.keys(responses).some((k) => /^2(\d\d|xx)$/i.test(k))) return undefined;
  const answer = deref(doc, responses.default);
  return isNode(answer) ? JSON.stringify(answer) : undefined;
}

/** Every operation of the document, as its node. */
function operationNodes(doc: unknown): Node[] {
  const paths = isNode(doc) && isNode(doc.paths) ? doc.paths : {};
  return Object.values(paths).filter(isNode).flatMap((item) =>
    OPENAPI_METHODS.map((m) => item[m]).filter(isNode)
  );
}

/**
 * Whether `op` documents no 2xx and its `default` answer is the one every
 * operation documenting no 2xx writes alike, two at least (see the module doc).
 *
 * @example
 * ```ts
 * import { blanketDefault } from "./blanket_default.ts";
 * const stub = { default: { description: "Successful", schema: { type: "string" } } };
 * const doc = { paths: { "/a": { post: { responses: stub } }, "/a/{id}": { get: { responses: stub } } } };
 * if (!blanketDefault(doc, doc.paths["/a"].post)) throw new Error();
 * const one = { paths: { "/a": { post: { responses: stub } } } };
 * if (blanketDefault(one, one.paths["/a"].post)) throw new Error();
 * ```
 */
export function blanketDefault(doc: unknown, op: Node): boolean {
  const own = onlyDefault(doc, op);
  if (own === undefined) return false;
  const others = operationNodes(doc).filter((n) => onlyDefault(doc, n) !== undefined);
  return others.length >= 2 && others.every((n) => onlyDefault(doc, n) === own);
}
