/**
 * A login operation whose response holds a token, and the security schemes
 * that token is the credential of: an operation that needs no credentials,
 * takes a body with a password and answers with a `token` (`access_token`,
 * `jwt`, …) is where the suite gets its credential, instead of an
 * environment variable. The token is sent as the scheme says: http bearer
 * as `Bearer …`; an apiKey as its header, query parameter or cookie, with
 * the word its description shows before a token (`Token
 * xxxxxx.yyyyyyy.zzzzzz` → `Token <token>`), else `Bearer` in an
 * `Authorization` header, else the token alone. The account it signs in
 * with is registered first by the create that takes the same credential
 * fields (Conduit's `POST /users` before `POST /users/login`).
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import { isCollection, type OpenApiOperation } from "./operations.ts";
import { findProperty, plainName, responseSchemas } from "./producers.ts";
import { namesLogin, type TokenScheme, tokenSchemes } from "./token_schemes.ts";
import { properties } from "./schema_properties.ts";
import { accessOfPair } from "./access_pair.ts";
import { schemedWord } from "./schemed_token.ts";
import { makesItem } from "./makes_item.ts";
import { inheritedSignUp } from "./inherited_signup.ts";
import { nestedSignup } from "./nested_signup.ts";
import { formRequired } from "./form_required.ts";
import { examplesAToken } from "./exampled_token.ts";
import { readByName } from "./token_by_name.ts";
import { describesNoMember, wrapsOpaqueMember } from "./opaque_answer.ts";
import { withSelfSignUp } from "./self_signup.ts";
import { namedSignIn, SIGN_UP } from "./sign_words.ts";
import { signUpOmittingPassword } from "./unsaid_password.ts";
import { namesOnlyBlanket } from "./blanket_requirement.ts";
import { isPasswordField } from "./password_field.ts";
import { memberKind } from "./wrapped_member.ts";
import { queryCredentials } from "./query_login.ts";
import { withBare } from "./bare_token.ts";

export type { TokenScheme } from "./token_schemes.ts";

export { TOKEN_KEYS, tokenSource } from "./token_source.ts";

/** The login, where its token is, and who it signs in as. */
export interface Login {
  op: OpenApiOperation;
  /**
   * The token's path in the login's JSON response (`["user", "token"]`); none when the schema
   * shows no token and the scheme's description names the login (`regex` finds it in the body).
   */
  path?: string[];
  /** The create that registers the account the login signs in with, when the document has one. */
  register?: OpenApiOperation;
  /**
   * The create under the register's item that sets the account's password, when the sign-up
   * is two creates (nested_signup.ts).
   */
  credentials?: OpenApiOperation;
  /** Whether the login, with no register, makes the account it signs in (`self_signup.ts`). */
  signsUp?: boolean;
  /** Whether the register's answer holds the token too (see {@linkcode tokenGiver}). */
  registerAnswers?: boolean;
  /** Another create taking the same credentials, signed up with when the register is refused (second_signup.ts). */
  alternate?: OpenApiOperation;
  /** Each scheme the token serves. */
  schemes: Map<string, TokenScheme>;
  /** Whether it signs in by the session cookie its answer sets, and has no token (`session_login.ts`). */
  session?: boolean;
  /** The word the documented token already starts with (`Bearer`), cut off when captured (`schemed_token.ts`). */
  schemed?: string;
  /** Read by name, its successes giving no media type: the whole body may be the token (`bare_token.ts`). */
  bare?: boolean;
}

const TOKEN_NAMES = new Set([
  "token",
  "accesstoken",
  "jwt",
  "idtoken",
  "authtoken",
  "sessiontoken",
  "bearertoken",
  "apitoken",
]);

/**
 * The leaf names of a request body's JSON schema, two levels deep, and whether one is a password;
 * a choice (`enum`, `const`) or a read-only member is none. A bodiless POST's required query
 * parameters count as its body when one is a password (query_login.ts).
 *
 * @example
 * ```ts
 * import { bodyFields } from "./login.ts";
 * const schema = { properties: { email: { type: "string" }, password: { type: "string" } } };
 * const op = { node: { requestBody: { content: { "application/json": { schema } } } } };
 * if ([...bodyFields({}, op as never)].join() !== "email,\0password") throw new Error();
 * ```
 */
export function bodyFields(doc: unknown, op: OpenApiOperation): Set<string> {
  const body = deref(doc, op.node.requestBody);
  const content = isNode(body) && isNode(body.content) ? body.content : {};
  const type = Object.keys(content).find((t) => /json|form/i.test(t));
  const media = type === undefined ? undefined : content[type];
  const names = new Set<string>();
  const schema = isNode(media) ? media.schema : queryCredentials(doc, op);
  findProperty(doc, schema, (name, member) => {
    // A member wrapping a schema (pydantic 1's `{allOf: [{$ref}], default}`) is of its kind.
    const s = memberKind(doc, member);
    // A field with an `enum` or `const` picks how to sign in (Feathers' `strategy`): no credential.
    if (s.enum !== undefined || s.const !== undefined) return false;
    // A read-only member (simplejwt's `access` and `refresh`, in the schema its login shares
    // with its answer) is never sent: no credential, nor a field a register must take.
    if (s.readOnly === true) return false;
    if (isPasswordField(name, s)) names.add("\0password");
    // A member of no type that has properties (pydantic 1's `{title, allOf: [{$ref}]}`) is an object.
    else if (s.type === "string" || (s.type === undefined && properties(doc, s).length === 0)) {
      names.add(plainName(name));
    }
    return false;
  });
  return names;
}

/**
 * The login of a document, if it has one.
 *
 * @example
 * ```ts
 * import { findLogin } from "./login.ts";
 * import { operationsOf } from "./operations.ts";
 * const json = (properties: object) => ({ content: { "application/json": { schema: { properties } } } });
 * const doc = { components: { securitySchemes: { jwt: { type: "http", scheme: "bearer" } } }, security: [{ jwt: [] }],
 *   paths: { "/login": { post: { security: [], requestBody: json({ user: { type: "string" }, password: { type: "string" } }),
 *     responses: { "200": json({ access_token: { type: "string" } }) } } } } };
 * const login = findLogin(doc, operationsOf(doc));
 * if (login?.path?.join() !== "access_token" || !login.schemes.get("jwt")?.bearer) throw new Error();
 * ```
 */
export function findLogin(doc: Node, ops: OpenApiOperation[]): Login | undefined {
  const schemes = tokenSchemes(doc);
  if (schemes.size === 0) return undefined;
  let best: LoginCandidate | undefined;
  for (const op of ops) {
    const candidate = loginCandidate(doc, op, schemes);
    if (candidate && (!best || candidate.score > best.score)) best = candidate;
  }
  if (!best) return undefined;
  // Without a token in the schema, only the schemes whose description names the login use it
  // (or, for a sign-in whose answer the document leaves undescribed, each scheme a token serves).
  const template = best.op.template;
  const served = best.path || best.unsaid
    ? schemes
    : new Map([...schemes].filter(([, s]) => namesLogin(s, template)));
  const single = registerFor(doc, ops, best.op);
  const nested = single ? undefined : nestedSignup(ops, best.op, {
    wanted: loginFields(doc, best.op),
    fields: (op) => bodyFields(doc, op),
    open: (op) => needsNoCredentials(doc, op),
  });
  const register = single ?? nested?.register;
  const credentials = nested?.credentials;
  const registerAnswers = answersToken(doc, register, best);
  const alternate = register && registerFor(doc, ops.filter((op) => op !== register), best.op);
  const { op, path } = best;
  const schemed = path && schemedWord(doc, op, path, served);
  const made = { op, path, register, credentials, registerAnswers, alternate, schemes: served };
  const login = withSelfSignUp(doc, made);
  return schemed ? { ...login, schemed } : withBare(doc, login);
}

/**
 * The operation a flow that does not test the login takes the token from:
 * the register when its answer holds the token too (RealWorld's sign-up
 * answers the login's `UserResponse`), which spares each such flow a login
 * (a real RealWorld backend allows 20 sign-ups and logins per address per
 * 15 minutes); else the login.
 *
 * @example
 * ```ts
 * import { tokenGiver } from "./login.ts";
 * const [op, register] = [{ template: "/login" }, { template: "/users" }];
 * if (tokenGiver({ op, register, registerAnswers: true } as never) !== register) throw new Error();
 * if (tokenGiver({ op, register } as never) !== op) throw new Error();
 * ```
 */
export function tokenGiver(login: Login): OpenApiOperation {
  return login.register && login.registerAnswers ? login.register : login.op;
}

/**
 * Whether the register's answer holds the login's token, by what the
 * document shows: a token at the login's path, or, where the login's token
 * is found by name, the login's own answer schema.
 */
function answersToken(doc: Node, register: OpenApiOperation | undefined, login: LoginCandidate) {
  if (!register) return false;
  const schemas = responseSchemas(doc, register);
  const token = (s: unknown) => findProperty(doc, s, (n) => TOKEN_NAMES.has(plainName(n)));
  if (login.path) return schemas.some((s) => token(s)?.join("\0") === login.path!.join("\0"));
  // Where only the login's example shows the token, the register's answer must show one too.
  if (examplesAToken(doc, login.op)) return examplesAToken(doc, register);
  // An envelope every answer shares (`{code, message, data}`) says nothing of whose holds a token.
  if (wrapsOpaqueMember(doc, login.op)) return false;
  // Nor do two answers that name no member (FastAPI's `{}` for a route without a
  // `response_model`): alike, they say nothing of which holds the token.
  if (describesNoMember(doc, login.op)) return false;
  const own = new Set(responseSchemas(doc, login.op).map((s) => JSON.stringify(deref(doc, s))));
  return schemas.some((s) => own.has(JSON.stringify(deref(doc, s))));
}

/**
 * Whether an answer of `op` shows a member named like a token.
 *
 * @example
 * ```ts
 * import { answersAToken } from "./login.ts";
 * const op = { node: { responses: { "200": { content: { "application/json": { schema: { properties: { jwt: {} } } } } } } } };
 * if (!answersAToken({}, op as never)) throw new Error();
 * ```
 */
export function answersAToken(doc: Node, op: OpenApiOperation): boolean {
  const token = (s: unknown) => findProperty(doc, s, (n) => TOKEN_NAMES.has(plainName(n)));
  return responseSchemas(doc, op).some((s) => token(s) !== undefined);
}

/** An operation that may be the login, where its token is, and how likely it is the one. */
interface LoginCandidate {
  op: OpenApiOperation;
  path?: string[];
  score: number;
  /** A sign-in whose answer the document does not describe: its token is found by name. */
  unsaid?: boolean;
}

/**
 * The operation as a login, if it can be one: a POST needing no credentials, with a password
 * in its body and a token in its answer (or a scheme naming it); the highest score wins.
 */
function loginCandidate(
  doc: Node,
  op: OpenApiOperation,
  schemes: Map<string, TokenScheme>,
): LoginCandidate | undefined {
  if (op.method !== "POST" || !needsNoCredentials(doc, op)) return undefined;
  const fields = bodyFields(doc, op);
  if (!fields.has("\0password")) return undefined;
  let path: string[] | undefined;
  for (const schema of responseSchemas(doc, op)) {
    path ??= findProperty(doc, schema, (n) => TOKEN_NAMES.has(plainName(n))) ??
      accessOfPair(doc, schema);
  }
  // RealWorld's 3.0 document shows no token in the login's answer; its scheme says "A JWT
  // token is generated by … logging in via /users/login".
  const named = [...schemes.values()].some((s) => namesLogin(s, op.template));
  const unsaid = !path && !named && readByName(doc, op);
  if (!path && !named && !unsaid) return undefined;
  const signIn = namedSignIn(op);
  const score = (path ? 2 : 0) + (signIn ? 2 : 1) - (unsaid ? 1 : 0);
  return { op, path, score, unsaid };
}

/**
 * Whether `op` signs in though it needs the document's credentials itself, so is no suite's login:
 * a POST taking a password and answering a token (etcd's `authenticate`, under its `ApiKey`).
 *
 * @example
 * ```ts
 * import { isSignIn } from "./login.ts";
 * import { operationsOf } from "./operations.ts";
 * const json = (properties: object) => ({ content: { "application/json": { schema: { properties } } } });
 * const doc = { security: [{ key: [] }], paths: { "/auth": { post: {
 *   requestBody: json({ name: {}, password: {} }), responses: { "200": json({ token: { type: "string" } }) } } } } };
 * if (!isSignIn(doc, operationsOf(doc)[0])) throw new Error();
 * ```
 */
export function isSignIn(doc: Node, op: OpenApiOperation): boolean {
  if (op.method !== "POST" || needsNoCredentials(doc, op)) return false;
  if (!bodyFields(doc, op).has("\0password") || makesItem(doc, op)) return false;
  // A current and a new password change the signed-in account's (better-auth's change-password).
  return passwordsOf(doc, op) < 2 && answersAToken(doc, op);
}

/** How many password properties `op`'s JSON body has, one level deep. */
function passwordsOf(doc: Node, op: OpenApiOperation): number {
  return properties(doc, jsonSchemaOf(doc, op)).filter(([n, p]) => isPasswordField(n, p)).length;
}

/** The schema of `op`'s `application/json` body. */
function jsonSchemaOf(doc: Node, op: OpenApiOperation): unknown {
  const body = deref(doc, op.node.requestBody);
  const media = isNode(body) && isNode(body.content) ? body.content["application/json"] : undefined;
  return isNode(media) ? media.schema : undefined;
}

/**
 * The create taking every credential field the login takes (not the login
 * itself). A login taking a form is OAuth2's password request (RFC 6749,
 * 4.3.2): only the fields its form requires are the account's, and its
 * `username` is the account's name, an email when the create takes no user
 * name (FastAPI's `OAuth2PasswordRequestForm` beside `{email, password}`).
 *
 * @example
 * ```ts
 * import { registerFor } from "./login.ts";
 * import { operationsOf } from "./operations.ts";
 * const body = { content: { "application/json": { schema: { properties: { email: {}, password: {} } } } } };
 * const doc = { paths: { "/users": { post: { requestBody: body } }, "/login": { post: { requestBody: body } } } };
 * const [users, login] = operationsOf(doc);
 * if (registerFor(doc, [users, login], login) !== users) throw new Error();
 * ```
 */
export function registerFor(
  doc: Node,
  ops: OpenApiOperation[],
  login: OpenApiOperation,
): OpenApiOperation | undefined {
  const required = formRequired(doc, login);
  const wanted = loginFields(doc, login);
  const fields = (op: OpenApiOperation) => bodyFields(doc, op);
  const creates = ops.filter((op) => {
    if (op === login || op.method !== "POST" || !isCollection(op.template)) return false;
    const has = bodyFields(doc, op);
    const named = (f: string) =>
      has.has(f) || (required !== undefined && f === "username" && has.has("email"));
    return wanted.every(named) &&
      (needsNoCredentials(doc, op) || inheritedSignUp(doc, op, login, ops, fields));
  });
  // A create named for signing up (`/auth/signup`) is the account's, before a plain users' create
  // that the document lists first (an admin's `POST /users`); one open by what it states, before
  // one that only inherits the root's requirement.
  const found = creates.find((op) => SIGN_UP.test(`${op.template} ${op.name}`)) ??
    creates.find((op) => needsNoCredentials(doc, op)) ?? creates[0];
  return found ?? signUpFor(doc, ops, login) ??
    signUpOmittingPassword(ops, wanted, fields, (op) => needsNoCredentials(doc, op));
}

/**
 * A sign-up (`/sign-up/email`) taking the fields the login's JSON body requires, though not an
 * option of the login's (better-auth's sign-in takes a `rememberMe` text, its sign-up a boolean).
 */
function signUpFor(doc: Node, ops: OpenApiOperation[], login: OpenApiOperation) {
  const schema = deref(doc, jsonSchemaOf(doc, login));
  const listed = isNode(schema) && Array.isArray(schema.required) ? schema.required : [];
  const fields = bodyFields(doc, login);
  const wanted = listed.map((r) => isPasswordField(String(r)) ? "\0password" : plainName(String(r)))
    .filter((r) => fields.has(r));
  if (!wanted.includes("\0password")) return undefined;
  return ops.find((op) =>
    op !== login && op.method === "POST" && SIGN_UP.test(op.template) &&
    needsNoCredentials(doc, op) && wanted.every((f) => bodyFields(doc, op).has(f))
  );
}

/** The credential fields of a login (`bodyFields`), only those its form requires when it takes one. */
function loginFields(doc: Node, login: OpenApiOperation): string[] {
  const required = formRequired(doc, login);
  return [...bodyFields(doc, login)].filter((f) =>
    required === undefined || f === "\0password" || required.has(f)
  );
}

/**
 * Whether an operation asks for no credentials (`security: []`, or none in the document).
 *
 * @example
 * ```ts
 * import { needsNoCredentials } from "./login.ts";
 * if (!needsNoCredentials({}, { node: {} } as never) || needsNoCredentials({ security: [{ k: [] }] }, { node: {} } as never)) throw new Error();
 * ```
 */
export function needsNoCredentials(doc: Node, op: OpenApiOperation): boolean {
  const security = Array.isArray(op.node.security) ? op.node.security : doc.security;
  const options = Array.isArray(security) ? security.filter(isNode) : [];
  if (options.length === 0 || options.some((o) => Object.keys(o).length === 0)) return true;
  return handsOutToken(doc, op);
}

/**
 * Whether `op` hands out the credential, whatever it declares: a POST whose path says it signs in
 * or up (`/sign-in/email`, `/register`), or whose requirement names only schemes no other
 * operation requires (`blanket_requirement.ts`: DRF's token view under drf-spectacular), taking
 * a password, answering a token or nothing it describes (`token_by_name.ts`). What it declares is
 * a blanket requirement (better-auth's). A sign-up answering no token that only inherits the
 * root's requirement is `registerFor`'s to find, by the login's evidence (`inheritedSignUp`).
 */
function handsOutToken(doc: Node, op: OpenApiOperation): boolean {
  const named = /sign[-_]?(in|up)|log[-_]?in|regist/i.test(op.template);
  if (op.method !== "POST" || !(named || namesOnlyBlanket(doc, op.node))) return false;
  return bodyFields(doc, op).has("\0password") &&
    (answersAToken(doc, op) || readByName(doc, op));
}
