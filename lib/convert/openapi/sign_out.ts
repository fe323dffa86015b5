/**
 * An operation that signs its client out: its path's last segment or its
 * operationId says so (`/auth/sign-out`, `/logout`, `logOff`, `signOut`),
 * and it names no item. It ends the session (or token) every later step of
 * its flow signs in with, so a flow with a login runs it last (only the
 * signed-in account's own delete, `account_delete.ts`, follows it): once a
 * better-auth server's POSTs carried the browser's `Origin`
 * (`browser_origin.ts`), its `POST /api/auth/sign-out` succeeded in the
 * middle of the flow and the steps after it answered 401. A revoke of the
 * session, or of its tokens, is a sign-out too.
 *
 * @module
 */
import type { OpenApiOperation } from "./operations.ts";

/**
 * `logout`, `log-out`, `sign_out`, `signOut`, `logoff` (of every session too: `logout-all`,
 * `logoutAll`, `signOutEverywhere`), and a revoke of the session (or all of
 * them: better-auth's `/revoke-session`, `/revoke-sessions`), which ends it too, and of its tokens
 * (`/auth/revoke_refresh`, `/revoke-token`: the renewal must run before its refresh token is
 * revoked): the whole word, nothing more (`/revoke-other-sessions` keeps the client's own).
 */
const SIGN_OUT =
  /^(?:(?:log|sign)[-_]?(?:out|off)(?:[-_]?(?:all|everywhere))?|revoke[-_]?(?:all[-_]?)?sessions?|revoke[-_]?(?:(?:access|refresh)(?:[-_]?tokens?)?|tokens?))$/i;

/**
 * Whether `op` signs its client out (see the module).
 *
 * @example
 * ```ts
 * import { signsOut } from "./sign_out.ts";
 * const op = (method: string, template: string, operationId?: string) =>
 *   ({ method, template, node: { operationId } }) as never;
 * if (!signsOut(op("POST", "/api/auth/sign-out")) || !signsOut(op("GET", "/x", "logOut"))) throw new Error();
 * if (!signsOut(op("POST", "/revoke-session")) || signsOut(op("POST", "/revoke-other-sessions"))) throw new Error();
 * if (!signsOut(op("DELETE", "/auth/revoke_refresh")) || signsOut(op("POST", "/keys/revoke"))) throw new Error();
 * if (signsOut(op("POST", "/users/{id}/logout")) || signsOut(op("GET", "/logouts"))) throw new Error();
 * if (!signsOut(op("POST", "/auth/logout-all")) || !signsOut(op("POST", "/x", "logoutAll"))) throw new Error();
 * ```
 */
export function signsOut(op: OpenApiOperation): boolean {
  if (op.template.includes("{")) return false;
  const last = op.template.split("/").filter((s) => s !== "").at(-1) ?? "";
  const id = typeof op.node.operationId === "string" ? op.node.operationId : "";
  return SIGN_OUT.test(last) || SIGN_OUT.test(id);
}

/**
 * `ops` with those that sign out moved last, in their order, but a revoke of the session before a
 * plain sign-out: the revoke must find the session, while the sign-out clears the client's cookie
 * whether the session is still there or not.
 *
 * @example
 * ```ts
 * import { signOutLast } from "./sign_out.ts";
 * const op = (template: string) => ({ method: "POST", template, node: {} }) as never;
 * const ops = [op("/logout"), op("/notes"), op("/notes/clear")];
 * if (signOutLast(ops).map((o) => (o as { template: string }).template).join() !== "/notes,/notes/clear,/logout") throw new Error();
 * const ends = signOutLast([op("/sign-out"), op("/revoke-session")]);
 * if ((ends[0] as { template: string }).template !== "/revoke-session") throw new Error();
 * ```
 */
export function signOutLast(ops: OpenApiOperation[]): OpenApiOperation[] {
  const out = ops.filter(signsOut);
  const revokes = out.filter((op) => /revoke/i.test(`${op.template} ${op.node.operationId ?? ""}`));
  return [
    ...ops.filter((op) => !signsOut(op)),
    ...revokes,
    ...out.filter((op) => !revokes.includes(op)),
  ];
}
