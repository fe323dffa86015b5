/**
 * A body's ids of a noun the document's answers show holding the account.
 * A bug tracker on FastAPI adds a project's members by
 * `PUT /projects/{project_id}/members` `{members: [uuid]}` and answers each
 * membership as `{id, joinedAt, member: {id, username}}`: the `member` is
 * the account its sign-up answers (`{id, username, token}`) less the token,
 * and no operation makes a "member". The type's sample UUID named no
 * account (500, a foreign key refused). The evidence, all of it: the
 * property names a noun as an id (id_noun.ts: `members` of UUIDs,
 * `assignee_id`); some success answer has an object member named for that
 * noun, of more than an `id`, whose every member the sign-up's answer has
 * too, its `id` of the property's type; no other rule links the property;
 * the run signs up. The value is the id the sign-up answered, only where the
 * body sends the member (a required one, or one the summary names).
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import type { BodyLink } from "./body_links.ts";
import { deref } from "./deref.ts";
import { idNoun } from "./id_noun.ts";
import { jsonBodySchema } from "./json_body.ts";
import type { OpenApiOperation } from "./operations.ts";
import type { Inferred } from "./prerequisites.ts";
import { plainName } from "./required_props.ts";
import { responseSchemas } from "./response_paths.ts";
import { properties } from "./schema_properties.ts";
import { singular } from "../names.ts";

/** A scalar schema's JSON type and format, integers and numbers alike: `string uuid`. */
function scalar(doc: unknown, schema: unknown): string | undefined {
  const s = deref(doc, schema);
  if (!isNode(s) || typeof s.type !== "string" || s.type === "object" || s.type === "array") {
    return undefined;
  }
  const type = s.type === "integer" ? "number" : s.type;
  return `${type} ${typeof s.format === "string" ? s.format : ""}`;
}

/** The sign-up's answered members and its `id`'s scalar, when it answers an account of more than an id. */
function accountShape(doc: unknown, register: OpenApiOperation) {
  for (const schema of responseSchemas(doc, register)) {
    const members = properties(doc, schema);
    const id = members.find(([name]) => name === "id")?.[1];
    const type = scalar(doc, id);
    if (type && members.length > 1) return { names: new Set(members.map(([n]) => n)), type };
  }
  return undefined;
}

/** The object schemas `schema` shows under a member named for `noun`, a few levels down. */
function shownAs(doc: unknown, schema: unknown, noun: string, depth = 0): Node[] {
  const s = deref(doc, schema);
  if (!isNode(s) || depth > 3) return [];
  if (s.type === "array") return shownAs(doc, s.items, noun, depth + 1);
  return properties(doc, s).flatMap(([name, member]) => {
    const here = plainName(singular(name)) === noun ? [deref(doc, member)] : [];
    return [...here.filter(isNode), ...shownAs(doc, member, noun, depth + 1)];
  });
}

/** Whether some answer of `ops` shows `noun` as the account: its members all the account's, its id alike. */
function shownAccount(
  doc: unknown,
  ops: OpenApiOperation[],
  noun: string,
  account: { names: Set<string>; type: string },
  type: string,
): boolean {
  return ops.some((op) =>
    responseSchemas(doc, op).some((schema) =>
      shownAs(doc, schema, noun).some((shown) => {
        const members = properties(doc, shown);
        const id = members.find(([name]) => name === "id")?.[1];
        return members.length > 1 && scalar(doc, id) === type && type === account.type &&
          members.every(([name]) => account.names.has(name));
      })
    )
  );
}

/** The links of `op`'s top-level body ids that name the account by how the answers show them. */
function opLinks(
  doc: Node,
  ops: OpenApiOperation[],
  op: OpenApiOperation,
  register: OpenApiOperation,
  account: { names: Set<string>; type: string },
  linked: BodyLink[],
): BodyLink[] {
  const links: BodyLink[] = [];
  for (const [name, prop] of properties(doc, jsonBodySchema(doc, op.node))) {
    const p = deref(doc, prop);
    const found = isNode(p) ? idNoun(name, p) : undefined;
    if (!found || linked.some((l) => l.body[0] === name)) continue;
    const type = scalar(doc, found.each ? (p as Node).items : p);
    if (!type || !shownAccount(doc, ops, found.noun, account, type)) continue;
    const each = found.each ? { each: true as const } : {};
    const param = found.each ? `${name}[]` : name;
    links.push({
      param,
      producer: register,
      path: ["id"],
      from: "property",
      body: [name],
      ...each,
      replaceOnly: true,
    });
  }
  return links;
}

/**
 * `inferred` with a link from the sign-up's answered id to each body id
 * whose noun the answers show holding the account (see the module).
 *
 * @example
 * ```ts
 * import { withEmbeddedAccounts } from "./embedded_account.ts";
 * import { operationsOf } from "./operations.ts";
 * const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
 * const uuid = { type: "string", format: "uuid" };
 * const person = { properties: { id: uuid, username: { type: "string" } } };
 * const doc = { paths: {
 *   "/signup": { post: { responses: { 200: json({ properties: { ...person.properties, token: {} } }) } } },
 *   "/teams/{id}/members": { put: { requestBody: json({ properties: { members: { type: "array", items: uuid } } }),
 *     responses: { 200: json({ type: "array", items: { properties: { id: uuid, member: person } } }) } } },
 * } };
 * const ops = operationsOf(doc);
 * const login = { op: ops[0], register: ops[0], schemes: new Map() } as never;
 * const [link] = withEmbeddedAccounts(doc, ops, { params: new Map(), login }).body?.get(ops[1]) ?? [];
 * if (link?.producer !== ops[0] || !link.each || link.body.join() !== "members") throw new Error();
 * ```
 */
export function withEmbeddedAccounts(
  doc: Node,
  ops: OpenApiOperation[],
  inferred: Inferred,
): Inferred {
  const register = inferred.login?.register;
  const account = register && accountShape(doc, register);
  if (!register || !account) return inferred;
  const body = new Map(inferred.body ?? []);
  for (const op of ops) {
    if (op === register || op.method === "GET" || op.method === "HEAD") continue;
    const had = body.get(op) ?? [];
    const links = opLinks(doc, ops, op, register, account, had);
    if (links.length > 0) body.set(op, [...had, ...links]);
  }
  return { ...inferred, body };
}
