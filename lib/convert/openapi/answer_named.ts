/**
 * An id whose noun no path spells, read from the create whose answer is named
 * for it: a lending API makes a loan at `POST /borrow` (answering the schema
 * `Borrowing`) and ends it at `POST /return/{borrowing_id}`; no collection is
 * named for borrowings, so no other rule read `{borrowing_id}` and the summary
 * asked for a placeholder, which the server refused 404. The answer's schema
 * names what the POST makes (its component's name, else its `title`): the
 * one POST whose success answer is named for the parameter's noun (`borrowing`
 * of `borrowing_id`) is its producer, read at its member of the parameter's
 * name, else its `id`. A POST taking the parameter itself (the return, which
 * answers a `Borrowing` too) makes none; two that answer it leave it unread.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import type { ParamLink } from "./document_links.ts";
import type { OpenApiOperation } from "./operations.ts";
import { propertyPaths, responseSchemas } from "./response_paths.ts";
import { plainName } from "./required_props.ts";
import { deref } from "./examples.ts";

/**
 * The link of `{param}` of `op` from the one POST whose answer's schema is named for the
 * parameter's noun, if there is one.
 *
 * @example
 * ```ts
 * import { answerNamedLink } from "./answer_named.ts";
 * import { operationsOf } from "./operations.ts";
 * const loan = { $ref: "#/components/schemas/Loan" };
 * const ok = { "200": { content: { "application/json": { schema: loan } } } };
 * const doc = {
 *   paths: {
 *     "/lend": { post: { responses: ok } },
 *     "/give-back/{loan_id}": { post: { responses: ok } },
 *   },
 *   components: { schemas: { Loan: { type: "object", properties: { id: { type: "integer" } } } } },
 * };
 * const ops = operationsOf(doc);
 * const link = answerNamedLink(doc, ops, ops[1], "loan_id");
 * if (link?.producer !== ops[0] || link.path.join() !== "id") throw new Error();
 * if (answerNamedLink(doc, ops, ops[1], "loan")) throw new Error();
 * ```
 */
export function answerNamedLink(
  doc: Node,
  ops: readonly OpenApiOperation[],
  op: OpenApiOperation,
  param: string,
): ParamLink | undefined {
  const plain = plainName(param);
  if (plain === "id" || !plain.endsWith("id")) return undefined;
  const noun = plain.slice(0, -2);
  const makers = ops.filter((o) =>
    o !== op && o.method === "POST" && !o.template.includes(`{${param}}`) &&
    responseSchemas(doc, o).some((s) => schemaNames(doc, s).includes(noun))
  );
  if (makers.length !== 1) return undefined;
  const props = propertyPaths(doc, makers[0]);
  const path = props.get(plain) ?? props.get("id");
  return path ? { param, producer: makers[0], path, from: "property" } : undefined;
}

/** The plain names a schema goes by: its component's name (the one it is), its `title`. */
function schemaNames(doc: Node, schema: unknown): string[] {
  if (!isNode(schema)) return [];
  const names = typeof schema.title === "string" ? [plainName(schema.title)] : [];
  const components = isNode(doc.components) && isNode(doc.components.schemas)
    ? doc.components.schemas
    : {};
  for (const [name, s] of Object.entries(components)) {
    if (deref(doc, s) === schema) names.push(plainName(name));
  }
  return names;
}
