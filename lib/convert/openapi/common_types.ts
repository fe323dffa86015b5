/**
 * A Swagger 2.0 `type` written as a common name of a type (`int`, `long`,
 * `float`, `double`, `bool`), as documents made from code comments write it
 * (flasgger's docstrings: httpbin's `/bytes/{n}` is `type: int`): the type
 * and format Swagger 2.0's table of data types gives that name. No schema
 * type matches the name as written, so a value made for it was the
 * placeholder `string`, which a server refuses where it wants a number.
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

/**
 * `schema` with a common name for its `type` replaced by the type (a
 * format of its own is kept); any other schema as it is.
 *
 * @example
 * ```ts
 * import { standardType } from "./common_types.ts";
 * const n = standardType({ type: "int", minimum: 1 });
 * if (n.type !== "integer" || n.format !== "int32" || n.minimum !== 1) throw new Error();
 * if (standardType({ type: "string" }).format !== undefined) throw new Error();
 * ```
 */
export function standardType(schema: Node): Node {
  const name = typeof schema.type === "string" ? schema.type : "";
  if (!Object.hasOwn(COMMON_NAMES, name)) return schema;
  return { ...schema, ...COMMON_NAMES[name], ...(schema.format ? { format: schema.format } : {}) };
}
