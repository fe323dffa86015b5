/**
 * What a schema requires, read for the evidence a link by name rests on
 * (producers.ts): a create's answer requires a property, or its request
 * sends it.
 *
 * @module
 */
import { isNode } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import type { OpenApiOperation } from "./operations.ts";
import { jsonBodyMedia } from "./json_body.ts";

/**
 * A name compared without case, `_` or `-`: `pet_id` is `petId`.
 *
 * @example
 * ```ts
 * import { plainName } from "./required_props.ts";
 * if (plainName("pet_id") !== plainName("petId")) throw new Error();
 * ```
 */
export const plainName = (name: string): string => name.toLowerCase().replace(/[_-]/g, "");

/**
 * Whether every response schema of `op` requires the top-level property
 * whose plain name is `plain` (`required`, through `allOf` too). A link made
 * from a parameter's name alone rests on this or on the request requiring
 * it: a property the answer may leave out and the client never sent
 * (Adyen's `pspReference`, absent when a payment first asks for 3-D Secure)
 * would fail the create's capture.
 *
 * @example
 * ```ts
 * import { requiredAtTop } from "./required_props.ts";
 * if (!requiredAtTop({}, [{ required: ["pspReference"] }], "pspreference")) throw new Error();
 * if (requiredAtTop({}, [{ properties: { pspReference: {} } }], "pspreference")) throw new Error();
 * ```
 */
export function requiredAtTop(doc: unknown, schemas: unknown[], plain: string): boolean {
  return schemas.length > 0 && schemas.every((schema) => requiredOf(doc, schema, 0).has(plain));
}

/**
 * Whether the create's JSON request body requires the property: the client
 * chose it (Unleash's feature `name`), so the answer describing what it
 * created carries it back.
 *
 * @example
 * ```ts
 * import { requestRequires } from "./required_props.ts";
 * const op = { node: { requestBody: { content: { "application/json": { schema: { required: ["name"] } } } } } };
 * // deno-lint-ignore no-explicit-any
 * if (!requestRequires({}, op as any, "name")) throw new Error();
 * ```
 */
export function requestRequires(doc: unknown, op: OpenApiOperation, plain: string): boolean {
  const media = jsonBodyMedia(doc, op.node);
  return isNode(media) && requiredOf(doc, media.schema, 0).has(plain);
}

/** The plain names a schema requires at its top, through `allOf`. */
function requiredOf(doc: unknown, schema: unknown, depth: number): Set<string> {
  const found = new Set<string>();
  const s = deref(doc, schema);
  if (!isNode(s) || depth > 8) return found;
  for (const name of Array.isArray(s.required) ? s.required : []) {
    if (typeof name === "string") found.add(plainName(name));
  }
  for (const part of Array.isArray(s.allOf) ? s.allOf : []) {
    for (const name of requiredOf(doc, part, depth + 1)) found.add(name);
  }
  return found;
}
