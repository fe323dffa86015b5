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
 * The names and what each means are lib/_util/type_names.ts's, which an
 * `openapi:` check reads too.
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";
import { typeNamed } from "../../_util/type_names.ts";

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
  const type = typeof schema.type === "string" ? typeNamed(schema.type) : undefined;
  if (!type) return schema;
  return { ...schema, ...type, ...(schema.format ? { format: schema.format } : {}) };
}
