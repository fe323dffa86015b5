/**
 * The read of an item of the signed-in account's own shape reads the
 * account's id from the login's answer. A Koa API measured by hand answers
 * its login with the user it signs in (`{id, email, username, createdAt,
 * updatedAt}`, the session in a cookie) and `GET /api/v1/users/{userId}`
 * with the same properties, and nothing else in it makes a user: the
 * summary asked the user to fill in `userId`, whose sample (`1`) names no
 * user of a fresh server. The evidence, all of it: a GET of an item (the
 * template ends with the parameter) that no other producer gives, whose
 * 2xx answer holds the very properties (more than one) the login's (else
 * the sign-up's) does, among them the parameter's own name or `id`. Only
 * a read: a delete of that item would end the account the flow signs in
 * with, and an update may change its credentials.
 *
 * An answer of another shape names the account by its noun instead:
 * hapi-swagger's document of a Hapi API answers `POST /register` with
 * `{data: {userId}}` and `GET /users/{id}` (the signed-in user's own only)
 * with `{data: {id, username, …}}`. A member of the login's or sign-up's
 * answer named for the item's collection (`userId` of `/users/{id}`), the
 * parameter being `id` or that very name, is the account's id.
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";
import type { ParamLink } from "./document_links.ts";
import { singular } from "../names.ts";
import type { OpenApiOperation } from "./operations.ts";
import type { Inferred } from "./prerequisites.ts";
import { responseSchemas } from "./producers.ts";
import { plainName } from "./required_props.ts";
import { findProperty, properties } from "./schema_properties.ts";

/** The property names of an operation's 2xx answers, one set; none when it shows one or none. */
function shape(doc: Node, op: OpenApiOperation): Set<string> | undefined {
  const names = responseSchemas(doc, op).flatMap((s) => properties(doc, s).map(([n]) => n));
  return names.length > 1 ? new Set(names) : undefined;
}

/** Whether two shapes hold the same names. */
function same(a: Set<string>, b: Set<string>): boolean {
  return a.size === b.size && [...a].every((n) => b.has(n));
}

/** The link of `op`'s item parameter to the first giver answering its shape (see the module). */
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
    const theirs = shape(doc, producer);
    if (theirs && same(own, theirs)) return { param, producer, path: [id], from: "property" };
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

/**
 * `inferred` with each GET of an item of the account's own shape, whose
 * parameter nothing else gives, reading it from the login's answer (see
 * the module).
 *
 * @example
 * ```ts
 * import { operationsOf } from "./operations.ts";
 * import { withOwnRead } from "./own_read.ts";
 * const props = { id: { type: "integer" }, email: { type: "string" } };
 * const ok = { 200: { content: { "application/json": { schema: { properties: props } } } } };
 * const userId = [{ name: "userId", in: "path", required: true }];
 * const doc = { paths: {
 *   "/login": { post: { responses: ok } },
 *   "/users/{userId}": { get: { parameters: userId, responses: ok } },
 * } };
 * const [login, read] = operationsOf(doc);
 * const got = withOwnRead(doc, [login, read], { params: new Map(), login: { op: login, schemes: new Map() } });
 * const [link] = got.params.get(read) ?? [];
 * if (link?.producer !== login || link.path.join() !== "id") throw new Error();
 * ```
 */
export function withOwnRead(doc: Node, ops: OpenApiOperation[], inferred: Inferred): Inferred {
  const { login } = inferred;
  if (!login) return inferred;
  const givers = login.register ? [login.op, login.register] : [login.op];
  const params = new Map(inferred.params);
  for (const op of ops) {
    const param = /\{([^}]+)\}\/?$/.exec(op.template)?.[1];
    const given = (params.get(op) ?? []).some((l) => l.param === param);
    if (op.method !== "GET" || param === undefined || given) continue;
    const others = givers.filter((g) => g !== op);
    const link = ownLink(doc, others, op, param) ?? nounLink(doc, others, op, param);
    if (link) params.set(op, [...params.get(op) ?? [], link]);
  }
  return { ...inferred, params };
}
