/**
 * A body member named for its noun alone and typed a plain `number`
 * (`project` of a task, what `@nestjs/swagger` writes for a TypeScript
 * `number`) is an id only where the noun's create answers its id in that
 * type too: the document types the project's `id` a `number`, and so the
 * task's `project` names one (id_noun.ts says which members ask this).
 * A `rating: number` beside a create of ratings answering a text id names none.
 *
 * @module
 */
import { isNode } from "../../check/openapi_operations.ts";
import type { OpenApiOperation } from "./operations.ts";
import { jsonSchema, successes } from "./responses.ts";
import { properties } from "./schema_properties.ts";

/** The type the first success answer of `producer` that holds `path` documents there. */
function memberType(doc: unknown, producer: OpenApiOperation, path: string[]): unknown {
  for (const response of successes(doc, producer.node).responses) {
    let at: unknown = jsonSchema(doc, response);
    for (const name of path) at = properties(doc, at).find(([n]) => n === name)?.[1];
    if (isNode(at)) return at.type;
  }
  return undefined;
}

/**
 * `path`, the place of the id in `producer`'s answer, unless the candidate
 * asks for an id of a type (`idType`) the answer documents otherwise there.
 *
 * @example
 * ```ts
 * import { typedPath } from "./typed_id.ts";
 * const answer = (type: string) => ({
 *   content: { "application/json": { schema: { properties: { id: { type } } } } },
 * });
 * const create = (type: string) => ({ node: { responses: { "200": answer(type) } } }) as never;
 * if (typedPath({}, create("number"), ["id"], { idType: "number" })?.join() !== "id") throw new Error();
 * if (typedPath({}, create("string"), ["id"], { idType: "number" }) !== undefined) throw new Error();
 * if (typedPath({}, create("string"), ["id"], {})?.join() !== "id") throw new Error();
 * ```
 */
export function typedPath(
  doc: unknown,
  producer: OpenApiOperation,
  path: string[] | undefined,
  candidate: { idType?: string },
): string[] | undefined {
  if (!path || !candidate.idType) return path;
  return memberType(doc, producer, path) === candidate.idType ? path : undefined;
}
