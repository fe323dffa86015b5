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
 * the sign-up's) does, among them the parameter's own name or `id`.
 *
 * An answer of another shape names the account by its noun instead:
 * hapi-swagger's document of a Hapi API answers `POST /register` with
 * `{data: {userId}}` and `GET /users/{id}` (the signed-in user's own only)
 * with `{data: {id, username, …}}`. A member of the login's or sign-up's
 * answer named for the item's collection (`userId` of `/users/{id}`), the
 * parameter being `id` or that very name, is the account's id.
 *
 * The read may answer the account as the sign-up made it instead: an
 * Express + knex social API's register takes `{username, email,
 * password}` and answers `{message, id}` ("the ID of the newly registered
 * user"), and `GET /api/users/{id}` answers `{userId, username, email,
 * role}`. An item whose read answers every field the sign-up (or the
 * login) sends but the password, and an id of its own, is the account
 * that operation made; the id is the one it answers (`id`, the
 * parameter's name, or the id named for the collection).
 *
 * The giver may answer the account one level down (a login's `{token,
 * user: {id, …}}`), or be a read of no parameter signed in with the
 * login's token (`GET /me`) answering the item's very properties.
 *
 * The update and the delete of that item (the same template, whose GET is
 * such a read) are the account's own too: the social API refuses `PUT`
 * and `DELETE /api/users/{id}` with 403 to anyone but that user, and the
 * flow had sent a made-up id. The delete ends the account, so the flow
 * holding it keeps its own sign-in and runs it last (`account_delete.ts`);
 * an update that sends a password is the account's too: the password a body
 * sends is the run's own (`run_values.ts`), the one the flow signed in
 * with, so the credentials stay. The evidence is `own_item_link.ts`.
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";
import type { OpenApiOperation } from "./operations.ts";
import { itemParam } from "./listed_read.ts";
import { ownItemLink } from "./own_item_link.ts";
import type { Inferred } from "./prerequisites.ts";

/**
 * `inferred` with each read, update and delete of an item of the account's
 * own shape, whose parameter nothing else gives, reading it from the
 * login's answer (see the module).
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
  const params = new Map(inferred.params);
  for (const op of ops) {
    const param = itemParam(op)?.[0];
    const links = params.get(op) ?? [];
    // A listing's first item, with no create of the run's before it, is anyone's.
    const given = links.find((l) => l.param === param);
    if (param === undefined || (given && (given.from !== "listing" || given.after))) continue;
    const link = ownItemLink(doc, ops, login, op);
    if (link) params.set(op, [...links.filter((l) => l !== given), link]);
  }
  return { ...inferred, params };
}
