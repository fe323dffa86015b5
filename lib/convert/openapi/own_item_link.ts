/**
 * Which item is the signed-in account's own, and what answers its id: the
 * evidence `own_read.ts` fills the item's read, update and delete with,
 * and `account_delete.ts` runs that delete last by; when no answer gives
 * the id, the `sub` of a token the document calls a JWT (`jwt_subject.ts`). Apart from
 * `own_read.ts`, which reads `prerequisites.ts`, so that
 * `account_delete.ts` (which `prerequisites.ts` reads) may ask it too.
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";
import type { ParamLink } from "./document_links.ts";
import { singular } from "../names.ts";
import { bodyFields, type Login } from "./login.ts";
import { type OpenApiOperation, operationsOf } from "./operations.ts";
import { usesLogin } from "./uses_login.ts";
import { jwtToken } from "./jwt_subject.ts";
import { itemParam, itemRead } from "./listed_read.ts";
import { responseSchemas } from "./producers.ts";
import { plainName } from "./required_props.ts";
import { findProperty, properties } from "./schema_properties.ts";
import { searchedLink } from "./undescribed_answer.ts";
import { updateAnswered } from "./update_answer.ts";

/** The property names of an operation's 2xx answers, one set; none when it shows one or none. */
function shape(doc: Node, op: OpenApiOperation): Set<string> | undefined {
  const names = responseSchemas(doc, op).flatMap((s) => properties(doc, s).map(([n]) => n));
  return names.length > 1 ? new Set(names) : undefined;
}

/** Each object the answers of `op` hold at the top or one level down: its path and its names. */
function shapes(doc: Node, op: OpenApiOperation): [string[], Set<string>][] {
  const out: [string[], Set<string>][] = [];
  const top = shape(doc, op);
  if (top) out.push([[], top]);
  for (const schema of responseSchemas(doc, op)) {
    for (const [name, member] of properties(doc, schema)) {
      const names = properties(doc, member).map(([n]) => n);
      if (names.length > 1) out.push([[name], new Set(names)]);
    }
  }
  return out;
}

/** Whether two shapes hold the same names. */
function same(a: Set<string>, b: Set<string>): boolean {
  return a.size === b.size && [...a].every((n) => b.has(n));
}

/** The link of `op`'s item parameter to the first giver answering its shape (see `own_read.ts`). */
function ownLink(
  doc: Node,
  givers: OpenApiOperation[],
  op: OpenApiOperation,
  param: string,
): ParamLink | undefined {
  const own = shape(doc, op);
  if (!own) return undefined;
  const id = [...own].find((n) => plainName(n) === plainName(param)) ??
    [...own].find((n) => plainName(n) === "id");
  if (id === undefined) return undefined;
  for (const producer of givers) {
    for (const [path, theirs] of shapes(doc, producer)) {
      if (same(own, theirs)) return { param, producer, path: [...path, id], from: "property" };
    }
  }
  return undefined;
}

/** The link of `op`'s item parameter to a giver answering an id named for its collection. */
function nounLink(
  doc: Node,
  givers: OpenApiOperation[],
  op: OpenApiOperation,
  param: string,
): ParamLink | undefined {
  const collection = op.template.split("/").filter((s) => s !== "").at(-2) ?? "";
  const noun = `${plainName(singular(collection))}id`;
  if (collection.includes("{") || ![noun, "id"].includes(plainName(param))) return undefined;
  for (const producer of givers) {
    for (const schema of responseSchemas(doc, producer)) {
      const path = findProperty(doc, schema, (n) => plainName(n) === noun);
      if (path) return { param, producer, path, from: "property" };
    }
  }
  return undefined;
}

/** The link of `op`'s item parameter to a giver whose sent fields the item's read answers. */
function sentLink(
  doc: Node,
  givers: OpenApiOperation[],
  op: OpenApiOperation,
  param: string,
): ParamLink | undefined {
  const own = new Set([...shape(doc, op) ?? []].map(plainName));
  const ids = itemIds(op, param);
  if (![...own].some((n) => ids.has(n))) return undefined;
  return accountGiven(doc, givers, own, ids, param);
}

/** The names an item's id goes by: its parameter's, `id`, and its collection's noun's (`userid`). */
function itemIds(op: OpenApiOperation, param: string): Set<string> {
  const collection = op.template.split("/").filter((s) => s !== "").at(-2) ?? "";
  return new Set([plainName(param), "id", `${plainName(singular(collection))}id`]);
}

/**
 * The link of `param` to the first giver whose sent fields (but the password) are all among
 * `own`, an answer's member names, and whose own answer gives the account's id.
 */
function accountGiven(
  doc: Node,
  givers: OpenApiOperation[],
  own: Set<string>,
  ids: Set<string>,
  param: string,
): ParamLink | undefined {
  for (const producer of givers) {
    const fields = [...bodyFields(doc, producer)].filter((n) => n !== "\0password");
    if (fields.length === 0 || !fields.every((n) => own.has(n))) continue;
    const path = answeredId(doc, producer, ids, fields);
    if (path) return { param, producer, path, from: "property" };
  }
  return undefined;
}

/**
 * Where `producer`'s answer gives the account's id: an id at its top, else
 * in a member (`{token, user: {id, name, email}}`) that also holds every
 * field in `fields`, the ones the producer was sent but the password, so
 * the member is the account described, not any object beside a token.
 */
function answeredId(
  doc: Node,
  producer: OpenApiOperation,
  ids: Set<string>,
  fields: string[],
): string[] | undefined {
  const schemas = responseSchemas(doc, producer);
  for (const schema of schemas) {
    const id = properties(doc, schema).find(([n]) => ids.has(plainName(n)));
    if (id) return [id[0]];
  }
  for (const schema of schemas) {
    for (const [name, member] of properties(doc, schema)) {
      const names = properties(doc, member).map(([n]) => n);
      const id = names.find((n) => ids.has(plainName(n)));
      const plain = new Set(names.map(plainName));
      if (id !== undefined && fields.every((f) => plain.has(plainName(f)))) return [name, id];
    }
  }
  return undefined;
}

/**
 * The link of `read`'s item parameter to a giver whose sent fields (but the
 * password) its update answers, beside an id, when the read itself shows no
 * such object (`update_answer.ts`): the item is the account that giver made.
 */
function updateAnswerLink(
  doc: Node,
  givers: OpenApiOperation[],
  ops: OpenApiOperation[],
  read: OpenApiOperation,
  param: string,
): ParamLink | undefined {
  const ids = itemIds(read, param);
  for (const own of updateAnswered(doc, ops, read, ids)) {
    const link = accountGiven(doc, givers, own, ids, param);
    if (link) return link;
  }
  return undefined;
}

/**
 * The link of `op`'s item parameter to the `sub` of the login's JWT
 * (`jwt_subject.ts`), when the item's read answers an id of its own and
 * every field the sign-up (else the login) sends but the password.
 */
function subjectLink(
  doc: Node,
  login: Login,
  op: OpenApiOperation,
  param: string,
): ParamLink | undefined {
  if (!jwtToken(doc, login)) return undefined;
  const own = new Set([...shape(doc, op) ?? []].map(plainName));
  if (![...itemIds(op, param)].some((n) => own.has(n))) return undefined;
  const fields = [...bodyFields(doc, login.register ?? login.op)].filter((n) => n !== "\0password");
  if (fields.length === 0 || !fields.every((n) => own.has(n))) return undefined;
  return { param, producer: login.op, path: login.path!, from: "claim" };
}

/**
 * The link of `read`'s item parameter to the sign-up's (else the login's)
 * answer, searched at run time, when the document describes neither that
 * answer nor the item's read, and the item's update sends two or more of
 * the fields the sign-up sends but the password and nothing else: the item
 * is the account (an Elysia todo API's `PUT /users/{id}` takes `{username,
 * email}` of its register's `{username, email, password}`, every answer
 * `200: {}`, and refuses anyone but that user 403; the flow sent a made-up
 * id).
 */
function updatedLink(
  doc: Node,
  ops: OpenApiOperation[],
  login: Login,
  read: OpenApiOperation,
  param: string,
): ParamLink | undefined {
  if (shape(doc, read)) return undefined;
  const giver = login.register ?? login.op;
  const sent = new Set([...bodyFields(doc, giver)].filter((n) => n !== "\0password"));
  const update = ops.find((o) =>
    o.template === read.template && ["PUT", "PATCH"].includes(o.method)
  );
  const fields = update ? [...bodyFields(doc, update)] : [];
  if (fields.length < 2 || !fields.every((n) => sent.has(n))) return undefined;
  return searchedLink(doc, giver, param);
}

/** The methods of an item the account's own id fills: its read, update and delete. */
const OWN_METHODS = new Set(["GET", "PUT", "PATCH", "DELETE"]);

/** What answers the account: the login, its sign-up, and reads of no parameter signed in with it. */
function giversOf(doc: Node, ops: OpenApiOperation[], login: Login): OpenApiOperation[] {
  const reads = ops.filter((o) =>
    o.method === "GET" && !o.template.includes("{") && usesLogin(o.node, doc, login)
  );
  return [login.op, ...login.register ? [login.register] : [], ...reads];
}

/**
 * The link of `op`'s item parameter to what answers the signed-in account,
 * when `op` reads, updates or deletes an item of the account's own shape
 * (see `own_read.ts`); none otherwise.
 *
 * @example
 * ```ts
 * import { operationsOf } from "./operations.ts";
 * import { ownItemLink } from "./own_item_link.ts";
 * const props = { id: { type: "integer" }, email: { type: "string" } };
 * const ok = { 200: { content: { "application/json": { schema: { properties: props } } } } };
 * const id = [{ name: "id", in: "path", required: true }];
 * const doc = { paths: {
 *   "/register": { post: { responses: ok } },
 *   "/users/{id}": { get: { parameters: id, responses: ok }, delete: { parameters: id } },
 * } };
 * const ops = operationsOf(doc);
 * const login = { op: ops[0], schemes: new Map() };
 * if (ownItemLink(doc, ops, login, ops[2])?.producer !== ops[0]) throw new Error();
 * ```
 */
export function ownItemLink(
  doc: Node,
  ops: OpenApiOperation[],
  login: Login,
  op: OpenApiOperation,
): ParamLink | undefined {
  const param = itemParam(op)?.[0];
  if (!OWN_METHODS.has(op.method) || param === undefined) return undefined;
  // An update sending a password sends the run's own (`run_values.ts`): the credentials stay.
  // No GET of the item: its listing's items (`listed_read.ts`).
  const read = op.method === "GET" ? op : itemRead(doc, ops, op);
  if (!read) return undefined;
  const givers = giversOf(doc, ops, login).filter((g) => g !== op);
  const sign = givers.filter((g) => g === login.op || g === login.register);
  const link = ownLink(doc, givers, read, param) ?? nounLink(doc, givers, read, param) ??
    sentLink(doc, givers.filter((g) => g === login.op || g === login.register), read, param) ??
    subjectLink(doc, login, read, param) ?? updatedLink(doc, ops, login, read, param) ??
    updateAnswerLink(doc, sign, ops, read, param);
  return link && { ...link, param };
}

/**
 * Whether `op` deletes the item of the signed-in account's own shape, the
 * account itself (see `own_read.ts`).
 *
 * @example
 * ```ts
 * import { deletesOwnItem } from "./own_item_link.ts";
 * const op = { method: "DELETE", template: "/notes", node: {} } as never;
 * if (deletesOwnItem({}, op, { op, schemes: new Map() } as never)) throw new Error();
 * ```
 */
export function deletesOwnItem(doc: Node, op: OpenApiOperation, login: Login): boolean {
  if (op.method !== "DELETE" || !op.template.includes("{")) return false;
  return ownItemLink(doc, operationsOf(doc), login, op) !== undefined;
}
