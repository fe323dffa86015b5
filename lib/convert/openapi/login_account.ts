/**
 * The account a login signs in as when nothing the suite can call makes
 * one: a login that no sign-up (a create taking its credential fields and
 * needing no credentials) precedes can only be given an account the user
 * has, so its identity and password are environment variables the summary
 * asks for (`LOGIN_EMAIL` or `LOGIN_USERNAME`, `LOGIN_PASSWORD`), never a
 * literal and never the run's made-up account, which the server does not
 * know (a CMS whose users only an admin creates).
 *
 * @module
 */
import type { YMap, YNode } from "../yaml_out.ts";
import type { EnvNamer } from "./auth_bearer.ts";
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { bodyFields, isSignIn, type Login } from "./login.ts";
import { isPasswordField } from "./password_field.ts";
import { formRequired } from "./form_required.ts";
import type { OpenApiOperation } from "./operations.ts";
import { perRun, type RUN_VARS, USER_NAMES } from "./run_values.ts";
import { lengthLimits } from "./length_limits.ts";
import { digitCodes, freshCodes } from "./digit_codes.ts";
import { properties } from "./schema_properties.ts";
import { signUpNames } from "./signup_names.ts";
import { makesAnotherAccount, ownIdentity } from "./another_account.ts";
import { apartVars, type FlowOps, sentApart } from "./second_signup.ts";
import { jsonBodyMedia } from "./json_body.ts";
import { unsaidPassword } from "./unsaid_password.ts";
import { loginIdentity } from "./login_identity.ts";
import { sharesIdentity } from "./one_identity.ts";
import { memberKind } from "./wrapped_member.ts";
import { apartPasswords, madeApart } from "./changed_password.ts";

const VARIABLES: Record<keyof typeof RUN_VARS, [string, string]> = {
  email: ["LOGIN_EMAIL", "the email of an account of yours"],
  username: ["LOGIN_USERNAME", "the user name of an account of yours"],
  password: ["LOGIN_PASSWORD", "the password of that account"],
};

/**
 * `node` (a login's body, as flow YAML) with each run var of `used`
 * (`${vars.email}`, `${vars.password}`) read from the environment variable
 * of the account the user signs in with, named by `env` for the login `op`.
 *
 * @example
 * ```ts
 * import { signInAs } from "./login_account.ts";
 * import { ymap } from "../yaml_out.ts";
 * const env = { envVar: (_s: string, base: string) => base };
 * const body = ymap([["email", "${vars.email}"], ["password", "${vars.password}"], ["mode", "json"]]);
 * const got = JSON.stringify(signInAs(body, new Set(["email", "password"]), env, "POST /auth/login"));
 * if (!got.includes("${ENV.LOGIN_EMAIL}") || !got.includes("${ENV.LOGIN_PASSWORD}") || !got.includes("json")) {
 *   throw new Error(got);
 * }
 * ```
 */
export function signInAs(node: YNode, used: ReadonlySet<string>, env: EnvNamer, op: string): YNode {
  if (Array.isArray(node)) return node.map((n) => signInAs(n, used, env, op));
  if (typeof node === "string") {
    return node.replace(/\$\{vars\.(email|username|password)\}/g, (ref, name: string) => {
      if (!used.has(name)) return ref;
      const [base, what] = VARIABLES[name as keyof typeof RUN_VARS];
      const why = `${op} signs in with it; no operation registers one`;
      return `\${ENV.${env.envVar("login", base, `${what}: ${why}`)}}`;
    });
  }
  if (node !== null && typeof node === "object" && node.kind === "map") {
    return { ...node, entries: node.entries.map(([k, v]) => [k, signInAs(v, used, env, op)]) };
  }
  return node;
}

/**
 * A body's fields (as flow YAML) with their credentials and names made per
 * run ({@linkcode perRun}, the vars it reads added to `runVars`), but for
 * the login `op` when no sign-up precedes it: its account is the user's
 * ({@linkcode signInAs}). A `multipart` field's text parts are made so too, its files kept.
 *
 * @example
 * ```ts
 * import { runValues } from "./login_account.ts";
 * import { ymap } from "../yaml_out.ts";
 * const op = { method: "POST", template: "/auth/login" } as never;
 * const shared = { inferred: { login: { op, schemes: new Map() } }, auth: { envVar: (_s: string, b: string) => b } };
 * const runVars = new Set<string>();
 * const fields = runValues([["body", ymap([["password", "password"]])]], shared, op, runVars, new Set());
 * if (!JSON.stringify(fields).includes("${ENV.LOGIN_PASSWORD}") || runVars.size !== 0) throw new Error();
 * ```
 */
export function runValues(
  fields: [string, YNode][],
  shared: { inferred: { login?: Login }; auth: EnvNamer; doc?: Node; flow?: FlowOps },
  op: OpenApiOperation,
  runVars: Set<string>,
  samples: ReadonlySet<string>,
): [string, YNode][] {
  const { account, other } = accountOf(shared, op);
  if (other) fields = withCredentials(shared.doc!, op, fields, account!);
  // The login and its sign-up send the account's fields though the schema requires none (Feathers).
  const { login } = shared.inferred;
  const signs = login !== undefined &&
    (login.op === op || login.register === op || login.credentials === op);
  const registers = registersAccount(login, op);
  if (signs && shared.doc) {
    const role = registers ? "register" : login.credentials === op ? "password" : "";
    fields = withCredentials(shared.doc, op, fields, account ?? runVars, role, login.op);
  }
  const byEmail = signsInByEmail(shared.doc, login, op, registers);
  // A sign-up's example names are every account's unless made the run's (signup_names.ts).
  const names = registers && shared.doc
    ? new Set([...samples, ...signUpNames(shared.doc, op, fields)])
    : samples;
  // A second create of an account is its own, not the run's (another_account.ts).
  const another = !account && shared.doc !== undefined &&
    makesAnotherAccount(shared.doc, op, login);
  // The sign-up's second in its own flow beside the first: an account apart (second_signup.ts).
  const apart = sentApart(shared, op);
  const limits = lengthLimits(shared.doc, op);
  // A member bounded to n-digit numbers is a code, fresh each time (digit_codes.ts).
  const codes = digitCodes(shared.doc, op);
  const ran = (v: YNode) => {
    const run = freshCodes(perRun(v, account ?? runVars, "", names, false, true, limits), codes);
    const made = another ? ownIdentity(run) : apart ? apartVars(run, runVars) : run;
    if (byEmail) return asEmail(made, runVars);
    return account ? signInAs(made, account, shared.auth, `${op.method} ${op.template}`) : made;
  };
  // Password members exampled apart (a change's new one) are not the run's (changed_password.ts).
  const changed = shared.doc ? apartPasswords(shared.doc, op.node) : new Set<string>();
  return fields.map((
    [k, v],
  ) => [
    k,
    k === "multipart" ? textParts(v, ran) : k === "body" ? madeApart(ran(v), changed) : ran(v),
  ]);
}

/**
 * Whether `op`'s account names are the run's email: the login's form `username` beside a sign-up
 * of an address alone, or, in both, beside a sign-up taking a user name and an address
 * (`one_identity.ts`).
 */
function signsInByEmail(
  doc: Node | undefined,
  login: Login | undefined,
  op: OpenApiOperation,
  registers: boolean,
): boolean {
  if (login === undefined) return false;
  if (login.op === op && nameIsEmail(doc, login)) return true;
  return (login.op === op || registers) && sharesIdentity(doc, login);
}

/**
 * A multipart body with its text parts made per run as a body's members are, its files kept:
 * a sign-up sent as multipart (beside an avatar) sent `password: string` and the example's email,
 * and the login after it, sending the run's, found no account.
 */
function textParts(v: YNode, ran: (v: YNode) => YNode): YNode {
  if (!isMap(v)) return v;
  const texts = ran({ kind: "map", entries: v.entries.filter(([, x]) => !isMap(x)) });
  const made = new Map(isMap(texts) ? texts.entries : []);
  return { kind: "map", entries: v.entries.map(([k, x]) => [k, isMap(x) ? x : made.get(k) ?? x]) };
}

/** Whether `op` makes the account the login signs in: its register, or a login that makes its own (self_signup.ts). */
function registersAccount(login: Login | undefined, op: OpenApiOperation): boolean {
  return login?.register === op || (login?.signsUp === true && login.op === op);
}

function isMap(v: YNode): v is YMap {
  return v !== null && typeof v === "object" && !Array.isArray(v) && v.kind === "map";
}

/**
 * Whose account `op` signs in or confirms: the user's (a set to gather the
 * run vars it reads) for a login no sign-up precedes, another sign-in
 * (`other`), or a confirmation of the signed-in account; else none.
 */
function accountOf(
  shared: { inferred: { login?: Login }; doc?: Node },
  op: OpenApiOperation,
): { account?: Set<string>; other: boolean } {
  const { login } = shared.inferred;
  // A sign-in needing the document's key is no login of the suite's, but signs in as the user too.
  const other = login?.op !== op && shared.doc !== undefined && isSignIn(shared.doc, op);
  // A password alone, asked by a call of the user's account, is that account's (confirmOwn).
  const usersOwn = login !== undefined && !login.register && !login.signsUp;
  const own = usersOwn && login.op !== op && shared.doc !== undefined &&
    confirmsOwn(shared.doc, op);
  const users = (login?.op === op && usersOwn) || other || own;
  return { account: users ? new Set<string>() : undefined, other };
}

/**
 * Whether `op`'s JSON body is a password alone: a call made with the login's
 * token asking the signed-in account to confirm itself (Homebridge UI's
 * `POST /api/users/otp/deactivate {password}`). A body with a second
 * password (`{currentPassword, newPassword}`) or a name besides is no such
 * confirmation.
 *
 * @example
 * ```ts
 * import { confirmsOwn } from "./login_account.ts";
 * const body = (properties: object) => ({ requestBody: { content: { "application/json": {
 *   schema: { type: "object", properties } } } } });
 * const op = (node: object) => ({ method: "POST", template: "/x", node }) as never;
 * if (!confirmsOwn({}, op(body({ password: { type: "string" } })))) throw new Error();
 * if (confirmsOwn({}, op(body({ password: {}, newPassword: {} })))) throw new Error();
 * ```
 */
export function confirmsOwn(doc: Node, op: OpenApiOperation): boolean {
  const media = jsonBodyMedia(doc, op.node);
  const props = properties(doc, isNode(media) ? media.schema : undefined);
  return props.length === 1 && isPasswordField(props[0][0], props[0][1]);
}

/**
 * A sign-in's JSON body with the credentials it takes and left out (proto3 requires nothing):
 * its password, and its one other text property as the account's user name (its email, by
 * format), as the run vars {@linkcode signInAs} reads from the user's variables (added to `used`).
 * A sign-up (`register`) sends its account's email too, though its schema requires none: an
 * account's address is part of what a sign-up makes (Django's `create_user(email=…)` read it from
 * a register's data the generated document marks optional, and answered 500 without it). The
 * create that sets a two-create sign-up's password (`password`) sends the password only. A
 * sign-up whose body names no password sends the one `login` takes (unsaid_password.ts).
 */
function withCredentials(
  doc: Node,
  op: OpenApiOperation,
  fields: [string, YNode][],
  used: Set<string>,
  role: "register" | "password" | "" = "",
  login?: OpenApiOperation,
) {
  const register = role === "register";
  // A sign-up whose document names no password sends the login's (unsaid_password.ts).
  const unsaid = register && login ? unsaidPassword(doc, op, login, isPasswordField) : undefined;
  const media = jsonBodyMedia(doc, op.node);
  // A member wrapping a choice or a number (pydantic 1's `{allOf: [{$ref}]}`) is no credential.
  const props = properties(doc, isNode(media) ? media.schema : undefined)
    .map(([name, p]): [string, Node] => [name, memberKind(doc, p)])
    .filter(([, p]) => p.type === "string" || p.type === undefined)
    .filter(([, p]) => p.enum === undefined && p.const === undefined);
  const ids = props.filter(([name, p]) => !isPasswordField(name, p));
  const address = (p: Node) => register && p.format === "email";
  // A sign-up sends the identity its login signs in with, by the login's body (login_identity.ts).
  const signsInWith = register && login ? loginIdentity(doc, login, isPasswordField) : new Set();
  // The second create of a two-create sign-up sets the password alone (nested_signup.ts).
  const made = props.filter(([name, p]) =>
    isPasswordField(name, p) ||
    (role !== "password" && (ids.length === 1 || address(p) || signsInWith.has(name)))
  )
    .map(([name, p]): [string, string] => {
      const run = isPasswordField(name, p)
        ? "password"
        : p.format === "email" || /e-?mail/i.test(name)
        ? "email"
        : "username";
      return [name, run];
    });
  if (unsaid) made.push([unsaid, "password"]);
  return fields.map(([k, v]): [string, YNode] => {
    if (
      k !== "body" || v === null || typeof v !== "object" || Array.isArray(v) || v.kind !== "map"
    ) {
      return [k, v];
    }
    // Only what it adds reads a run var here; a field there already is made per run as it is.
    const absent = made.filter(([name]) => !v.entries.some(([key]) => key === name));
    for (const [, run] of absent) used.add(run);
    const added = absent.map(([name, run]): [string, YNode] => [name, `\${vars.${run}}`]);
    return [k, { ...v, entries: [...v.entries, ...added] }];
  });
}

/**
 * Whether the login's form `username` is the email its register takes
 * (OAuth2's password request names the account `username` whatever it is:
 * FastAPI's form login beside a sign-up of `{email, password}`).
 */
function nameIsEmail(doc: Node | undefined, login: Login): boolean {
  if (doc === undefined || login.register === undefined) return false;
  const register = bodyFields(doc, login.register);
  return formRequired(doc, login.op)?.has("username") === true && !register.has("username") &&
    register.has("email");
}

/** `node` with the run var `username` read as the run's `email` (added to `used`). */
function asEmail(node: YNode, used: Set<string>): YNode {
  if (Array.isArray(node)) return node.map((n) => asEmail(n, used));
  if (typeof node === "string") {
    if (!node.includes("${vars.username}")) return node;
    used.add("email");
    return node.replaceAll("${vars.username}", "${vars.email}");
  }
  if (node !== null && typeof node === "object" && node.kind === "map") {
    return { ...node, entries: node.entries.map(([k, v]) => [k, asEmail(v, used)]) };
  }
  return node;
}

/**
 * For the summary of a suite that registers its own account: how to sign
 * in as an account the user has instead (a server whose sign-up is closed,
 * or whose users an admin makes): the flows' vars the login reads, given
 * in a `--vars-file` (run parameters override a flow's vars).
 *
 * @example
 * ```ts
 * import { ownAccountHint } from "./login_account.ts";
 * const json = { content: { "application/json": { schema: { properties: { email: { type: "string" }, password: { type: "string" } } } } } };
 * const op = (template: string) => ({ method: "POST", template, node: { requestBody: json } }) as never;
 * const hint = ownAccountHint({}, { op: op("/login"), register: op("/users"), schemes: new Map() });
 * if (!hint.includes("give its email and password in a --vars-file")) throw new Error(hint);
 * ```
 */
export function ownAccountHint(doc: Node, login: Login): string {
  const fields = [...bodyFields(doc, login.op)];
  // The login's form `username` reads the run's email when it is the sign-up's both names too.
  const byEmail = nameIsEmail(doc, login) || sharesIdentity(doc, login);
  const identity = byEmail || fields.some((f) => /e?mail$/.test(f))
    ? "email"
    : fields.some((f) => USER_NAMES.has(f))
    ? "username"
    : undefined;
  const vars = identity ? `${identity} and password` : "password";
  return `to sign in as an account of yours instead (a server whose sign-up is closed), give its ${vars} in a --vars-file`;
}
