/**
 * A sign-up in two creates: the account (`POST /users {email, firstName}`,
 * no password) and then its credentials, a create nested directly under the
 * item the first makes (`POST /users/{email}/user-credentials {password}`),
 * as LoopBack 4's generated relation controllers serve a user's `hasOne`
 * credentials. The document's evidence is the path (the second create's
 * collection hangs from the first's item) and the bodies: the first takes
 * every name the login takes but no password, the second the password,
 * both asking for no credentials. Read so, each run signs up an account of
 * its own and signs in with it, where before no create took the login's
 * every field and the summary asked for an account of the user's, which a
 * suite that deletes what it made deleted on its first run.
 *
 * @module
 */
import { isCollection, type OpenApiOperation } from "./operations.ts";

/** The two creates of a sign-up (see the module doc). */
export interface NestedSignup {
  /** The create of the account: every name the login takes, no password. */
  register: OpenApiOperation;
  /** The create under the account's item that sets its password. */
  credentials: OpenApiOperation;
}

/** What the login module gives this one: the login's fields and which operations need none. */
export interface SignupEvidence {
  /** The login's credential fields (`bodyFields`' names, `"\0password"` the password). */
  wanted: readonly string[];
  /** An operation's credential fields, as for the login. */
  fields(op: OpenApiOperation): Set<string>;
  /** Whether an operation asks for no credentials. */
  open(op: OpenApiOperation): boolean;
}

/**
 * The sign-up in two creates of the login `login`, when the document has one.
 *
 * @example
 * ```ts
 * import { nestedSignup } from "./nested_signup.ts";
 * const op = (template: string, fields: string[]) => ({ method: "POST", template, fields }) as never;
 * const users = op("/users", ["email", "firstName"]);
 * const creds = op("/users/{email}/user-credentials", ["userId", "\0password"]);
 * const login = op("/users/login", ["email", "\0password"]);
 * const evidence = {
 *   wanted: ["email", "\0password"],
 *   fields: (o: { fields: string[] }) => new Set(o.fields),
 *   open: () => true,
 * };
 * const got = nestedSignup([users, creds, login], login, evidence as never);
 * if (got?.register !== users || got.credentials !== creds) throw new Error();
 * ```
 */
export function nestedSignup(
  ops: readonly OpenApiOperation[],
  login: OpenApiOperation,
  evidence: SignupEvidence,
): NestedSignup | undefined {
  const names = evidence.wanted.filter((f) => f !== "\0password");
  if (names.length === evidence.wanted.length || names.length === 0) return undefined;
  const creates = ops.filter((op) => op !== login && op.method === "POST" && evidence.open(op));
  for (const register of creates) {
    if (!isCollection(register.template)) continue;
    const has = evidence.fields(register);
    if (has.has("\0password") || !names.every((n) => has.has(n))) continue;
    const credentials = creates.find((op) =>
      underItemOf(register.template, op.template) && evidence.fields(op).has("\0password")
    );
    if (credentials) return { register, credentials };
  }
  return undefined;
}

/** Whether `template` is a collection directly under an item of `collection` (`/users/{id}/x`). */
function underItemOf(collection: string, template: string): boolean {
  const base = `${collection.replace(/\/$/, "")}/`;
  if (!template.startsWith(base)) return false;
  return /^\{[^}/]+\}\/[^/{}]+\/?$/.test(template.slice(base.length));
}
