/**
 * An item's handle when its create's answer has no `id` and nothing named
 * like the parameter: the one property every success answer requires, when
 * it is free text (Jupyter Server's `POST /api/terminals` answers a
 * `Terminal` requiring only its `name`, which `/api/terminals/{terminal_id}`
 * takes). What a thing must always carry, when it is one text, is what
 * tells it from the others; several required properties, or one that is a
 * date, a format or one of an enum, name no item, and nothing is guessed.
 *
 * @module
 */
import { isNode } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import { properties } from "./schema_properties.ts";

/**
 * The path (one property deep) of the sole required free-text property of
 * every schema of `schemas` (a create's success answers), if they agree.
 *
 * @example
 * ```ts
 * import { soleHandle } from "./sole_handle.ts";
 * const terminal = { required: ["name"], properties: { name: { type: "string" }, last_activity: { type: "string" } } };
 * if (soleHandle({}, [terminal])?.join() !== "name") throw new Error();
 * if (soleHandle({}, [{ ...terminal, required: ["name", "last_activity"] }]) !== undefined) throw new Error();
 * ```
 */
export function soleHandle(doc: unknown, schemas: unknown[]): string[] | undefined {
  const names = new Set(schemas.map((schema) => handleOf(doc, schema)));
  const [name] = names;
  return names.size === 1 && name !== undefined ? [name] : undefined;
}

function handleOf(doc: unknown, schema: unknown): string | undefined {
  const s = deref(doc, schema);
  if (!isNode(s) || !Array.isArray(s.required) || s.required.length !== 1) return undefined;
  const name = s.required[0];
  const p = properties(doc, s).find(([n]) => n === name)?.[1];
  const free = isNode(p) && p.type === "string" && p.format === undefined &&
    !Array.isArray(p.enum) && p.const === undefined;
  return free && typeof name === "string" ? name : undefined;
}
