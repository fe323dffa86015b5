/**
 * The names a sign-up sends from the document's examples are the run's own.
 * A sign-up registers a new account in every flow and every run, so a value
 * it sends the same each time is one every account after the first shares:
 * the run already makes its email, user name and password its own
 * (`run_values.ts`), and a name the person is given (`name: Jhon Doe`,
 * `fullName`, `displayName`) is kept UNIQUE by servers as often, where no
 * schema says so (a NestJS API's TypeORM `@Column({unique: true})`: every
 * sign-up after the first refused 500, the login after it finding no
 * account, a second run making none). Such a name is sent suffixed
 * (`Jhon Doe-${RANDOM.HEX_8}`) unless its schema's `maxLength`, `pattern`,
 * `enum` or `const` would refuse it so; any other example (a phone, a
 * country) stays as the document gives it.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import type { YNode } from "../yaml_out.ts";
import { deref } from "./examples.ts";
import { accepts, bodySchema } from "./own_names.ts";
import type { OpenApiOperation } from "./operations.ts";
import { plainName } from "./required_props.ts";

/** A key naming something, as `run_values.ts`'s per-run text reads it. */
const NAMED = /(title|name|slug)$/;

/** Deepest body level looked into (a sign-up nests its account once or twice). */
const MAX_DEPTH = 4;

/**
 * The example texts the sign-up `op`'s body (`fields`, as flow YAML) sends
 * for a name whose schema takes a suffix: the values `perRun` then makes
 * the run's own, as it does a name it found in prose.
 *
 * @example
 * ```ts
 * import { signUpNames } from "./signup_names.ts";
 * import { ymap } from "../yaml_out.ts";
 * const schema = { type: "object", properties: { name: { type: "string" }, phone: { type: "string" } } };
 * const op = { node: { requestBody: { content: { "application/json": { schema } } } } } as never;
 * const got = signUpNames({}, op, [["body", ymap([["name", "Jhon Doe"], ["phone", "0812"]])]]);
 * if ([...got].join() !== "Jhon Doe") throw new Error([...got].join());
 * ```
 */
export function signUpNames(
  doc: unknown,
  op: OpenApiOperation,
  fields: [string, YNode][],
): Set<string> {
  const found = new Set<string>();
  const refused = new Set<string>();
  const body = fields.find(([k]) => k === "body")?.[1];
  collect(doc, bodySchema(doc, op), body, { found, refused }, 0);
  // perRun matches by value: a text one name's schema refuses suffixed stays for all.
  return new Set([...found].filter((v) => !refused.has(v)));
}

function collect(
  doc: unknown,
  schema: unknown,
  node: YNode | undefined,
  into: { found: Set<string>; refused: Set<string> },
  depth: number,
) {
  if (depth > MAX_DEPTH || node === null || typeof node !== "object" || Array.isArray(node)) return;
  if (node.kind !== "map") return;
  const s = deref(doc, schema);
  const props: Node = isNode(s) && isNode(s.properties) ? s.properties : {};
  for (const [key, value] of node.entries) {
    if (typeof value === "string") {
      if (!NAMED.test(plainName(key)) || value.includes("${")) continue;
      (accepts(doc, props[key], value) ? into.found : into.refused).add(value);
    } else collect(doc, props[key], value, into, depth + 1);
  }
}
