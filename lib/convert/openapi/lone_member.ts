/**
 * A PUT of one setting whose schema holds that one member. An Express API
 * documented by swagger-jsdoc (a school planner on PostgreSQL, measured by
 * hand) sets a user's push token by `PUT /users/accounts/{id}/push-token`
 * `{expo_push_token}`, no `required` list, and refuses a body without it
 * (400 "Missing expo_push_token"). The path is no item's (its last segment
 * is no parameter), so the item update rules (`patch_body.ts`) left the body
 * `{}`, which asks for nothing. A PUT no PATCH stands beside, whose JSON body
 * came out empty and whose schema declares exactly one member that is not
 * read-only, sends that member: the body is there to carry it. A schema of
 * two members or more still says nothing of which is needed.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref, type ExampleMaker } from "./examples.ts";

/**
 * `value`, or when it is `{}` of a PUT on `template` with no PATCH beside it
 * and `schema` declares one writable member, that member made.
 *
 * @example
 * ```ts
 * import { withLoneMember } from "./lone_member.ts";
 * import { ExampleMaker } from "./examples.ts";
 * const doc = { paths: { "/users/{id}/token": { put: {} } } };
 * const schema = { type: "object", properties: { token: { type: "string" } } };
 * const got = withLoneMember(doc, new ExampleMaker(doc), "PUT", "/users/{id}/token", schema, {});
 * if (JSON.stringify(got) !== '{"token":"string"}') throw new Error(JSON.stringify(got));
 * const two = { type: "object", properties: { a: { type: "string" }, b: { type: "string" } } };
 * if (JSON.stringify(withLoneMember(doc, new ExampleMaker(doc), "PUT", "/users/{id}/token", two, {})) !== "{}") {
 *   throw new Error();
 * }
 * ```
 */
export function withLoneMember(
  doc: unknown,
  maker: ExampleMaker,
  method: string | undefined,
  template: string,
  schema: unknown,
  value: unknown,
): unknown {
  if (method !== "PUT" || !isNode(value) || Object.keys(value).length > 0) return value;
  const paths = isNode(doc) && isNode(doc.paths) ? doc.paths : {};
  const item = deref(doc, paths[template]);
  if (!isNode(item) || item.patch !== undefined) return value;
  const s = deref(doc, schema);
  if (!isNode(s) || !isNode(s.properties)) return value;
  const members = Object.entries(s.properties).map(([name, p]) => [name, deref(doc, p)] as const)
    .filter(([, p]) => isNode(p) && (p as Node).readOnly !== true);
  if (Object.keys(s.properties).length !== 1 || members.length !== 1) return value;
  const [name, p] = members[0];
  const made = maker.make(p);
  return made === undefined ? value : { [name]: made };
}
