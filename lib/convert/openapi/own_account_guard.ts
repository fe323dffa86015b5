/**
 * The run's one sign-in (`sign_in_once.ts`) signs up only the account the
 * run made. The summary says how to sign in as an account the user has
 * (its email and password in a `--vars-file`: `login_account.ts`), but the
 * setup flow still sent the sign-up with the user's values, and a sign-up
 * the server refused (the user's address taken, a sign-up closed, a member
 * its document types as a bare string and the server checks, as a hapi
 * sales API's national tax number) failed the setup, which skips every
 * flow: the way the summary gave ran nothing.
 *
 * Whose account it is is told by where the password came from, not by a
 * name: the run's made password is kept in a var of its own
 * (`made_password`), the flow's `password` reads it, and the sign-up runs
 * only while `password` still holds it. A password the user gives in a
 * `--vars-file` replaces `password` alone, so the sign-up is skipped and
 * the login signs in as the user's account. Only where the login answers
 * the token and a single create registers the account: a sign-up whose own
 * answer is the token, or one made of two creates, is still sent.
 *
 * @module
 */
import { ymap, type YNode } from "../yaml_out.ts";
import { type Login, tokenGiver } from "./login.ts";
import type { OpenApiOperation } from "./operations.ts";

/** The var keeping the run's made password, which the flow's `password` reads. */
export const MADE_PASSWORD = "made_password";

/**
 * The condition of the setup's step of `op` when it is the sign-up of the
 * run's own account (its body sends the run's `password`, `runVars`): it
 * holds while `password` is the one the run made. Adds `made_password` to
 * `runVars`, so the flow's vars keep it. None for any other step.
 *
 * @example
 * ```ts
 * import { ownAccountGuard } from "./own_account_guard.ts";
 * const op = (template: string) => ({ method: "POST", template, node: {} }) as never;
 * const login = { op: op("/login"), register: op("/users"), schemes: new Map() };
 * const used = new Set(["email", "password"]);
 * if (ownAccountGuard(login, login.register, used) === undefined || !used.has("made_password")) {
 *   throw new Error("the sign-up is guarded");
 * }
 * if (ownAccountGuard(login, login.op, used) !== undefined) throw new Error("not the login");
 * ```
 */
export function ownAccountGuard(
  login: Login | undefined,
  op: OpenApiOperation,
  runVars: Set<string>,
): YNode | undefined {
  if (login?.register !== op || login.credentials !== undefined) return undefined;
  if (tokenGiver(login) !== login.op || !runVars.has("password")) return undefined;
  runVars.add(MADE_PASSWORD);
  return ymap([["value", "${vars.password}"], ["equals", `\${vars.${MADE_PASSWORD}}`]]);
}
