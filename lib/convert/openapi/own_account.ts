/**
 * An id a body names of what the suite's sign-up makes too is the
 * signed-in account's own. A Hono backend's document has two creates of
 * users answering the same schema: `POST /api/auth/register`, which the
 * suite registers its account with, and `POST /api/user`, which only an
 * administrator may call (the document does not say so). The `userId` of
 * `POST /api/comment` and of `DELETE /api/favArticles` was read from the
 * users' create, refused for the signed-up account, so neither was sent;
 * the favourite to remove was the account's own anyway. Only a body's
 * link moves: a path's id (`DELETE /api/user/{id}`) would end the account
 * the flow signs in with. The shape must be more than an id: an API whose
 * every create answers `{id}` says nothing of which is the account. An id
 * no create links is the account's too when it can name nothing else
 * (account_reference.ts: a recipe's `submitter_id`), or when the answers
 * show its noun holding the account (embedded_account.ts: a project's
 * `members`), or when a listing of the sign-up's answers is all that gives
 * it (listed_account.ts: a task's `user_id`).
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";
import { withAccountReferences } from "./account_reference.ts";
import { withEmbeddedAccounts } from "./embedded_account.ts";
import { withListedAccount } from "./listed_account.ts";
import type { BodyLink } from "./body_links.ts";
import type { OpenApiOperation } from "./operations.ts";
import type { Inferred } from "./prerequisites.ts";
import { responseSchemas } from "./producers.ts";
import { properties } from "./schema_properties.ts";

/**
 * `inferred` with each body link whose producer answers what the login's
 * sign-up answers (the same 2xx schemas) read from the sign-up instead; with
 * `ops`, the document's operations, and each id that can name only the
 * account read from the sign-up too (account_reference.ts).
 *
 * @example
 * ```ts
 * import { withOwnAccount } from "./own_account.ts";
 * const answer = { 200: { content: { "application/json": { schema: { properties: { id: {}, name: {} } } } } } };
 * const register = { method: "POST", template: "/register", node: { responses: answer } } as never;
 * const users = { method: "POST", template: "/users", node: { responses: answer } } as never;
 * const comment = { method: "POST", template: "/comments" } as never;
 * const link = { param: "userId", producer: users, path: ["id"], from: "property" as const, body: ["userId"] };
 * const login = { op: register, path: [], register, schemes: new Map() };
 * const got = withOwnAccount({}, { params: new Map(), body: new Map([[comment, [link]]]), login });
 * if (got.body?.get(comment)?.[0].producer !== register) throw new Error();
 * ```
 */
export function withOwnAccount(
  doc: Node,
  inferred: Inferred,
  ops: OpenApiOperation[] = [],
): Inferred {
  const own = withAccountReferences(
    doc,
    ops,
    withListedAccount(doc, sameAnswerLinks(doc, inferred)),
  );
  return withEmbeddedAccounts(doc, ops, own);
}

/** `inferred` with each body link whose producer answers what the sign-up answers read from the sign-up. */
function sameAnswerLinks(doc: Node, inferred: Inferred): Inferred {
  const register = inferred.login?.register;
  if (!register || !inferred.body) return inferred;
  const schemas = responseSchemas(doc, register);
  // The account's own shape, not the `{id}` every create of an API may answer.
  if (!schemas.some((s) => properties(doc, s).length > 1)) return inferred;
  const answer = JSON.stringify(schemas);
  const same = (link: BodyLink) =>
    link.producer !== register && JSON.stringify(responseSchemas(doc, link.producer)) === answer;
  const body = new Map<typeof register, BodyLink[]>();
  for (const [op, links] of inferred.body) {
    body.set(op, links.map((l) => same(l) ? { ...l, producer: register } : l));
  }
  return { ...inferred, body };
}
