/**
 * An update's body member that names the item its path addresses: `PUT
 * /todos/{id}` sending `{id, name}`. ASP.NET Core's scaffolded controllers
 * refuse an update whose body's id is not the path's (`if (id !=
 * item.Id) return BadRequest()`), and koa-swagger-decorator's documents
 * give the update the create's schema, `id` required with the example `1`:
 * the path sent the id the create answered while the body sent `1`, or
 * nothing when `id` is optional. The member is read from the path's own
 * producer, so the body sends what the path sends: a member of the path
 * parameter's very name (`todoId` of `{todoId}`), or, for the path's last
 * parameter (the item itself), the member its producer answered (`id` of
 * `{todoId}` ← `POST /todos $.id`). A parent's parameter (`{listId}`)
 * fills only a member of its own name, never the item's `id`. Only in a
 * PUT or PATCH, only a member the body's schema declares that is no object
 * or list and not `readOnly`.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import type { BodyLink } from "./body_links.ts";
import type { ParamLink } from "./document_links.ts";
import { deref } from "./examples.ts";
import type { OpenApiOperation } from "./operations.ts";
import { properties } from "./schema_properties.ts";
import { jsonBodySchema } from "./json_body.ts";

/** The top-level members of `op`'s JSON request body that can hold an id, by name. */
function idMembers(doc: unknown, op: OpenApiOperation): Map<string, Node> {
  const scalar = (p: Node) =>
    p.readOnly !== true && p.type !== "object" && p.type !== "array" && !isNode(p.properties);
  return new Map(properties(doc, jsonBodySchema(doc, op.node)).filter(([, p]) => scalar(p)));
}

/** A number or a UUID: a value the server makes, which an update never renames. */
function madeByServer(schema: unknown): boolean {
  if (!isNode(schema)) return false;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.some((t) => t === "integer" || t === "number") ||
    (typeof schema.format === "string" && /^(uuid|guid)$/i.test(schema.format));
}

/**
 * The body member of `op` naming the item its path's last parameter addresses, if its body has
 * one (see the module): a text that the producer's own request sends may be a name the update
 * renames (`PATCH /tags/{slug}` with a new `slug`), so only a number, a UUID, or a member the
 * producer's request never sends.
 */
function namedMember(
  doc: unknown,
  op: OpenApiOperation,
  link: ParamLink,
  members: Map<string, Node>,
): string | undefined {
  const last = [...op.template.matchAll(/\{([^}]+)\}/g)].at(-1)?.[1];
  if (link.param !== last) return undefined;
  // A searched answer holds the first of the names searched (`listId`, else `id`).
  const answered = link.path.at(-1) ?? link.search?.find((name) => members.has(name));
  const member = members.has(link.param) ? link.param : answered;
  if (member === undefined || !members.has(member)) return undefined;
  const param = op.params.find((p) => p.in === "path" && p.name === link.param);
  if (madeByServer(members.get(member)) || madeByServer(deref(doc, param?.schema))) return member;
  const sent = properties(doc, jsonBodySchema(doc, link.producer.node)).some(([name]) =>
    name === member
  );
  return sent ? undefined : member;
}

/**
 * `body` with, for each PUT or PATCH of `params`, a link for each body member naming the item its
 * path addresses, from that path parameter's own producer (see the module).
 *
 * @example
 * ```ts
 * import { withSelfIds } from "./self_id.ts";
 * import { operationsOf } from "./operations.ts";
 * const json = (schema: object) => ({ content: { "application/json": { schema } } });
 * const todo = { properties: { id: { type: "integer" }, name: { type: "string" } } };
 * const doc = { paths: {
 *   "/todos": { post: { requestBody: json(todo), responses: { 200: json(todo) } } },
 *   "/todos/{todoId}": { put: { requestBody: json(todo), responses: { 200: {} } } },
 * } };
 * const [create, put] = operationsOf(doc);
 * const link = { param: "todoId", producer: create, path: ["id"], from: "property" as const };
 * const body = withSelfIds(doc, new Map([[put, [link]]]), new Map());
 * const [got] = body.get(put) ?? [];
 * if (got?.body.join() !== "id" || got.producer !== create || got.path.join() !== "id") throw new Error();
 * ```
 */
export function withSelfIds(
  doc: unknown,
  params: Map<OpenApiOperation, ParamLink[]>,
  body: Map<OpenApiOperation, BodyLink[]>,
): Map<OpenApiOperation, BodyLink[]> {
  const out = new Map(body);
  for (const [op, links] of params) {
    if (op.method !== "PUT" && op.method !== "PATCH") continue;
    const members = idMembers(doc, op);
    const found = [...out.get(op) ?? []];
    for (const link of links) {
      // Only an answer's member, read as the path reads it: no listing's match, no claim, no
      // Location's segment, no value the run names (`client`).
      // An undescribed answer searched for the parameter's name (`search`) counts as its member.
      if (link.path.length === 0 && !link.search) continue;
      if (!["property", "parent", "links"].includes(link.from)) continue;
      if (link.match !== undefined) continue;
      const member = namedMember(doc, op, link, members);
      if (member === undefined || found.some((l) => l.body.length === 1 && l.body[0] === member)) {
        continue;
      }
      // The path's own capture (flow.ts names it for the parameter), not a second of the value.
      const capture = /^[A-Za-z_][A-Za-z0-9_-]*$/.test(link.param) ? link.param : "id";
      found.push({ ...link, param: member, body: [member], capture });
    }
    if (found.length > (out.get(op)?.length ?? 0)) out.set(op, found);
  }
  return out;
}
