/**
 * A create whose JSON body came out `{}` (its schema requires nothing and
 * the document gives no example) creates nothing, so it sends something:
 *
 * - a POST to a collection, every free-text property of the item (no enum,
 *   format but `email`, pattern, default, read-only): the item as the client
 *   describes it, what the server assigns (a `uuid` id, dates) left to it;
 *   an address is never the server's (SReview's `POST /user` answered a
 *   null `email` its own validation refused, 500). Jupyter
 *   Server's `POST /api/sessions` takes a `Session` that requires nothing,
 *   and answers `{}` with 400 "Missing field in JSON data: path" (then
 *   `type`).
 *   When the item is wrapped in the one object property that has free text
 *   (`{article: {title, body}}`, RealWorld's shape), that object's text.
 * - a PUT at the item's own path that the client names (the path already
 *   names the item), its first text property, as an update of nothing does
 *   (`patch_body.ts`): Jupyter's `PUT /api/contents/{path}` takes `{}` for
 *   "a new untitled file in the folder {path}" (404: no such folder), and
 *   any other body for "save this file at {path}".
 *
 * @module
 */
import { isNode } from "../../check/openapi_operations.ts";
import { deref, type ExampleMaker } from "./examples.ts";
import { somethingToPatch } from "./patch_body.ts";
import { properties } from "./schema_properties.ts";

/**
 * `value`, or for a create of nothing, something to create (see the module).
 *
 * @example
 * ```ts
 * import { somethingToCreate } from "./empty_create.ts";
 * import { ExampleMaker } from "./examples.ts";
 * const session = { type: "object", properties: {
 *   id: { type: "string", format: "uuid", readOnly: true }, path: { type: "string" }, type: { type: "string" },
 *   kernel: { type: "object" } } };
 * const got = somethingToCreate({}, new ExampleMaker({}), "POST", session, {});
 * if (JSON.stringify(got) !== '{"path":"string","type":"string"}') throw new Error(JSON.stringify(got));
 * const put = somethingToCreate({}, new ExampleMaker({}), "PUT", session, {});
 * if (JSON.stringify(put) !== '{"path":"string"}') throw new Error(JSON.stringify(put));
 * ```
 */
export function somethingToCreate(
  doc: unknown,
  maker: ExampleMaker,
  method: string,
  schema: unknown,
  value: unknown,
): unknown {
  const s = deref(doc, schema);
  // A body that requires something but sends nothing left it to the server (`server_defaults.ts`).
  const requires = isNode(s) && Array.isArray(s.required) && s.required.length > 0;
  if (!isNode(value) || Object.keys(value).length > 0 || requires) return value;
  if (method === "PUT") return somethingToPatch(doc, maker, schema, value);
  if (method !== "POST") return value;
  const texts = freeText(doc, maker, s);
  if (Object.keys(texts).length > 0) return texts;
  // The item under one wrapper (`{article: {title, body}}`, as RealWorld's APIs take it): its text.
  const wrapped = properties(doc, s).map(([name, p]) => [name, freeText(doc, maker, p)] as const)
    .filter(([, inner]) => Object.keys(inner).length > 0);
  return wrapped.length === 1 ? Object.fromEntries(wrapped) : value;
}

/** Every free-text property of `schema` (see the module), a value made for each. */
function freeText(doc: unknown, maker: ExampleMaker, schema: unknown): Record<string, unknown> {
  const free = properties(doc, schema).filter(([, p]) =>
    p.type === "string" && p.readOnly !== true &&
    (p.format === undefined || p.format === "email") &&
    p.pattern === undefined && p.default === undefined && !Array.isArray(p.enum)
  );
  return Object.fromEntries(free.map(([name, p]) => [name, maker.make(p) ?? "string"]));
}
