/**
 * A path nested under the signed-in account's own item names the account
 * with the id `own_read.ts` reads for that item. A NestJS Trello-like API
 * measured by hand documents `GET /users/{id}` (answering what its sign-up
 * answers: the account's own shape) and `POST`/`GET
 * /users/{userId}/columns`, which it refuses 403 for any user but the
 * caller. Nothing made a user but the sign-up, so `{userId}` was read from
 * `GET /users`' first entry: the run's own account only on a fresh
 * database. On the second run it was the first run's account, the column's
 * create was refused, and the cards and comments made under it were
 * skipped (5 of 21 operations accepted, 20 on the first run).
 *
 * The evidence is the item, not the parameter's name: the parameter stands
 * where the account's own item's does (`/users/{userId}` is `/users/{id}`
 * but for the name), and `own_item_link.ts` finds that item's id in what
 * answers the account. Only a parameter nothing but a listing's first
 * entry gives moves; one a create of the run's gives stays.
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";
import type { ParamLink } from "./document_links.ts";
import type { Login } from "./login.ts";
import type { OpenApiOperation } from "./operations.ts";
import { ownItemLink } from "./own_item_link.ts";
import type { Inferred } from "./prerequisites.ts";

/** The template with every parameter's name left out, so `/users/{userId}` is `/users/{id}`. */
const unnamed = (template: string) => template.replace(/\{[^}]+\}/g, "{}");

/**
 * Each path parameter of `template` with more segments after it, and the
 * template up to it (`["userId", "/users/{userId}"]` of `/users/{userId}/columns`).
 *
 * @example
 * ```ts
 * import { parentParams } from "./account_parent.ts";
 * const got = parentParams("/users/{userId}/columns/{id}");
 * if (JSON.stringify(got) !== '[["userId","/users/{userId}"]]') throw new Error(JSON.stringify(got));
 * ```
 */
export function parentParams(template: string): [string, string][] {
  const out: [string, string][] = [];
  for (const match of template.matchAll(/\{([^}]+)\}(?=\/[^/])/g)) {
    out.push([match[1], template.slice(0, match.index + match[0].length)]);
  }
  return out;
}

/** The link of `param` to the account's id, when `prefix` is the account's own item. */
function accountLink(
  doc: Node,
  ops: OpenApiOperation[],
  login: Login,
  prefix: string,
  param: string,
): ParamLink | undefined {
  const items = ops.filter((o) => unnamed(o.template) === unnamed(prefix));
  // The item's read first: an update sending a password is no evidence either way.
  items.sort((a, b) => Number(b.method === "GET") - Number(a.method === "GET"));
  for (const item of items) {
    const link = ownItemLink(doc, ops, login, item);
    if (link) return { ...link, param };
  }
  return undefined;
}

/**
 * `inferred` with each parameter a path nests under the account's own item,
 * which only a listing's first entry gave, read from what answers the
 * account instead (see the module).
 *
 * @example
 * ```ts
 * import { withAccountParent } from "./account_parent.ts";
 * import { operationsOf } from "./operations.ts";
 * const props = { id: { type: "integer" }, email: { type: "string" } };
 * const ok = { 200: { content: { "application/json": { schema: { properties: props } } } } };
 * const p = (name: string) => [{ name, in: "path", required: true }];
 * const doc = { paths: {
 *   "/register": { post: { responses: ok } },
 *   "/users/{id}": { get: { parameters: p("id"), responses: ok } },
 *   "/users/{userId}/notes": { post: { parameters: p("userId") } },
 * } };
 * const ops = operationsOf(doc);
 * const [register, , notes] = ops;
 * const got = withAccountParent(doc, ops, { params: new Map(), login: { op: register, schemes: new Map() } });
 * const [link] = got.params.get(notes) ?? [];
 * if (link?.producer !== register || link.param !== "userId") throw new Error();
 * ```
 */
export function withAccountParent(
  doc: Node,
  ops: OpenApiOperation[],
  inferred: Inferred,
): Inferred {
  const { login } = inferred;
  if (!login) return inferred;
  const params = new Map(inferred.params);
  for (const op of ops) {
    for (const [param, prefix] of parentParams(op.template)) {
      const links = params.get(op) ?? [];
      const given = links.find((l) => l.param === param);
      // A listing's first entry, with no create of the run's before it, is anyone's.
      if (given && (given.from !== "listing" || given.after)) continue;
      const link = accountLink(doc, ops, login, prefix, param);
      if (link) params.set(op, [...links.filter((l) => l !== given), link]);
    }
  }
  return { ...inferred, params };
}
