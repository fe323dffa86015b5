/**
 * What a schema `type` written as no JSON Schema type name means: the
 * converter reads it to make values (lib/convert/openapi/common_types.ts),
 * and an `openapi:` check reads it to check answers
 * (lib/load/schema_compile.ts), so both read a document alike.
 *
 * @module
 */

/**
 * The JSON Schema type (with a string format, where the name is one) that a
 * `type` written as something else stands for, or undefined for a name of
 * no known meaning (`Pet`, `Uint8Array`) or a JSON Schema type as written:
 * Swagger 2.0's common names (`int`, `long`, `float`, `double`, `bool`, as
 * documents made from code comments write them), a type in another case
 * (`String`), a string format's name (`email`, `date-time`), and `Date`,
 * which TypeBox-based generators (Elysia's) write for a JavaScript `Date`,
 * sent as JSON as its ISO text (a `date` in another case, like `String`).
 * Self-contained, tables included: the helper thread runs its source.
 *
 * @example
 * ```ts
 * import { typeNamed } from "./type_names.ts";
 * if (typeNamed("int")?.type !== "integer") throw new Error();
 * if (typeNamed("Date")?.type !== "string") throw new Error();
 * if (typeNamed("String")?.format !== undefined) throw new Error();
 * if (typeNamed("Uint8Array") !== undefined || typeNamed("string") !== undefined) {
 *   throw new Error();
 * }
 * ```
 */
export function typeNamed(name: string): { type: string; format?: string } | undefined {
  const common: Record<string, { type: string; format?: string }> = {
    int: { type: "integer", format: "int32" },
    long: { type: "integer", format: "int64" },
    float: { type: "number", format: "float" },
    double: { type: "number", format: "double" },
    bool: { type: "boolean" },
  };
  const json = ["string", "number", "integer", "boolean", "array", "object", "null"];
  const formats = [
    "email",
    "password",
    "uuid",
    "uri",
    "url",
    "date",
    "date-time",
    "hostname",
    "ipv4",
    "ipv6",
    "byte",
    "binary",
  ];
  if (json.includes(name)) return undefined;
  if (Object.hasOwn(common, name)) return common[name];
  const lower = name.toLowerCase();
  if (json.includes(lower)) return { type: lower };
  if (formats.includes(lower)) return { type: "string", format: lower };
  return undefined;
}

/**
 * The JSON Schema type a schema's `type` entry reads as: a JSON Schema type
 * name as it is, any other name as {@linkcode typeNamed} reads it, and
 * undefined for a name of no known meaning (no constraint a JSON value can
 * be checked against). Self-contained but for `typeNamed`, which the helper
 * thread's source writes out beside it.
 *
 * @example
 * ```ts
 * import { schemaTypeOf } from "./type_names.ts";
 * if (schemaTypeOf("Date") !== "string" || schemaTypeOf("null") !== "null") throw new Error();
 * if (schemaTypeOf("Uint8Array") !== undefined) throw new Error();
 * ```
 */
export function schemaTypeOf(name: string): string | undefined {
  const json = ["string", "number", "integer", "boolean", "array", "object", "null"];
  return json.includes(name) ? name : typeNamed(name)?.type;
}
