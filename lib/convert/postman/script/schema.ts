/**
 * JSON Schemas written in Postman scripts (`pm.response.to.have.jsonSchema(schema)`,
 * `tv4.validate(data, schema)`) are usually draft 4; flowrun checks draft
 * 2020-12. A schema made only of the keywords both read alike is carried
 * over (without its `$schema`), a list of `items` and its `additionalItems` in
 * 2020-12's words (`prefixItems`, `items`); any other is left untranslated rather than
 * written as a schema flowrun would refuse or read differently. Annotations
 * no validator checks (`example`, `readOnly`, `x-…`, which schemas taken from
 * an OpenAPI document are full of) are left out, and so is a schema's own name
 * (`$id`): draft 4 does not know it, 2020-12 resolves only a `$ref` against it,
 * and no `$ref` is carried over.
 *
 * @module
 */

import type { Cond } from "./sym.ts";

/** Keywords whose value is a plain value, read the same in draft 4 and 2020-12. */
const PLAIN = new Set([
  "type",
  "required",
  "enum",
  "const",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "uniqueItems",
  "pattern",
  "format",
  "description",
  "title",
  "default",
  "examples",
  "minProperties",
  "maxProperties",
  "multipleOf",
]);

/**
 * Keywords that only annotate: Postman's validator and flowrun's both ignore
 * them, so the schema is carried over without them. `$id` names the schema for
 * a `$ref` to resolve against, and a schema holding a `$ref` is never carried
 * over, so here no verdict depends on it (tv4, draft 4, ignores it outright).
 */
const ANNOTATIONS = new Set(["example", "readOnly", "writeOnly", "deprecated", "$comment", "$id"]);
const isAnnotation = (key: string) => ANNOTATIONS.has(key) || /^x-/.test(key);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The schema as flowrun can check it, or `undefined` when a keyword is not
 * one both drafts read alike.
 *
 * @example
 * ```ts
 * import { portableSchema } from "./schema.ts";
 * const s = portableSchema({ $schema: "http://json-schema.org/draft-04/schema#", type: "object", properties: { id: { type: "integer" } }, required: ["id"] });
 * if (JSON.stringify(s) !== '{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"]}') throw new Error();
 * if (portableSchema({ type: "number", exclusiveMinimum: true, minimum: 0 }) !== undefined) throw new Error();
 * const tuple = portableSchema({ type: "array", items: [{ type: "integer" }], additionalItems: false });
 * if (JSON.stringify(tuple) !== '{"type":"array","prefixItems":[{"type":"integer"}],"items":false}') throw new Error();
 * ```
 */
export function portableSchema(schema: unknown, depth = 0): Record<string, unknown> | undefined {
  if (!isObject(schema) || depth > 64) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    // `additionalItems` is read with a list of `items`, and ignored beside anything else.
    if ((key === "$schema" && depth === 0) || isAnnotation(key) || key === "additionalItems") {
      continue;
    }
    // A list of `items` checks the first elements, one each: 2020-12 calls it `prefixItems`.
    const tuple = key === "items" && Array.isArray(value);
    const kept = tuple ? schemaList(value, depth) : keyword(key, value, depth);
    if (kept === undefined) return undefined;
    out[tuple ? "prefixItems" : key] = kept;
  }
  return Array.isArray(schema.items) ? withRest(out, schema.additionalItems, depth) : out;
}

/** The elements after a list of `items`: `additionalItems` then, `items` in 2020-12. */
function withRest(out: Record<string, unknown>, rest: unknown, depth: number) {
  if (rest === undefined) return out;
  const items = typeof rest === "boolean" ? rest : portableSchema(rest, depth + 1);
  return items === undefined ? undefined : { ...out, items };
}

/** A map of names to schemas (`properties`), each made portable. */
function schemaMap(value: unknown, depth: number): Record<string, unknown> | undefined {
  if (!isObject(value)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [name, sub] of Object.entries(value)) {
    const s = portableSchema(sub, depth + 1);
    if (!s) return undefined;
    out[name] = s;
  }
  return out;
}

/** A list of schemas (`allOf`), each made portable. */
function schemaList(value: unknown, depth: number): unknown[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const list = value.map((v) => portableSchema(v, depth + 1));
  return list.every(Boolean) ? list : undefined;
}

/** One keyword's value, made portable; `undefined` when it cannot be. */
function keyword(key: string, value: unknown, depth: number): unknown {
  if (PLAIN.has(key)) return value;
  if (key === "properties" || key === "patternProperties") return schemaMap(value, depth);
  if (key === "additionalProperties" && typeof value === "boolean") return value;
  if (key === "items" || key === "additionalProperties" || key === "not") {
    return portableSchema(value, depth + 1);
  }
  if (key === "allOf" || key === "anyOf" || key === "oneOf") return schemaList(value, depth);
  return undefined;
}

/**
 * A JSON Schema check of the body, when the schema is one flowrun reads
 * as the script's validator did.
 *
 * @example
 * ```ts
 * import { schemaCheck } from "./schema.ts";
 * if (schemaCheck("$.json", { type: "object" })?.[0].op !== "schema" || schemaCheck("$.json.a", {}) !== undefined) throw new Error();
 * ```
 */
export function schemaCheck(path: string, schema: unknown): Cond[] | undefined {
  const portable = path === "$.json" ? portableSchema(schema) : undefined;
  return portable ? [{ path, op: "schema", value: portable }] : undefined;
}
