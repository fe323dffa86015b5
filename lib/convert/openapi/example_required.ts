/**
 * A JSON body example that leaves out a member its own schema requires. A
 * Koa job board API's hand-written YAML document gives the organization's
 * create an example without the `name` its schema requires, and the server
 * validates every request against that very document (koa-oas3): the
 * example as written was refused (400 "should have required property
 * 'name'"), and the organization's read, update and delete waited for it.
 * The schema is what a validating server checks, so each top-level member
 * it requires (through `allOf` too) that the example lacks is added, made
 * from its schema as a generated body's would be; the example's own values
 * stay as written. A `readOnly` member is no member a request sends, and
 * stays out.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import type { ExampleMaker } from "./examples.ts";
import { properties, requiredNames } from "./schema_properties.ts";

/**
 * `value` (a body example) with each member `schema` requires at its top that `value` lacks,
 * made by `maker` from the member's schema (see the module); any other value as it is.
 *
 * @example
 * ```ts
 * import { withSchemaRequired } from "./example_required.ts";
 * import { ExampleMaker } from "./examples.ts";
 * const schema = { type: "object", required: ["label", "size"], properties: {
 *   label: { type: "string" }, size: { type: "integer", example: 3 } } };
 * const got = withSchemaRequired({}, new ExampleMaker({}), schema, { label: "Oak" });
 * if (JSON.stringify(got) !== '{"label":"Oak","size":3}') throw new Error(JSON.stringify(got));
 * const list = [1];
 * if (withSchemaRequired({}, new ExampleMaker({}), schema, list) !== list) throw new Error();
 * ```
 */
export function withSchemaRequired(
  doc: unknown,
  maker: ExampleMaker,
  schema: unknown,
  value: unknown,
): unknown {
  if (!isNode(value) || Array.isArray(value)) return value;
  const required = requiredNames(doc, schema);
  const missing = properties(doc, schema).filter(([name, p]: [string, Node]) =>
    required.has(name) && !Object.hasOwn(value, name) && p.readOnly !== true
  );
  if (missing.length === 0) return value;
  const out: Record<string, unknown> = { ...value };
  for (const [name, p] of missing) {
    const made = maker.make(p);
    if (made !== undefined) out[name] = made;
  }
  return out;
}
