/**
 * A create whose answer the document describes without the id a body
 * property names: a course's Express library API describes `POST
 * /api/loans` as answering `{message, book: {id, …}}`, and its return,
 * `POST /api/returns`, requires a `loanId` the server answers beside them
 * (`{message, loanId, book}`) and the document leaves out. No described
 * member holds the loan's id (`book.id` is another noun's), so the body was
 * sent a literal `1`: the first loan of a fresh server, refused on a second
 * run. The create of the property's noun is where the value comes from: it
 * is read at run time from the first member named as the property itself
 * anywhere in that answer, never a bare `id` (the described ones are other
 * nouns'), and the step passes without it when the answer has none.
 *
 * Not for a create that answers nothing (204), one whose answer is a list,
 * one whose described answer names the member anywhere (the document says
 * where it is), a name the client gives in the create's own body (the
 * run's own), nor in an RPC-shaped document (body_links.ts reads it so only
 * in a REST one: a function adding items to another, journy.io's
 * `/accounts/users/add`, makes none).
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import type { ParamLink } from "./document_links.ts";
import type { OpenApiOperation } from "./operations.ts";
import { namedInBody } from "./body_names.ts";
import { jsonSchema, successes } from "./responses.ts";
import { properties } from "./schema_properties.ts";
import { plainName } from "./required_props.ts";

/**
 * The link of body property `name` to `producer`, a create of its noun whose
 * described answer names no member for it, searched by the name alone; or
 * undefined (see the module).
 *
 * @example
 * ```ts
 * import { unlistedIdLink } from "./unlisted_id.ts";
 * import { operationsOf } from "./operations.ts";
 * const answer = { type: "object", properties: { message: { type: "string" },
 *   book: { type: "object", properties: { id: { type: "integer" } } } } };
 * const responses = { "201": { description: "", content: { "application/json": { schema: answer } } } };
 * const [loans] = operationsOf({ paths: { "/loans": { post: { responses } } } });
 * if (unlistedIdLink({}, loans, "loanId")?.search?.join() !== "loanId") throw new Error();
 * if (unlistedIdLink({}, loans, "message") !== undefined) throw new Error();
 * ```
 */
export function unlistedIdLink(
  doc: unknown,
  producer: OpenApiOperation,
  name: string,
): ParamLink | undefined {
  const { statuses, responses } = successes(doc, producer.node);
  if (statuses.length === 0 || statuses.every((s) => s === 204 || s === 205)) return undefined;
  const objects = responses.map((r) => jsonSchema(doc, r));
  const described = objects.filter((s) => isNode(s) && properties(doc, s).length > 0);
  if (described.length === 0 || described.some((s) => isNode(s) && s.type === "array")) {
    return undefined;
  }
  const shows = described.some((s) => mentions(doc, s, plainName(name), 0));
  if (shows || namedInBody(doc, producer).has(name)) return undefined;
  return { param: name, producer, path: [], from: "parent", search: [name], unlisted: true };
}

/**
 * Whether a described answer names the member anywhere, in a list's items too (AWS's
 * `BatchPutMessage` answers its `messageId`s in a list of errors): the document says where it
 * is, and what it says is read elsewhere, not searched for here.
 */
function mentions(doc: unknown, schema: unknown, wanted: string, depth: number): boolean {
  const s = deref(doc, schema);
  if (!isNode(s) || depth > 6) return false;
  if (isNode(s.items)) return mentions(doc, s.items, wanted, depth + 1);
  // A list wrapped to be described (`{allOf: [{$ref: Entries}, {description}]}`): its parts.
  const parts = ["allOf", "oneOf", "anyOf"].flatMap((k) => Array.isArray(s[k]) ? s[k] : []);
  if (parts.some((part) => mentions(doc, part, wanted, depth + 1))) return true;
  return properties(doc, s).some(([n, p]: [string, Node]) =>
    plainName(n) === wanted || mentions(doc, p, wanted, depth + 1)
  );
}
