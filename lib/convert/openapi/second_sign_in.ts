/**
 * A flow with several operations that end the session its login made (a
 * revoke of the session, a revoke of all of them, a sign-out: `sign_out.ts`
 * runs them last, one after another) signs in again before each after the
 * first. On better-auth's own document `/revoke-session`, `/revoke-sessions`
 * and `/sign-out` ran on the one sign-in, and once the first had ended the
 * session the second answered 401. The session is the item the login made,
 * so each later ender gets its own, as a second delete of one item gets its
 * own create (`second_producer.ts`): a copy of the login just before it,
 * whose token (and cookie, in a jar) it alone reads.
 *
 * @module
 */
import type { OpenApiOperation } from "./operations.ts";
import type { Inferred } from "./prerequisites.ts";
import { signsOut } from "./sign_out.ts";

const nameOf = (op: OpenApiOperation) => `${op.method} ${op.template}`;

/** The login an ender signs in again with, and why: `second_producer.ts`'s `OwnItem`. */
export interface SecondSignIn {
  producer: OpenApiOperation;
  why: string;
}

/**
 * For a flow's operations in the order they run, each one ending the
 * session after an earlier one ended it, with the login it signs in again
 * with; none where the flow has no login step of its own.
 *
 * @example
 * ```ts
 * import { operationsOf } from "./operations.ts";
 * import { secondSignIns } from "./second_sign_in.ts";
 * const ops = operationsOf({ paths: {
 *   "/login": { post: {} }, "/revoke-session": { post: {} }, "/logout": { post: {} },
 * } });
 * const [login, revoke, logout] = ops;
 * const own = secondSignIns([login, revoke, logout], { params: new Map(), login: { op: login, schemes: new Map() } });
 * if (own.size !== 1 || own.get(logout)?.producer !== login) throw new Error();
 * if (own.get(logout)?.why !== "a second POST /login for POST /logout, which ends the session POST /revoke-session ended too") {
 *   throw new Error(own.get(logout)?.why);
 * }
 * ```
 */
export function secondSignIns(
  ops: OpenApiOperation[],
  inferred: Inferred,
): Map<OpenApiOperation, SecondSignIn> {
  const out = new Map<OpenApiOperation, SecondSignIn>();
  const login = inferred.login?.op;
  if (login === undefined || !ops.includes(login)) return out;
  const enders = ops.filter((op) => op !== login && signsOut(op));
  for (const op of enders.slice(1)) {
    const why = `a second ${nameOf(login)} for ${nameOf(op)}, which ends the session ${
      nameOf(enders[0])
    } ended too`;
    out.set(op, { producer: login, why });
  }
  return out;
}
