/**
 * A sign-up under the document's root security requirement alone. LoopBack
 * 4's JWT example puts `security: [{jwt: []}]` on the whole API and
 * overrides it nowhere, so its `POST /signup` read as needing the login's
 * token: no operation made the account, and the summary asked the user for
 * one. A sign-up makes the account whose token that requirement asks for, so
 * it cannot need it. What says a create is that sign-up is the document,
 * never its path's words (`/signup`, `/accounts`, `/users` alike):
 *
 * - it takes the login's credentials: every property the login's body has,
 *   by the same name, is the same type and format in its body (the caller
 *   checks it takes each of them, the password included); `format:
 *   password` is no kind of value but a hint to hide what is typed;
 * - it answers an account made: a 201, an answer schema the login or a read
 *   of no parameter (`GET /me`) answers too, or an answer holding each name
 *   the login identifies the account by (its email: the account those
 *   credentials name); or its body is the login's own, nothing more (the
 *   credentials it makes are exactly those the login takes), and its answer
 *   is not the login's (that would be a second sign-in);
 * - it states no security of its own, and lists no 401 or 403: a create
 *   that says it may refuse its caller (an admin's) has a caller to refuse,
 *   and one stating a requirement was said by its author to need it,
 *   unless its login states the same one (login_blanket.ts).
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import type { OpenApiOperation } from "./operations.ts";
import { responseSchemas } from "./response_paths.ts";
import { properties } from "./schema_properties.ts";
import { plainName } from "./required_props.ts";
import { examplesAToken } from "./exampled_token.ts";
import { statesLoginsRequirement } from "./login_blanket.ts";

/** What the login module gives this one: an operation's credential fields (`bodyFields`). */
export type FieldsOf = (op: OpenApiOperation) => Set<string>;

/** The top-level properties of `op`'s JSON or form body, by name: each one's type and format. */
function bodyTypes(doc: Node, op: OpenApiOperation): Map<string, string> {
  const body = deref(doc, op.node.requestBody);
  const content = isNode(body) && isNode(body.content) ? body.content : {};
  const type = Object.keys(content).find((t) => /json|form/i.test(t));
  const media = type === undefined ? undefined : content[type];
  const schema = isNode(media) ? media.schema : undefined;
  return new Map(properties(doc, schema).map(([n, s]) => [n, `${s.type}/${credentialFormat(s)}`]));
}

/**
 * A credential's format as a kind of value: `password` is none, the specification's hint to a user
 * interface to hide what is typed (a todo API's sign-up marked it, its login did not: the same text).
 */
function credentialFormat(s: Node): unknown {
  return s.format === "password" ? undefined : s.format;
}

/** Whether each property of the login's body that `op`'s body has too is of the same type and format. */
function sameCredentials(doc: Node, op: OpenApiOperation, login: OpenApiOperation): boolean {
  const theirs = bodyTypes(doc, op);
  return [...bodyTypes(doc, login)].every(([n, t]) => !theirs.has(n) || theirs.get(n) === t);
}

/**
 * Whether `op`'s body is the login's own: the same properties, each of the same type and format,
 * nothing more. Such a create makes exactly the credentials the login takes (a notes API's
 * `POST /api/user/signup {username, password}` beside its login's, answering an undescribed
 * 200); an admin's create of users takes more (a role, a name).
 */
function loginsBody(doc: Node, op: OpenApiOperation, login: OpenApiOperation): boolean {
  const mine = bodyTypes(doc, op);
  const theirs = bodyTypes(doc, login);
  return mine.size > 0 && mine.size === theirs.size &&
    [...theirs].every(([n, t]) => mine.get(n) === t);
}

/** Whether `op` lists an answer refusing its caller: 401 or 403. */
function refusesCaller(op: OpenApiOperation): boolean {
  const responses = isNode(op.node.responses) ? op.node.responses : {};
  return Object.hasOwn(responses, "401") || Object.hasOwn(responses, "403");
}

/** Each 2xx answer schema of `op` that names members, as text (to compare with another's). */
function shapes(doc: Node, op: OpenApiOperation): string[] {
  return responseSchemas(doc, op).filter((s) => properties(doc, s).length > 0)
    .map((s) => JSON.stringify(deref(doc, s)));
}

/** Whether `op` answers an account made (see the module doc). */
function answersAccount(
  doc: Node,
  op: OpenApiOperation,
  login: OpenApiOperation,
  ops: readonly OpenApiOperation[],
  fields: FieldsOf,
): boolean {
  const responses = isNode(op.node.responses) ? op.node.responses : {};
  if (Object.hasOwn(responses, "201")) return true;
  const reads = ops.filter((o) => o.method === "GET" && !o.template.includes("{"));
  const known = new Set([login, ...reads].flatMap((o) => shapes(doc, o)));
  if (shapes(doc, op).some((s) => known.has(s))) return true;
  const identity = [...fields(login)].filter((f) => f !== "\0password");
  return identity.length > 0 && responseSchemas(doc, op).some((s) => {
    const names = new Set(properties(doc, s).map(([n]) => plainName(n)));
    return identity.every((f) => names.has(f));
  });
}

/**
 * Whether `op`, a POST taking the login's every credential field (which the
 * caller checks), is the sign-up of the login `login` though it inherits the
 * root's security (see the module doc).
 *
 * @example
 * ```ts
 * import { inheritedSignUp } from "./inherited_signup.ts";
 * const json = (properties: object) => ({ content: { "application/json": { schema: { properties } } } });
 * const creds = json({ email: { type: "string" }, password: { type: "string" } });
 * const op = (template: string, extra: object = {}) =>
 *   ({ method: "POST", template, node: { requestBody: creds, responses: { "201": {} }, ...extra } }) as never;
 * const login = op("/login");
 * const fields = () => new Set(["email", "\0password"]);
 * if (!inheritedSignUp({}, op("/accounts"), login, [], fields)) throw new Error();
 * if (inheritedSignUp({}, op("/accounts", { security: [{ jwt: [] }] }), login, [], fields)) throw new Error();
 * if (inheritedSignUp({}, op("/accounts", { responses: { "201": {}, "403": {} } }), login, [], fields)) {
 *   throw new Error();
 * }
 * ```
 */
export function inheritedSignUp(
  doc: Node,
  op: OpenApiOperation,
  login: OpenApiOperation,
  ops: readonly OpenApiOperation[],
  fields: FieldsOf,
): boolean {
  if (op === login || op.method !== "POST") return false;
  if (Array.isArray(op.node.security) && !statesLoginsRequirement(op, login)) return false;
  if (refusesCaller(op) || !sameCredentials(doc, op, login)) return false;
  if (!loginsBody(doc, op, login)) return answersAccount(doc, op, login, ops, fields);
  // The login's body and the login's answer: a second sign-in, nothing says it makes an account;
  // not where only the login's example shows its token (exampled_token.ts) and `op`'s shows none.
  if (examplesAToken(doc, login) && !examplesAToken(doc, op)) return true;
  const answers = shapes(doc, login);
  return !shapes(doc, op).some((s) => answers.includes(s));
}
