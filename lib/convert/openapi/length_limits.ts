/**
 * The `maxLength` a request body's schema sets for each property name, so
 * that text the converter makes per run (`run_values.ts`: `code-${RANDOM.HEX_8}`,
 * 13 characters) is not longer than the server takes. A Joi `.max(10)` or
 * `.length(6)` (hapi-swagger writes `maxLength` for both) refused every
 * such body 400 though the document said the limit.
 *
 * @module
 */
import { isUuid } from "../values.ts";
import { isNode } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import { bodyMembers } from "./body_members.ts";
import type { OpenApiOperation } from "./operations.ts";

/**
 * Each property name of `op`'s JSON body schema with a `maxLength`, the
 * smallest where a name appears twice (the made text is matched by name);
 * none without a document.
 *
 * @example
 * ```ts
 * import { lengthLimits } from "./length_limits.ts";
 * const schema = { type: "object", properties: { code: { type: "string", maxLength: 10 }, pin: { type: "string", maxLength: 6 } } };
 * const op = { node: { requestBody: { content: { "application/json": { schema } } } } } as never;
 * const got = lengthLimits({}, op);
 * if (got.get("code") !== 10 || got.get("pin") !== 6 || got.size !== 2) throw new Error();
 * ```
 */
export function lengthLimits(doc: unknown, op: OpenApiOperation): Map<string, number> {
  const limits = new Map<string, number>();
  for (const [name, p] of bodyMembers(doc, op)) {
    if (isNode(p) && typeof p.maxLength === "number") {
      limits.set(name, Math.min(p.maxLength, limits.get(name) ?? Infinity));
    }
  }
  return limits;
}

/**
 * The `maxLength` of a parameter's schema (a path's name the client makes is kept within it as
 * a body's made text is: a Joi `.max(8)` on a path refused `product_id-…` 400); `undefined`
 * when it states none.
 *
 * @example
 * ```ts
 * import { paramLimit } from "./length_limits.ts";
 * if (paramLimit({}, { name: "code", schema: { type: "string", maxLength: 8 } }) !== 8) throw new Error();
 * if (paramLimit({}, { name: "code", schema: { type: "string" } }) !== undefined) throw new Error();
 * ```
 */
export function paramLimit(doc: unknown, param: unknown): number | undefined {
  const schema = isNode(param) ? deref(doc, param.schema) : undefined;
  return isNode(schema) && typeof schema.maxLength === "number" ? schema.maxLength : undefined;
}

/**
 * `${stem}-${RANDOM.HEX_8}` (the per-run text of a field) kept within
 * `limit` characters: the stem cut, else the random part alone; `undefined`
 * when not even 8 characters fit (the value is then left as the example
 * generator made it, which the limit already shaped).
 *
 * @example
 * ```ts
 * import { withinLimit } from "./length_limits.ts";
 * if (withinLimit("code", 10) !== "c-${RANDOM.HEX_8}") throw new Error();
 * if (withinLimit("code", 8) !== "${RANDOM.HEX_8}" || withinLimit("pin", 6) !== undefined) throw new Error();
 * if (withinLimit("title", undefined) !== "title-${RANDOM.HEX_8}") throw new Error();
 * ```
 */
export function withinLimit(stem: string, limit: number | undefined): string | undefined {
  const random = "${RANDOM.HEX_8}";
  if (limit === undefined || stem.length + 9 <= limit) return `${stem}-${random}`;
  if (limit >= 10) return `${stem.slice(0, limit - 9)}-${random}`;
  return limit >= 8 ? random : undefined;
}

/**
 * The value of a key the client names at its create when the parameter's generated value is a
 * UUID (its schema's `format: uuid`, Joi's `.guid()`): a fresh one each run, `${RANDOM.UUID}`, as
 * a server checking the form refuses `friendId-…` (400 "must be a valid GUID"); `undefined`
 * otherwise, for the made name `name-…`.
 *
 * @example
 * ```ts
 * import { uuidKey } from "./length_limits.ts";
 * if (uuidKey("3fa85f64-5717-4562-b3fc-2c963f66afa6") !== "${RANDOM.UUID}") throw new Error();
 * if (uuidKey("string") !== undefined || uuidKey(7) !== undefined) throw new Error();
 * ```
 */
export function uuidKey(value: unknown): string | undefined {
  return typeof value === "string" && isUuid(value) ? "${RANDOM.UUID}" : undefined;
}
