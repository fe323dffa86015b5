/**
 * The sign-up an open sign-in needs when it is no suite's login: a POST
 * needing no credentials of its own (none, or only the root's blanket
 * requirement) that takes a password and a name, makes no item
 * and is no sign-up itself, whose answer the document does not show as a
 * token the rest of the suite sends (a session login in a document that
 * declares a bearer scheme elsewhere). Its flow sends it the run's made-up
 * account (`run_values.ts`), which only the document's sign-up can make:
 * the open create taking every credential field the sign-in takes
 * (`registerFor`, the rule that finds a token login's sign-up), a create
 * or one whose path says it registers. An Express issue tracker's `POST
 * /login` (tag "Sessions") was sent a name its `POST /register` (tag
 * "Users") had never made, and answered 401 on every run; the sign-up is
 * now the sign-in's producer, copied into its flow before it
 * (`prerequisites.ts`).
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";
import { bodyFields, type Login, needsNoCredentials, registerFor } from "./login.ts";
import { makesItem } from "./makes_item.ts";
import type { OpenApiOperation } from "./operations.ts";
import type { Inferred } from "./prerequisites.ts";
import { SIGN_UP } from "./sign_words.ts";

/**
 * Each open sign-in that is no part of the suite's `login`, with the sign-up
 * that makes the account it signs in as (see the module doc).
 *
 * @example
 * ```ts
 * import { signInSignUps } from "./signin_signup.ts";
 * import { operationsOf } from "./operations.ts";
 * const account = { content: { "application/json": { schema: { properties: {
 *   username: { type: "string" }, password: { type: "string" } } } } } };
 * const doc = { paths: {
 *   "/register": { post: { tags: ["users"], requestBody: account } },
 *   "/login": { post: { tags: ["sessions"], requestBody: account } },
 * } };
 * const [register, login] = operationsOf(doc);
 * const found = signInSignUps(doc, [register, login], undefined);
 * if (found.get(login) !== register || found.has(register)) throw new Error();
 * ```
 */
export function signInSignUps(
  doc: Node,
  ops: OpenApiOperation[],
  login: Login | undefined,
): Map<OpenApiOperation, OpenApiOperation> {
  const suite = new Set([login?.op, login?.register, login?.alternate, login?.credentials]);
  const found = new Map<OpenApiOperation, OpenApiOperation>();
  for (const op of ops) {
    if (suite.has(op) || !opensSession(doc, op)) continue;
    const signUp = registerFor(doc, ops, op);
    if (signUp && signUp !== op && makesAccounts(signUp)) found.set(op, signUp);
  }
  return found;
}

/**
 * Whether `op` is an open sign-in: a POST of a password and a name, making nothing, that states
 * no requirement of its own (the root's, which an Express issue tracker puts on its sign-up and
 * sign-in alike, asks nothing of it that the sign-up is not asked).
 */
function opensSession(doc: Node, op: OpenApiOperation): boolean {
  if (op.method !== "POST" || op.role === "create" || SIGN_UP.test(`${op.template} ${op.name}`)) {
    return false;
  }
  // A requirement it only inherits from the root is a blanket one, on the sign-up too (inherited_signup.ts).
  const open = needsNoCredentials(doc, op) || op.node.security === undefined;
  if (!open || makesItem(doc, op)) return false;
  const fields = bodyFields(doc, op);
  return fields.has("\0password") && fields.size >= 2;
}

/** Whether `op` makes accounts: a create, or a path that says it registers (`/register`). */
function makesAccounts(op: OpenApiOperation): boolean {
  return op.role === "create" || SIGN_UP.test(`${op.template} ${op.name}`);
}

/**
 * `inferred` with {@linkcode signInSignUps} of its login, which `prerequisites.ts` reads as each
 * such sign-in's producer.
 *
 * @example
 * ```ts
 * import { withSignInSignUps } from "./signin_signup.ts";
 * const got = withSignInSignUps({ paths: {} }, [], { params: new Map() });
 * if (got.signUps?.size !== 0) throw new Error();
 * ```
 */
export function withSignInSignUps(
  doc: Node,
  ops: OpenApiOperation[],
  inferred: Inferred,
): Inferred {
  return { ...inferred, signUps: signInSignUps(doc, ops, inferred.login) };
}
