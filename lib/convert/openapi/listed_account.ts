/**
 * A body member only a listing's first entry gives, where that listing
 * lists what the sign-up answers: the run's own account, read from the
 * sign-up. A FastAPI team task manager assigns a task with
 * `POST /admin/tasks {…, user_id}`; nothing makes a user but its
 * `POST /register`, answering `UserOut`, and `GET /admin/users` lists
 * `UserOut`s. `user_id` was read from the listing's first entry, the run's
 * own account on a fresh database only: on the second run it was the first
 * run's, and the status update and comment its server allows only on a task
 * assigned to the caller answered 404. The listing lists accounts, one of
 * which the run made and signs in as; its first is anyone's. The body
 * analogue of account_parent.ts (a path under the account's own item).
 *
 * The evidence is the schema, not the member's name: the listing's items
 * are the very schema the sign-up answers (after `$ref`s), an object of more
 * than an id. Only a link to a listing's first entry with no create of the
 * run's before it (`after`) moves; the member keeps its place in the item.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import type { BodyLink } from "./body_links.ts";
import { deref } from "./deref.ts";
import type { OpenApiOperation } from "./operations.ts";
import type { Inferred } from "./prerequisites.ts";
import { responseSchemas } from "./producers.ts";
import { properties } from "./schema_properties.ts";

/** The item schemas of `op`'s answers that are lists, as text. */
function listedShapes(doc: Node, op: OpenApiOperation): string[] {
  return responseSchemas(doc, op).flatMap((s) => {
    const list = deref(doc, s);
    return isNode(list) && list.type === "array" ? [JSON.stringify(deref(doc, list.items))] : [];
  });
}

/**
 * `inferred` with each body link to a listing's first entry whose items are what the sign-up
 * answers read from the sign-up's answer instead (see the module doc).
 *
 * @example
 * ```ts
 * import { withListedAccount } from "./listed_account.ts";
 * const user = { properties: { id: {}, name: {} } };
 * const ok = (schema: unknown) => ({ 200: { content: { "application/json": { schema } } } });
 * const register = { method: "POST", template: "/register", node: { responses: ok(user) } } as never;
 * const users = { method: "GET", template: "/users", node: { responses: ok({ type: "array", items: user }) } } as never;
 * const task = { method: "POST", template: "/tasks" } as never;
 * const link = { param: "user_id", producer: users, path: ["0", "id"], from: "listing" as const, body: ["user_id"] };
 * const login = { op: register, path: [], register, schemes: new Map() };
 * const got = withListedAccount({}, { params: new Map(), body: new Map([[task, [link]]]), login });
 * const [moved] = got.body?.get(task) ?? [];
 * if (moved.producer !== register || moved.path.join() !== "id") throw new Error();
 * ```
 */
export function withListedAccount(doc: Node, inferred: Inferred): Inferred {
  const register = inferred.login?.register;
  if (!register || !inferred.body) return inferred;
  const account = responseSchemas(doc, register).filter((s) => properties(doc, s).length > 1)
    .map((s) => JSON.stringify(deref(doc, s)));
  if (account.length === 0) return inferred;
  const moved = (link: BodyLink): BodyLink => {
    if (link.from !== "listing" || link.after || link.producer === register) return link;
    const first = link.path.indexOf("0");
    if (first < 0 || first === link.path.length - 1) return link;
    if (!listedShapes(doc, link.producer).some((s) => account.includes(s))) return link;
    const { param, body, each, capture } = link;
    return {
      param,
      body,
      ...(each ? { each } : {}),
      ...(capture ? { capture } : {}),
      producer: register,
      path: link.path.slice(first + 1),
      from: "property",
    };
  };
  const body = new Map<OpenApiOperation, BodyLink[]>();
  for (const [op, links] of inferred.body) body.set(op, links.map(moved));
  return { ...inferred, body };
}
