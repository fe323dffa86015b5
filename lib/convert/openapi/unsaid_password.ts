/**
 * A sign-up whose document omits the password: `swagger-autogen` comments of
 * an Express shop list `POST /auth/register {username, firstname, lastname,
 * email, phone, address}` while its code also requires a `password`, and its
 * login takes `{username, password, email}`. An account is made to be signed
 * in to: a create named for signing up that takes every other field the login
 * takes, and no password at all, is that account's register, and sends the
 * run's password under the login's name for it (login_account.ts). The
 * evidence: the path's words (`sign_words.ts`), the login's fields, and a
 * body naming no password, so nothing it documents is replaced.
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import { isCollection, type OpenApiOperation } from "./operations.ts";
import { properties } from "./schema_properties.ts";
import { jsonBodySchema } from "./json_body.ts";
import { SIGN_UP } from "./sign_words.ts";

/** The marker login.ts's `bodyFields` gives a password field. */
const PASSWORD = "\0password";

/**
 * The create named for signing up whose body takes every field of `wanted`
 * (the login's credential fields, `bodyFields`) but its password, and names
 * no password (`fieldsOf` gives none); `open` says it needs no credentials.
 *
 * @example
 * ```ts
 * import { signUpOmittingPassword } from "./unsaid_password.ts";
 * import { operationsOf } from "./operations.ts";
 * const [register] = operationsOf({ paths: { "/auth/register": { post: {} } } });
 * const fields = () => new Set(["username", "email"]);
 * const found = signUpOmittingPassword([register], ["username", "\0password"], fields, () => true);
 * if (found !== register) throw new Error();
 * if (signUpOmittingPassword([register], ["username"], fields, () => true) !== undefined) throw new Error();
 * ```
 */
export function signUpOmittingPassword(
  ops: OpenApiOperation[],
  wanted: string[],
  fieldsOf: (op: OpenApiOperation) => Set<string>,
  open: (op: OpenApiOperation) => boolean,
): OpenApiOperation | undefined {
  const others = wanted.filter((f) => f !== PASSWORD);
  if (!wanted.includes(PASSWORD) || others.length === 0) return undefined;
  return ops.find((op) => {
    if (op.method !== "POST" || !isCollection(op.template) || !SIGN_UP.test(op.template)) {
      return false;
    }
    const has = fieldsOf(op);
    return !has.has(PASSWORD) && others.every((f) => has.has(f)) && open(op);
  });
}

/**
 * The name of the password `login`'s JSON body takes (by `isPassword`), to
 * send from a sign-up whose own body names none; none when the sign-up names
 * one or the login takes none.
 *
 * @example
 * ```ts
 * import { unsaidPassword } from "./unsaid_password.ts";
 * const body = (properties: object) => ({ requestBody: { content: { "application/json": {
 *   schema: { type: "object", properties } } } } });
 * const login = { node: body({ username: {}, pass: {} }) } as never;
 * const isPassword = (name: string) => name === "pass" || name === "password";
 * if (unsaidPassword({}, { node: body({ username: {} }) } as never, login, isPassword) !== "pass") throw new Error();
 * if (unsaidPassword({}, { node: body({ password: {} }) } as never, login, isPassword) !== undefined) throw new Error();
 * ```
 */
export function unsaidPassword(
  doc: Node,
  register: OpenApiOperation,
  login: OpenApiOperation,
  isPassword: (name: string, schema?: Node) => boolean,
): string | undefined {
  const own = properties(doc, deref(doc, jsonBodySchema(doc, register.node)));
  if (own.length === 0 || own.some(([n, p]) => isPassword(n, p))) return undefined;
  return properties(doc, deref(doc, jsonBodySchema(doc, login.node)))
    .find(([n, p]) => isPassword(n, p))?.[0];
}
