/**
 * A Swagger 2.0 `type` written as a common name of a type (`int`, `long`,
 * `float`, `double`, `bool`), as documents made from code comments write it
 * (flasgger's docstrings: httpbin's `/bytes/{n}` is `type: int`): the type
 * and format Swagger 2.0's table of data types gives that name. No schema
 * type matches the name as written, so a value made for it was the
 * placeholder `string`, which a server refuses where it wants a number.
 *
 * A JSON Schema type name in another case (`String`, `Integer`) is that
 * type, and the name of a string format written as the type (`type:
 * email`, as flasgger's docstrings write a login's email) is a string of
 * that format: no schema type matched either, so a body property typed so
 * was left out of the body (a register without its email, which the
 * server answered 500).
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";

/** Each common name and the type, with the format, it stands for. */
const COMMON_NAMES: Record<string, { type: string; format?: string }> = {
  int: { type: "integer", format: "int32" },
  long: { type: "integer", format: "int64" },
  float: { type: "number", format: "float" },
  double: { type: "number", format: "double" },
  bool: { type: "boolean" },
};

/** The types JSON Schema names; any other `type` is a name of something else. */
const JSON_TYPES = ["string", "number", "integer", "boolean", "array", "object", "null"];

/** String formats an author writes as the type itself. */
const FORMAT_NAMES = [
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

/** The type and format a `type` written as something other than a JSON Schema type means. */
function meant(name: string): { type: string; format?: string } | undefined {
  if (Object.hasOwn(COMMON_NAMES, name)) return COMMON_NAMES[name];
  const lower = name.toLowerCase();
  if (JSON_TYPES.includes(lower)) return { type: lower };
  if (FORMAT_NAMES.includes(lower)) return { type: "string", format: lower };
  return undefined;
}

/**
 * `schema` with a common name, another case of a type or a string
 * format's name for its `type` replaced by the type (a format of its own
 * is kept); any other schema as it is.
 *
 * @example
 * ```ts
 * import { standardType } from "./common_types.ts";
 * const n = standardType({ type: "int", minimum: 1 });
 * if (n.type !== "integer" || n.format !== "int32" || n.minimum !== 1) throw new Error();
 * if (standardType({ type: "string" }).format !== undefined) throw new Error();
 * const e = standardType({ type: "email", example: "a@b.test" });
 * if (e.type !== "string" || e.format !== "email") throw new Error();
 * if (standardType({ type: "String" }).type !== "string") throw new Error();
 * if (standardType({ type: "Pet" }).type !== "Pet") throw new Error();
 * ```
 */
export function standardType(schema: Node): Node {
  const name = typeof schema.type === "string" ? schema.type : "";
  const type = name && !JSON_TYPES.includes(name) ? meant(name) : undefined;
  if (!type) return schema;
  return { ...schema, ...type, ...(schema.format ? { format: schema.format } : {}) };
}
