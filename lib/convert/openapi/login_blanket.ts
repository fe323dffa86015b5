/**
 * A requirement an operation states that its login states too, word for
 * word. The login hands the token out, so a requirement it states is one no
 * caller can meet before signing in: its author wrote it onto every
 * operation (a FastAPI team task manager appends `{BearerAuth: []}` to each
 * operation's `security`, its `POST /login` and `POST /register` included),
 * and on a sign-up it says nothing about who may sign up. inherited_signup.ts
 * reads such a sign-up as one that only inherits the requirement; a sign-up
 * stating one its login does not (an open login beside an administrator's
 * create of users) keeps it.
 *
 * @module
 */
import { isNode } from "../../check/openapi_operations.ts";
import type { OpenApiOperation } from "./operations.ts";

/** A `security` list as text, each requirement's scheme names and scopes in order. */
function written(security: unknown): string | undefined {
  if (!Array.isArray(security)) return undefined;
  return JSON.stringify(
    security.map((r) =>
      isNode(r) ? Object.entries(r).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0) : r
    ),
  );
}

/**
 * Whether `op` states its own requirement and `login` states the same one, which names a scheme.
 *
 * @example
 * ```ts
 * import { statesLoginsRequirement } from "./login_blanket.ts";
 * const op = (security?: unknown) => ({ node: security === undefined ? {} : { security } }) as never;
 * const bearer = [{ BearerAuth: [] }];
 * if (!statesLoginsRequirement(op(bearer), op([{ BearerAuth: [] }]))) throw new Error();
 * if (statesLoginsRequirement(op(bearer), op())) throw new Error();
 * if (statesLoginsRequirement(op([{}]), op([{}]))) throw new Error();
 * ```
 */
export function statesLoginsRequirement(op: OpenApiOperation, login: OpenApiOperation): boolean {
  const own = op.node.security;
  const named = Array.isArray(own) &&
    own.some((r) => isNode(r) && Object.keys(r).length > 0);
  return named && written(own) === written(login.node.security);
}
