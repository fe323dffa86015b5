/**
 * What a call under a noun's path answers, taken back by a sibling call
 * under the same path as a body property of that noun's name:
 * `POST /utils/hash/generate` answers the hash (`data`, its one text), and
 * `POST /utils/hash/verify {string, hash}` checks it; sent the sample, the
 * check fails (500 "Invalid hash"). The evidence is the paths' shape (the
 * property is the noun both calls sit under) and an answer of one text,
 * not the name of a verb.
 *
 * @module
 */
import { isNode } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import type { OpenApiOperation } from "./operations.ts";
import { plainName } from "./required_props.ts";
import { jsonSchema, successes } from "./responses.ts";
import { properties } from "./schema_properties.ts";

/**
 * The last of `steps` that is a sibling of `op` under a path whose last
 * segment is `key`'s noun (`/utils/hash` for `hash`) and answers one text,
 * with that text's path in its answer.
 *
 * @example
 * ```ts
 * import { siblingHolder } from "./sibling_answer.ts";
 * import { operationsOf } from "./operations.ts";
 * const one = { "200": { content: { "application/json": { schema: {
 *   properties: { data: { type: "string" } } } } } } };
 * const [make, check] = operationsOf({ paths: {
 *   "/utils/hash/generate": { post: { responses: one } }, "/utils/hash/verify": { post: {} } } });
 * if (siblingHolder({}, check, [make], "hash")?.path.join() !== "data") throw new Error();
 * if (siblingHolder({}, check, [make], "string") !== undefined) throw new Error();
 * ```
 */
export function siblingHolder(
  doc: unknown,
  op: OpenApiOperation,
  steps: OpenApiOperation[],
  key: string,
): { op: OpenApiOperation; path: string[] } | undefined {
  const parent = (o: OpenApiOperation) => o.template.slice(0, o.template.lastIndexOf("/"));
  const noun = parent(op).split("/").at(-1) ?? "";
  if (noun.startsWith("{") || plainName(noun) !== plainName(key)) return undefined;
  for (const step of [...steps].reverse()) {
    if (step === op || parent(step) !== parent(op)) continue;
    const path = soleText(doc, step);
    if (path) return { op: step, path };
  }
  return undefined;
}

/** Where a 2xx JSON answer is one text: itself (`[]`), or its only property (`data`). */
function soleText(doc: unknown, op: OpenApiOperation): string[] | undefined {
  for (const response of successes(doc, op.node).responses) {
    const schema = jsonSchema(doc, response);
    if (isNode(schema) && schema.type === "string") return [];
    const props = properties(doc, schema);
    const only = props.length === 1 ? deref(doc, props[0][1]) : undefined;
    if (isNode(only) && only.type === "string") return [props[0][0]];
  }
  return undefined;
}
