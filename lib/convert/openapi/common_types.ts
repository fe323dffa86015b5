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
 * A name that means none of these (`type: username`, as a Flask URL
 * shortener's flasgger docstring types its register's user name) is read
 * from the value the document gives beside it, its `example` or `default`:
 * a text, a whole number, a number or a true/false there is a value of that
 * type, which is the document's own evidence, not the name's. The property
 * was left out of the body, and the register answered 500 without the user
 * name it requires. A name with no such value (`type: Pet`) stays as it is.
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";
import { schemaTypeOf, typeNamed } from "../../_util/type_names.ts";

/**
 * `schema` with a common name, another case of a type or a string
 * format's name for its `type` replaced by the type (a format of its own
 * is kept), or a name of no known meaning by its example's or default's
 * type; any other schema as it is.
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
 * if (standardType({ type: "username", example: "maria" }).type !== "string") throw new Error();
 * if (standardType({ type: "seats", default: 2 }).type !== "integer") throw new Error();
 * ```
 */
export function standardType(schema: Node): Node {
  if (typeof schema.type !== "string" || schemaTypeOf(schema.type) === schema.type) return schema;
  const type = typeNamed(schema.type) ?? exampledType(schema);
  if (!type) return schema;
  return { ...schema, ...type, ...(schema.format ? { format: schema.format } : {}) };
}

/** The JSON type of the scalar value a schema gives as its example or default, if any. */
function exampledType(schema: Node): { type: string } | undefined {
  const value = schema.example !== undefined ? schema.example : schema.default;
  if (typeof value === "string" || typeof value === "boolean") return { type: typeof value };
  if (typeof value !== "number" || !Number.isFinite(value)) return undefined;
  return { type: Number.isInteger(value) ? "integer" : "number" };
}
